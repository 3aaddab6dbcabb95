/**
 * Plans made by core's `planRoute` on real corpus fields, through every plan format and the real
 * readers (xmllint + XSD, isoxml, GDAL). Runs once `@furrow/core` exports `planRoute`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISOXMLManager } from 'isoxml';
import * as core from '@furrow/core';
import type { PathPlanRequest, Plan } from '@furrow/core';
import { checkPlanFeatureCollection, planToFeatureCollection, ROUTE_FEATURE_TYPES } from '@furrow/format-geojson';
import { planToKml } from '@furrow/format-kml';
import { planToShapefileZip } from '@furrow/format-shapefile';
import { planToTaskData, zipTaskData } from '@furrow/format-isoxml';
import { PLAN_FORMATS, writePlan } from '@furrow/format-vendor';
import { has } from '../support/requires.js';
import { corpusField } from './support/fixtures.js';

const run = promisify(execFile);
const XSD = fileURLToPath(new URL('../../packages/format-isoxml/xsd/ISO11783_TaskFile_V4-3.xsd', import.meta.url));
const planRoute = (core as Record<string, unknown>).planRoute as
  ((r: PathPlanRequest) => Plan | Promise<Plan>) | undefined;
// holes, a strip too narrow for tracks, a long strip with thousands of turn points (kept small: planning dominates)
const FIELDS = ['at-ref-056', 'be-wal-007', 'bg-010'];

describe.skipIf(!planRoute)('plans from planRoute on corpus fields', () => {
  const plans: { id: string; plan: Plan }[] = [];
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'furrow-planned-'));
    for (const id of FIELDS) {
      const field = corpusField(id);
      const plan = await planRoute!({
        boundary: field.geometry,
        equipment: { widthMeters: 6, turnRadiusMeters: 6 },
        exteriorHeadlandPasses: 2,
      });
      plans.push({ id, plan: JSON.parse(JSON.stringify(plan)) as Plan });
    }
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('plan GeoJSON keeps every route piece in order with its geometry', () => {
    for (const { id, plan } of plans) {
      const fc = planToFeatureCollection(plan);
      const route = fc.features.filter((f) => (ROUTE_FEATURE_TYPES as readonly string[]).includes(f.properties.type));
      expect(route.length, id).toBe(plan.route.length);
      expect(route.map((f) => f.properties.sequence)).toEqual(plan.route.map((_, i) => i));
      const sorted = [...plan.route].sort((a, b) => a.sequence - b.sequence);
      route.forEach((f, i) => expect(f.geometry.coordinates).toEqual(sorted[i].coordinates.map((p) => [p[0], p[1]])));
      expect(fc.metrics).toEqual(plan.metrics);
      expect(checkPlanFeatureCollection(fc), id).toEqual([]);
    }
  });

  it('every plan format is written', async () => {
    for (const { plan } of plans)
      for (const format of PLAN_FORMATS) expect((await writePlan(plan, format)).bytes.length).toBeGreaterThan(100);
  });

  it.skipIf(!has('xmllint'))(
    'TASKDATA.XML validates against the v4.3 XSD and the isoxml library reads it',
    async () => {
      const paths: string[] = [];
      for (const { id, plan } of plans) {
        const xml = planToTaskData(plan, { field: id });
        const path = join(dir, `${id}.xml`);
        writeFileSync(path, xml);
        paths.push(path);
        const manager = new ISOXMLManager();
        await manager.parseISOXMLFile(await zipTaskData(xml), 'application/zip');
        const [pfd] = manager.rootElement.attributes.Partfield ?? [];
        expect(pfd.attributes.PartfieldDesignator).toBe(id);
        // our ellipsoidal area agrees with core's (planned in a local transverse Mercator)
        const area = Number(pfd.attributes.PartfieldArea);
        expect(Math.abs(area - plan.metrics.fieldAreaSquareMeters), id).toBeLessThanOrEqual(
          1 + 5e-4 * plan.metrics.fieldAreaSquareMeters,
        );
        const patterns = (pfd.attributes.GuidanceGroup ?? []).flatMap((g) => g.attributes.GuidancePattern ?? []);
        expect(patterns.length).toBeGreaterThanOrEqual(plan.route.filter((s) => s.type === 'Track').length);
      }
      const { stderr } = await run('xmllint', ['--noout', '--schema', XSD, ...paths]);
      expect(stderr.split('\n').filter((l) => l && !l.endsWith(' validates'))).toEqual([]);
    },
  );

  it.skipIf(!has('gdal'))('GDAL reads the plan Shapefile and KML with one record per route piece', async () => {
    for (const { id, plan } of plans) {
      writeFileSync(join(dir, `${id}.zip`), await planToShapefileZip(plan, { name: 'plan' }));
      writeFileSync(join(dir, `${id}.kml`), planToKml(plan));
      const { stdout } = await run('ogrinfo', ['-ro', '-so', '-al', `/vsizip/${join(dir, `${id}.zip`)}`]);
      const counts = Object.fromEntries(
        [...stdout.matchAll(/Layer name: (\S+)[\s\S]*?Feature Count: (\d+)/g)].map((m) => [m[1], Number(m[2])]),
      );
      const lines = planToFeatureCollection(plan).features.filter((f) => f.geometry.type === 'LineString').length;
      expect(counts.plan_lines, id).toBe(lines);
      const kml = await run('ogrinfo', ['-ro', '-so', '-al', join(dir, `${id}.kml`)]);
      const tracks = /Layer name: Tracks[\s\S]*?Feature Count: (\d+)/.exec(kml.stdout);
      // a plan without tracks (small field: headland passes only) has no Tracks folder
      expect(Number(tracks?.[1] ?? 0), id).toBe(plan.route.filter((s) => s.type === 'Track').length);
    }
  });
});
