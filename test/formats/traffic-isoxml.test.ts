/**
 * The traffic system's TASKDATA.XML: valid against the ISO 11783-10 v4.3 XSD (xmllint), and read back
 * by the npm `isoxml` library with the shared AB pattern, the tramline line strings and the drill's
 * task with its tramline zones.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISOXMLManager } from 'isoxml';
import { planTrafficSystem, type TrafficSystemResult } from '@furrow/core';
import { trafficToTaskData, zipTaskData } from '@furrow/format-isoxml';
import { describeWith } from '../support/requires.js';

const run = promisify(execFile);
const XSD = fileURLToPath(new URL('../../packages/format-isoxml/xsd/ISO11783_TaskFile_V4-3.xsd', import.meta.url));

let result: TrafficSystemResult;
let xml: string;
let dir: string;

beforeAll(() => {
  const lon = 9.1,
    lat = 50.2,
    dx = 400 / (111_319.49 * Math.cos((lat * Math.PI) / 180)),
    dy = 300 / 111_132.954;
  result = planTrafficSystem({
    field: {
      type: 'Polygon',
      coordinates: [
        [
          [lon, lat],
          [lon + dx, lat],
          [lon + dx, lat + dy],
          [lon, lat + dy],
          [lon, lat],
        ],
      ],
    },
    traffic: { gaugeMeters: 3, tyreWidthMeters: 0.6, compareIndependent: false },
    operations: [
      { kind: 'drill', machine: { widthMeters: 12 } },
      { kind: 'sprayer', machine: { widthMeters: 36, turnRadiusMeters: 9 } },
    ],
  });
  xml = trafficToTaskData(result, { field: 'ctf' });
  dir = mkdtempSync(join(tmpdir(), 'furrow-traffic-isoxml-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWith(['xmllint'], 'traffic TASKDATA.XML and the XSD', () => {
  it('validates', async () => {
    const path = join(dir, 'TASKDATA.XML');
    writeFileSync(path, xml);
    await expect(run('xmllint', ['--noout', '--schema', XSD, path])).resolves.toBeDefined();
  });
});

describe('the isoxml library reads the traffic TASKDATA back', () => {
  it('finds the shared AB pattern, the tramline lanes and the tramline zones', async () => {
    const manager = new ISOXMLManager();
    await manager.parseISOXMLFile(await zipTaskData(xml), 'application/zip');
    expect(manager.getWarnings()).toEqual([]);
    const [pfd] = manager.rootElement.attributes.Partfield ?? [];
    const patterns = (pfd.attributes.GuidanceGroup ?? []).flatMap((g) => g.attributes.GuidancePattern ?? []);
    expect(patterns).toHaveLength(1);
    expect(Number(patterns[0].attributes.GuidancePatternType)).toBe(1);
    expect(Number(patterns[0].attributes.GuidancePatternHeading)).toBeCloseTo(result.referenceLine.headingDegrees, 4);
    const tramlines = (pfd.attributes.LineString ?? []).filter((l) => Number(l.attributes.LineStringType) === 3);
    const lanes = (result.operations[0].tramlinePasses ?? [])
      .filter((p) => p.along === 'lanes')
      .reduce((n, p) => n + p.lanes.length, 0);
    expect(lanes).toBeGreaterThan(4);
    expect(tramlines).toHaveLength(lanes);
    expect(Number(tramlines[0].attributes.LineStringWidth)).toBe(700);
    const [task] = manager.rootElement.attributes.Task ?? [];
    const zones = task.attributes.TreatmentZone ?? [];
    const passes = (result.operations[0].tramlinePasses ?? []).filter((p) => p.along === 'lanes').length;
    expect(zones).toHaveLength(passes + 1);
    const ddis = zones[1].attributes.ProcessDataVariable!.map((p) => p.attributes.ProcessDataDDI);
    expect(ddis).toEqual(expect.arrayContaining(['01FA', '01FB', '01FC', '01FD']));
  });
});
