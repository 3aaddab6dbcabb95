/**
 * ISO-XML: every TASKDATA.XML we write validates against the ISO 11783-10 v4.3 XSD (xmllint),
 * and the npm `isoxml` library (dev4Agriculture) parses it and finds the partfield, its
 * polygons and guidance patterns.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISOXMLManager } from 'isoxml';
import type { Plan } from '@furrow/core';
import { readBoundary as readGeoJson } from '@furrow/format-geojson';
import { boundaryToTaskData, planToTaskData, zipTaskData } from '@furrow/format-isoxml';
import { writePlan } from '@furrow/format-vendor';
import { describeWith } from '../support/requires.js';
import { corpusField, corpusFields, handPlan } from './support/fixtures.js';

const run = promisify(execFile);
const XSD = fileURLToPath(new URL('../../packages/format-isoxml/xsd/ISO11783_TaskFile_V4-3.xsd', import.meta.url));

const plans: { name: string; plan: Plan }[] = ['at-ref-056', 'bg-014', 'de-bb-000', 'br-lem-003']
  .filter((id) => corpusFields().some((f) => f.id === id))
  .map((id) => ({ name: id, plan: handPlan(corpusField(id).geometry, 9, 8) }));

/** Every TASKDATA.XML the suites write: one per plan, one per corpus boundary, the vendor layouts' copies. */
async function allTaskData(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { name, plan } of plans) {
    out[`plan-${name}`] = planToTaskData(plan, {
      customer: 'Grower with a name longer than thirty-two characters',
      farm: 'Farm & Co <1>' + '🌾'.repeat(30),
      field: name,
    });
    for (const layout of ['cnh', 'fendt', 'mueller', 'isoxml'] as const) {
      const files = (await writePlan(plan, layout, { field: name })).files!;
      const key = Object.keys(files).find((k) => k.endsWith('TASKDATA.XML'))!;
      out[`${layout}-${name}`] = String(files[key]);
    }
  }
  for (const field of corpusFields()) {
    const [b] = readGeoJson(field.text, field.file);
    out[`field-${field.id}`] = boundaryToTaskData(b);
  }
  return out;
}

describeWith(['xmllint'], 'TASKDATA.XML validates against the ISO 11783-10 v4.3 XSD', () => {
  let dir = '';
  let docs: Record<string, string> = {};
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'furrow-isoxml-'));
    docs = await allTaskData();
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every file we write is valid (one xmllint run for all)', async () => {
    const paths = Object.keys(docs).map((name) => {
      mkdirSync(join(dir, name));
      const path = join(dir, name, 'TASKDATA.XML');
      writeFileSync(path, docs[name]);
      return path;
    });
    expect(paths.length).toBeGreaterThan(88);
    const result = await run('xmllint', ['--noout', '--schema', XSD, ...paths], { maxBuffer: 64 * 1024 * 1024 }).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    const failures = result.stderr.split('\n').filter((l) => l.trim() !== '' && !l.endsWith(' validates'));
    expect(failures).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('xmllint rejects an invalid file (the check can fail)', async () => {
    const path = join(dir, 'broken.xml');
    writeFileSync(path, docs[`plan-${plans[0].name}`].replace('<PLN A="1"', '<PLN A="99"'));
    await expect(run('xmllint', ['--noout', '--schema', XSD, path])).rejects.toThrow();
  });
});

describe('the isoxml library (dev4Agriculture) parses our TASKDATA', () => {
  for (const { name, plan } of plans) {
    it(`${name}: partfield, boundary / obstacle polygons, AB and curve guidance patterns`, async () => {
      const xml = planToTaskData(plan, { customer: 'Grower', farm: 'Farm', field: name });
      const manager = new ISOXMLManager();
      // through the zip path too: TASKDATA/TASKDATA.XML as a terminal reads it
      await manager.parseISOXMLFile(await zipTaskData(xml), 'application/zip');
      expect(manager.getWarnings()).toEqual([]);
      const [pfd] = manager.rootElement.attributes.Partfield ?? [];
      expect(pfd.attributes.PartfieldDesignator).toBe(name);
      expect(pfd.attributes.PartfieldArea).toBeGreaterThan(0);
      const polygons = pfd.attributes.PolygonnonTreatmentZoneonly ?? [];
      const boundaries = polygons.filter((p) => Number(p.attributes.PolygonType) === 1);
      const holes =
        plan.boundary.type === 'Polygon'
          ? plan.boundary.coordinates.length - 1
          : plan.boundary.coordinates.reduce((s, p) => s + p.length - 1, 0);
      expect(boundaries.length).toBe(plan.boundary.type === 'Polygon' ? 1 : plan.boundary.coordinates.length);
      expect(polygons.filter((p) => Number(p.attributes.PolygonType) === 6)).toHaveLength(holes);
      const outer = boundaries[0].attributes.LineString![0];
      expect(Number(outer.attributes.LineStringType)).toBe(1);
      const ring = plan.boundary.type === 'Polygon' ? plan.boundary.coordinates[0] : plan.boundary.coordinates[0][0];
      expect(outer.attributes.Point).toHaveLength(ring.length);
      const groups = pfd.attributes.GuidanceGroup ?? [];
      const patterns = groups.flatMap((g) => g.attributes.GuidancePattern ?? []);
      const tracks = plan.route.filter((s) => s.type === 'Track');
      const passes = plan.route.filter((s) => s.type === 'ExteriorHeadland');
      // the route group (tracks and the headland pass in driving order), then the guidance line
      expect(patterns).toHaveLength(tracks.length + passes.length + 1);
      const types = patterns.map((p) => Number(p.attributes.GuidancePatternType));
      expect(types.filter((t) => t === 3)).toHaveLength(1 + passes.length); // the curved track, the headland pass
      expect(types.filter((t) => t === 1)).toHaveLength(tracks.length); // straight tracks + the AB guidance line
      for (const p of patterns) {
        const [lsg] = p.attributes.LineString!;
        expect(Number(lsg.attributes.LineStringType)).toBe(5);
        const points = lsg.attributes.Point!.map((pt) => Number(pt.attributes.PointType));
        expect(points[0]).toBe(6);
        expect(points[points.length - 1]).toBe(7);
      }
      const pointTypes = (pfd.attributes.Point ?? []).map((p) => Number(p.attributes.PointType));
      expect(pointTypes).toEqual(expect.arrayContaining([4, 11]));
    });
  }
});
