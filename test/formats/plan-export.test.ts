/**
 * Plan exports against "Plan GeoJSON" (docs/formats.md) and the KML / WKT / Shapefile / ISO-XML /
 * vendor writers, read back with our own readers (GDAL and isoxml checks live in their own suites).
 */
import { describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import type { Plan, Position } from '@furrow/core';
import {
  checkPlanFeatureCollection,
  planToFeatureCollection,
  readBoundary as readGeoJson,
  ROUTE_FEATURE_TYPES,
} from '@furrow/format-geojson';
import { planToKml, readBoundary as readKml, writeBoundaries as kmlWriteBoundaries } from '@furrow/format-kml';
import { planToWkt } from '@furrow/format-wkt';
import { planToShapefileZip, readBoundary as readShapefile } from '@furrow/format-shapefile';
import { headlandDepthMeters, planToTaskData, readBoundary as readIsoxml } from '@furrow/format-isoxml';
import { PLAN_FORMATS, readAnyBoundary, writePlan } from '@furrow/format-vendor';
import { corpusField, handPlan, maxRingDeviation } from './support/fixtures.js';

const EARTH_RADIUS_METERS = 6371008.8;
function distanceMeters(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const x = (b[0] - a[0]) * rad * Math.cos(((a[1] + b[1]) / 2) * rad);
  const y = (b[1] - a[1]) * rad;
  return Math.hypot(x, y) * EARTH_RADIUS_METERS;
}

const field = corpusField('at-ref-056'); // concave, with a hole
const plan = handPlan(field.geometry, 12, 6);

describe('plan GeoJSON (docs/formats.md)', () => {
  const fc = planToFeatureCollection(plan);

  it('is a FeatureCollection with metrics and version as foreign members', () => {
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.metrics).toEqual(plan.metrics);
    expect(fc.version).toBe(plan.version);
    expect(JSON.parse(JSON.stringify(fc))).toEqual(fc);
  });

  it('keeps the contract by its own checker', () => {
    expect(checkPlanFeatureCollection(fc)).toEqual([]);
  });

  it('every feature has properties.type; route features are LineStrings with integer sequence from 0 in driving order', () => {
    for (const f of fc.features) expect(typeof f.properties.type).toBe('string');
    const route = fc.features.filter((f) => (ROUTE_FEATURE_TYPES as readonly string[]).includes(f.properties.type));
    expect(route.length).toBe(plan.route.length);
    const sorted = [...route].sort((a, b) => (a.properties.sequence as number) - (b.properties.sequence as number));
    expect(sorted.map((f) => f.properties.sequence)).toEqual(route.map((_, i) => i));
    for (let i = 0; i < sorted.length; i++) {
      expect(sorted[i].geometry.type).toBe('LineString');
      if (i === 0) continue;
      const prev = sorted[i - 1].geometry.coordinates as Position[];
      const next = sorted[i].geometry.coordinates as Position[];
      expect(distanceMeters(prev[prev.length - 1], next[0])).toBeLessThan(0.05);
    }
  });

  it('working passes carry widthMeters, turns their turnType, and turn geometry stays dense', () => {
    for (const f of fc.features) {
      const t = f.properties.type;
      if (t === 'Track' || t === 'ExteriorHeadland' || t === 'InteriorHeadland')
        expect(f.properties.widthMeters).toBe(12);
      if (t === 'Turn') {
        expect(f.properties.turnType).toBe('U');
        const line = f.geometry.coordinates as Position[];
        for (let i = 1; i < line.length; i++)
          expect(distanceMeters(line[i - 1], line[i])).toBeLessThanOrEqual(0.5 + 1e-6);
      }
    }
  });

  it('has the context features: boundary, refill point, staging area, guidance line', () => {
    const types = fc.features.map((f) => f.properties.type);
    for (const t of ['Boundary', 'RefillPoint', 'StagingArea', 'GuidanceLine']) expect(types).toContain(t);
    const boundary = fc.features.find((f) => f.properties.type === 'Boundary')!;
    expect(boundary.geometry).toEqual(plan.boundary);
    const refill = fc.features.find((f) => f.properties.type === 'RefillPoint')!;
    expect(refill.properties.liters).toBe(500);
  });

  it('sorts a route given out of order and renumbers gaps', () => {
    const shuffled: Plan = {
      ...plan,
      route: [...plan.route].reverse().map((s) => ({ ...s, sequence: s.sequence * 10 })),
    };
    const seq = planToFeatureCollection(shuffled).features.filter((f) => typeof f.properties.sequence === 'number');
    expect(seq.map((f) => f.properties.sequence)).toEqual(plan.route.map((_, i) => i));
    expect(seq.map((f) => f.geometry.coordinates)).toEqual(plan.route.map((s) => s.coordinates));
  });

  it('handles a minimal plan without optional members', () => {
    const minimal: Plan = {
      version: '0',
      metrics: plan.metrics,
      heading: plan.heading,
      route: [],
      boundary: plan.boundary,
      warnings: [],
    };
    const out = planToFeatureCollection(minimal);
    expect(out.features.map((f) => f.properties.type)).toEqual(['Boundary']);
    expect(() => planToKml(minimal)).not.toThrow();
    expect(planToTaskData(minimal)).toContain('<PFD');
  });

  it('reads back as a boundary (the Boundary feature, holes kept)', () => {
    const [b] = readGeoJson(JSON.stringify(fc), 'plan.geojson');
    expect(maxRingDeviation(b.geometry, plan.boundary)).toBe(0);
  });
});

