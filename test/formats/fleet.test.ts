/**
 * A fleet plan out: GeoJSON features carry each machine's id and times, and every wait; ISO-XML is one
 * TASKDATA with a task per machine, each allocated its own guidance group, valid against the v4.3 XSD
 * and read back by the isoxml library.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ISOXMLManager } from 'isoxml';
import { planFleet, type FleetPlan } from '@furrow/core';
import { fleetToFeatureCollection, readBoundary } from '@furrow/format-geojson';
import { fleetToTaskData, zipTaskData } from '@furrow/format-isoxml';
import { describeWith } from '../support/requires.js';
import { corpusField } from './support/fixtures.js';

const run = promisify(execFile);
const XSD = fileURLToPath(new URL('../../packages/format-isoxml/xsd/ISO11783_TaskFile_V4-3.xsd', import.meta.url));

let plan: FleetPlan;
beforeAll(() => {
  const field = corpusField('at-ref-003');
  const [b] = readBoundary(field.text, field.file);
  plan = planFleet({
    field: b.geometry,
    fleet: [
      { id: 'north & co', widthMeters: 6, turnRadiusMeters: 6 },
      { id: 'south', widthMeters: 6, turnRadiusMeters: 6 },
      { id: 'third', widthMeters: 6, turnRadiusMeters: 6 },
    ],
  });
}, 120_000);

describe('fleet GeoJSON', () => {
  it('every route feature names its machine and its times; every wait is a Point', () => {
    const fc = fleetToFeatureCollection(plan);
    const route = fc.features.filter((f) => f.geometry.type === 'LineString');
    expect(route.length).toBe(plan.machines.reduce((s, m) => s + m.route.length, 0));
    for (const f of route) {
      expect(plan.machines.map((m) => m.machineId)).toContain(f.properties.machineId);
      expect(typeof f.properties.startSeconds).toBe('number');
      expect(f.properties.endSeconds as number).toBeGreaterThanOrEqual(f.properties.startSeconds as number);
    }
    const waits = fc.features.filter((f) => f.properties.type === 'Wait');
    expect(waits.length).toBe(plan.machines.reduce((s, m) => s + m.waits.length, 0));
    expect(fc.fleet.makespanSeconds).toBe(plan.fleet.makespanSeconds);
    expect(JSON.parse(JSON.stringify(fc))).toEqual(fc);
  });

  it('carries every warning of the fleet (a placed one also as a Warning feature)', () => {
    const warnings = [
      { code: 'fleet-conflict', feature: 'fleet', message: '1 route pieces could not be cleared by a wait' },
      {
        code: 'unworked-area',
        feature: 'route',
        message: 'unworked',
        geometry: { type: 'Point', coordinates: [8, 47] },
      },
    ];
    const fc = fleetToFeatureCollection({ ...plan, warnings } as FleetPlan);
    expect(fc.warnings).toEqual(warnings);
    const placed = fc.features.filter((f) => f.properties.type === 'Warning');
    expect(placed.map((f) => [f.properties.code, f.geometry])).toEqual([['unworked-area', warnings[1].geometry]]);
    expect(fleetToFeatureCollection(plan).warnings).toEqual(plan.warnings);
  });
});

describe('fleet ISO-XML', () => {
  it('one task per machine in one TASKDATA, each with its own guidance group (tracks and headland passes)', async () => {
    const xml = fleetToTaskData(plan, { field: 'at-ref-003' });
    const manager = new ISOXMLManager();
    await manager.parseISOXMLFile(await zipTaskData(xml), 'application/zip');
    expect(manager.getWarnings()).toEqual([]);
    const tasks = manager.rootElement.attributes.Task ?? [];
    expect(tasks.map((t) => t.attributes.TaskDesignator)).toEqual(plan.machines.map((m) => m.machineId));
    const [pfd] = manager.rootElement.attributes.Partfield ?? [];
    const groups = pfd.attributes.GuidanceGroup ?? [];
    expect(groups.length).toBe(plan.machines.length);
    plan.machines.forEach((m, i) => {
      const tracks = m.route.filter((s) => s.type !== 'Turn' && s.type !== 'Connector').length;
      expect(groups[i].attributes.GuidancePattern?.length ?? 0).toBe(tracks);
    });
    const ids = [...xml.matchAll(/<GPN A="(GPN\d+)"/g)].map((x) => x[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describeWith(['xmllint'], 'fleet TASKDATA.XML against the ISO 11783-10 v4.3 XSD', () => {
  it('validates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'furrow-fleet-'));
    try {
      const path = join(dir, 'TASKDATA.XML');
      writeFileSync(path, fleetToTaskData(plan));
      const result = await run('xmllint', ['--noout', '--schema', XSD, path]).then(
        () => 0,
        (e: { stderr: string }) => e.stderr,
      );
      expect(result).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