describe('plan KML', () => {
  const text = planToKml(plan, { name: 'at-ref-056' });
  it('has one folder per feature type, styled placemarks in driving order, metrics in the description', () => {
    const folders = [...text.matchAll(/<Folder>\s*<name>([^<]+)<\/name>/g)].map((m) => m[1]);
    expect(folders).toEqual(
      expect.arrayContaining([
        'Boundary',
        'Tracks',
        'Turns',
        'Connectors',
        'Exterior headland passes',
        'Refill points',
        'Staging area',
      ]),
    );
    expect(new Set(folders).size).toBe(folders.length);
    expect(text).toMatch(/<Style id="Track">\s*<LineStyle>\s*<color>ff00a000<\/color>/);
    expect(text).toMatch(/<description><!\[CDATA\[<table>.*workingDistanceMeters.*<\/table>\]\]><\/description>/);
    const trackNumbers = [...text.matchAll(/<name>Track #(\d+)<\/name>/g)].map((m) => Number(m[1]));
    expect(trackNumbers).toEqual(plan.route.filter((s) => s.type === 'Track').map((s) => s.sequence));
  });
  it('escapes names and attribute values (read back by a strict XML parser)', () => {
    const odd = 'Feld "Süd" & <Nord> \'7\' ]]>';
    const out = planToKml({ ...plan, metrics: { ...plan.metrics, note: odd } }, { name: odd });
    expect(out).toContain('<name>Feld &quot;Süd&quot; &amp; &lt;Nord&gt; &apos;7&apos; ]]&gt;</name>');
    const [b] = readKml(kmlWriteBoundaries([{ geometry: plan.boundary, properties: { Field: odd } }]), 'odd.kml');
    expect(b.properties.Field).toBe(odd);
    expect(() => readKml(out, 'odd-plan.kml')).not.toThrow();
  });

  it('reads back as the plan boundary', () => {
    const [b] = readKml(text, 'plan.kml');
    expect(maxRingDeviation(b.geometry, plan.boundary)).toBe(0);
  });
});

describe('plan WKT', () => {
  it('is a GEOMETRYCOLLECTION: the boundary then the route in driving order', async () => {
    const text = planToWkt(plan);
    expect(text).toMatch(/^GEOMETRYCOLLECTION ?\(POLYGON ?\(\(/);
    expect(text.match(/LINESTRING/g)?.length).toBe(plan.route.length);
    const [b] = await readAnyBoundary(text, 'plan.wkt');
    expect(maxRingDeviation(b.geometry, plan.boundary)).toBe(0);
  });
});

describe('plan Shapefile', () => {
  it('zips separate line, polygon and point layers with WGS84 .prj', async () => {
    const zip = await JSZip.loadAsync(await planToShapefileZip(plan, { name: 'at-ref-056' }));
    const names = Object.keys(zip.files).sort();
    for (const layer of ['at-ref-056_lines', 'at-ref-056_polygons', 'at-ref-056_points']) {
      for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) expect(names).toContain(`${layer}.${ext}`);
    }
    expect(await zip.file('at-ref-056_lines.prj')!.async('string')).toContain('WGS_1984');
  });
  it('reads back: polygon layer gives the boundary (typed), lines are ignored', async () => {
    const [b] = await readShapefile(await planToShapefileZip(plan), 'plan.zip');
    expect(maxRingDeviation(b.geometry, plan.boundary)).toBe(0);
  });
});

describe('plan ISO-XML', () => {
  const xml = planToTaskData(plan, { customer: 'Grower', farm: 'Farm', field: 'at-ref-056' });
  it('holds CTR / FRM / PFD, boundary and obstacle polygons, AB and curve patterns, refill and staging points', () => {
    expect(xml).toMatch(/<CTR A="CTR1" B="Grower"\/>/);
    expect(xml).toMatch(/<FRM A="FRM1" B="Farm" I="CTR1"\/>/);
    expect(xml).toMatch(/<PFD A="PFD1" C="at-ref-056" D="\d+" E="CTR1" F="FRM1">/);
    expect(xml.match(/<PLN A="1"/g)).toHaveLength(1);
    expect(xml.match(/<PLN A="6"/g)).toHaveLength(1); // the field's hole
    const tracks = plan.route.filter((s) => s.type === 'Track');
    const passes = plan.route.filter((s) => s.type === 'ExteriorHeadland');
    // the route group: every working pass (tracks, the headland pass); then the guidance line
    const patterns = tracks.length + passes.length + 1;
    expect(passes.length).toBe(1);
    expect(xml.match(/<GPN /g)).toHaveLength(patterns);
    expect(xml.match(/<GPN [^>]*C="3"/g)).toHaveLength(2); // the curved first track, the headland pass
    expect(xml.match(/<LSG A="5">/g)).toHaveLength(patterns);
    expect(xml.match(/<PNT A="6"/g)).toHaveLength(patterns);
    expect(xml.match(/<PNT A="7"/g)).toHaveLength(patterns);
    expect(xml).toMatch(/<TSK A="TSK1" B="at-ref-056" C="CTR1" D="FRM1" E="PFD1" G="1"\/>/);
    expect(xml).toMatch(/<PNT A="4" B="Refill 1"/);
    expect(xml).toMatch(/<PNT A="11" B="Staging area"/);
  });
  it('reads back as the boundary with its hole', async () => {
    const [b] = await readIsoxml(xml, 'TASKDATA.XML');
    expect(maxRingDeviation(b.geometry, plan.boundary)).toBeLessThanOrEqual(5e-10);
  });
});

describe('writePlan and vendor layouts', () => {
  it('writes every plan format', async () => {
    for (const format of PLAN_FORMATS) {
      const out = await writePlan(plan, format, {
        customer: 'Grower',
        farm: 'Farm',
        field: 'at-ref-056',
        date: new Date(Date.UTC(2026, 3, 1)),
      });
      expect(out.bytes.length, format).toBeGreaterThan(100);
      if (out.files) expect(Object.keys(out.files).length, format).toBeGreaterThan(0);
    }
  });

  it('trimble: AgGPS/Data/<Client>/<Farm>/<Field>/Boundary + Swath shapefiles', async () => {
    const out = await writePlan(plan, 'trimble', {
      customer: 'Grower',
      farm: 'Farm',
      field: 'at-ref-056',
      date: new Date(Date.UTC(2026, 3, 1)),
    });
    const dir = 'AgGPS/Data/Grower/Farm/at-ref-056';
    for (const f of ['Boundary', 'Swath'])
      for (const ext of ['shp', 'shx', 'dbf', 'prj']) expect(Object.keys(out.files!)).toContain(`${dir}/${f}.${ext}`);
    const [b] = await readAnyBoundary(out.bytes, 'trimble.zip');
    expect(maxRingDeviation(b.geometry, plan.boundary)).toBe(0);
    expect(b.properties).toMatchObject({ Name: 'at-ref-056', Date: '20260401' });
    expect(b.properties.Area).toBeCloseTo(2.24, 1); // corpus index: 2.2434 ha
  });

  it('cnh, fendt and mueller carry a TASKDATA.XML, john deere a boundary + guidance line layer', async () => {
    for (const layout of ['cnh', 'fendt'] as const) {
      const out = await writePlan(plan, layout);
      expect(Object.keys(out.files!)).toEqual(['TASKDATA/TASKDATA.XML']);
      const [b] = await readAnyBoundary(out.bytes, `${layout}.zip`);
      expect(maxRingDeviation(b.geometry, plan.boundary)).toBeLessThanOrEqual(5e-10);
    }
    const mueller = await writePlan(plan, 'mueller', { field: 'f1' });
    expect(Object.keys(mueller.files!)).toEqual(
      expect.arrayContaining(['Taskdata/TASKDATA.XML', 'SHP/f1_boundary.shp', 'SHP/f1_guidance.shp']),
    );
    const jd = await writePlan(plan, 'johndeere', { customer: 'C', farm: 'F', field: 'X' });
    expect(Object.keys(jd.files!)).toEqual(expect.arrayContaining(['C/F/X/boundary.shp', 'C/F/X/guidance_lines.shp']));
    const [b] = await readAnyBoundary(jd.bytes, 'jd.zip');
    expect(b.properties).toMatchObject({ CLIENT: 'C', FARM: 'F', FIELD: 'X' });
  });
});

describe('ISO-XML headland area (PLN 10)', () => {
  it('is the band of the exterior passes: a 200 m square with one 12 m pass gives 200² − 176² m²', () => {
    // 200 m × 200 m square at 48°N: degrees per meter from the WGS84 meridian / parallel radii
    const lat = 48;
    const rad = Math.PI / 180;
    const a = 6378137;
    const e2 = 0.00669437999014;
    const s = 1 - e2 * Math.sin(lat * rad) ** 2;
    const mPerDegLat = (rad * a * (1 - e2)) / s ** 1.5;
    const mPerDegLon = (rad * a * Math.cos(lat * rad)) / Math.sqrt(s);
    const dx = 200 / mPerDegLon;
    const dy = 200 / mPerDegLat;
    const square: Plan['boundary'] = {
      type: 'Polygon',
      coordinates: [
        [
          [10, lat],
          [10 + dx, lat],
          [10 + dx, lat + dy],
          [10, lat + dy],
          [10, lat],
        ],
      ],
    };
    const squarePlan = handPlan(square, 12, 4);
    const xml = planToTaskData(squarePlan);
    const headlands = [...xml.matchAll(/<PLN A="10" B="[^"]*" C="(\d+)"/g)].map((m) => Number(m[1]));
    expect(headlands).toHaveLength(1);
    expect(Math.abs(headlands[0] - (200 * 200 - 176 * 176))).toBeLessThanOrEqual(2);
    const boundary = Number(/<PLN A="1"[^>]* C="(\d+)"/.exec(xml)![1]);
    // the square is exact on the ellipsoid: PFD / PLN areas are within a square meter
    expect(Math.abs(boundary - 40000)).toBeLessThanOrEqual(1);
  });

  it('takes the number of passes from the plan (declared, or distinct pass indices of its headland rings)', () => {
    expect(headlandDepthMeters(plan)).toBe(12);
    expect(headlandDepthMeters({ ...plan, headlandPasses: 3 })).toBe(36);
    const rings = [1, 1, 2].map((passIndex) => ({ type: 'ExteriorHeadland', passIndex, coordinates: [] }));
    expect(headlandDepthMeters({ ...plan, headlands: [...rings, { type: 'InteriorHeadland', passIndex: 3 }] })).toBe(
      24,
    );
  });

  it('is absent when the plan has no exterior headland pass', () => {
    const noHeadland: Plan = { ...plan, route: plan.route.filter((r) => r.type !== 'ExteriorHeadland') };
    expect(planToTaskData(noHeadland)).not.toContain('<PLN A="10"');
  });
});
