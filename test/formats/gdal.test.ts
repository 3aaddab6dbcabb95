/**
 * GDAL's ogrinfo (a reader no one here wrote) opens every Shapefile, KML and GeoJSON we
 * write and reports the expected layers, feature counts, attributes and coordinates (1e-7°).
 * One ogrinfo process per file, all files written first and read concurrently.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { wktToGeoJSON } from 'betterknown';
import JSZip from 'jszip';
import type { FieldGeometry, Plan } from '@furrow/core';
import {
  planToFeatureCollection,
  readBoundary as readGeoJson,
  writeBoundaries as geojsonBoundaries,
} from '@furrow/format-geojson';
import type { GeoJsonGeometry, ParsedBoundary } from '@furrow/format-geojson';
import { planToKml, writeBoundaries as kmlBoundaries } from '@furrow/format-kml';
import {
  layerFiles,
  planToShapefileZip,
  readBoundary as readShapefileBoundary,
  writeBoundaries as shapefileBoundaries,
  zipFiles,
} from '@furrow/format-shapefile';
import { writePlan } from '@furrow/format-vendor';
import { describeWith } from '../support/requires.js';
import { corpusField, corpusFields, handPlan, maxRingDeviation } from './support/fixtures.js';

const run = promisify(execFile);

interface OgrFeature {
  attributes: Record<string, string>;
  wkt?: string;
}
interface OgrLayer {
  name: string;
  featureCount: number;
  features: OgrFeature[];
}

/** Parses `ogrinfo -ro -al -geom=ISO_WKT` text: layers, their feature counts, attributes and geometries. */
function parseOgrinfo(text: string): OgrLayer[] {
  const layers: OgrLayer[] = [];
  let layer: OgrLayer | undefined;
  let feature: OgrFeature | undefined;
  for (const line of text.split('\n')) {
    let m: RegExpExecArray | null;
    if ((m = /^Layer name: (.*)$/.exec(line))) {
      layer = { name: m[1].trim(), featureCount: -1, features: [] };
      layers.push(layer);
      feature = undefined;
    } else if (layer && (m = /^Feature Count: (\d+)/.exec(line))) layer.featureCount = Number(m[1]);
    else if (layer && /^OGRFeature\(/.test(line)) {
      feature = { attributes: {} };
      layer.features.push(feature);
    } else if (feature && (m = /^ {2}(\w+) \([^)]*\) = (.*)$/.exec(line))) feature.attributes[m[1]] = m[2];
    else if (feature && (m = /^ {2}((?:MULTI)?(?:POINT|LINESTRING|POLYGON)\b.*)$/.exec(line))) feature.wkt = m[1];
  }
  return layers;
}

async function ogrinfo(path: string): Promise<OgrLayer[]> {
  const { stdout } = await run('ogrinfo', ['-ro', '-al', '-geom=ISO_WKT', path], { maxBuffer: 256 * 1024 * 1024 });
  return parseOgrinfo(stdout);
}

function coordsOf(wkt: string | undefined): number[] {
  const g = wkt ? wktToGeoJSON(wkt) : null;
  return g && 'coordinates' in g ? (g.coordinates as unknown[]).flat(3).map(Number) : [];
}

function maxDiff(a: number[], b: number[]): number {
  if (a.length !== b.length) return Infinity;
  return a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
}

function flat(g: GeoJsonGeometry): number[] {
  return (g.coordinates as unknown[]).flat(3).map(Number);
}

function fieldGeometryOf(wkt: string | undefined): FieldGeometry {
  const g = wkt ? wktToGeoJSON(wkt) : null;
  if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) throw new Error(`not polygonal: ${wkt?.slice(0, 40)}`);
  return g as FieldGeometry;
}

describeWith(['gdal'], 'GDAL reads what we write', () => {
  let dir = '';
  const plan: Plan = handPlan(corpusField('at-ref-056').geometry, 12, 6);
  const fc = planToFeatureCollection(plan);
  const boundaries: ParsedBoundary[] = corpusFields().map((f) => readGeoJson(f.text, f.file)[0]);
  let results: Record<string, OgrLayer[]> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'furrow-gdal-'));
    const files: Record<string, string | Uint8Array> = {
      'plan.geojson': JSON.stringify(fc),
      'plan.kml': planToKml(plan),
      'plan.zip': await planToShapefileZip(plan, { name: 'plan' }),
      'trimble.zip': (await writePlan(plan, 'trimble', { customer: 'Grower', farm: 'Farm', field: 'F1' })).bytes,
      'johndeere.zip': (await writePlan(plan, 'johndeere', { customer: 'Grower', farm: 'Farm', field: 'F1' })).bytes,
      'mueller.zip': (await writePlan(plan, 'mueller', { field: 'F1' })).bytes,
      'empty.zip': await zipFiles(layerFiles({ name: 'Swath', shapeType: 'POLYLINE', records: [] })),
      'fields.geojson': geojsonBoundaries(boundaries),
      'fields.kml': kmlBoundaries(boundaries),
      'fields.zip': await shapefileBoundaries(boundaries, { name: 'fields' }),
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const names = Object.keys(files);
    // GDAL opens the shapefiles of a zip's root, or of the folder given after the archive name
    const inside: Record<string, string> = {
      'trimble.zip': '/AgGPS/Data/Grower/Farm/F1',
      'johndeere.zip': '/Grower/Farm/F1',
      'mueller.zip': '/SHP',
    };
    const paths = names.map((n) => (n.endsWith('.zip') ? `/vsizip/${join(dir, n)}${inside[n] ?? ''}` : join(dir, n)));
    const parsed = await Promise.all(paths.map(ogrinfo));
    results = Object.fromEntries(names.map((n, i) => [n, parsed[i]]));
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('plan GeoJSON: one layer, every feature, same coordinates and properties', () => {
    const [layer] = results['plan.geojson'];
    expect(layer.featureCount).toBe(fc.features.length);
    fc.features.forEach((f, i) => {
      const ogr = layer.features[i];
      expect(ogr.attributes.type).toBe(f.properties.type);
      if (typeof f.properties.sequence === 'number')
        expect(Number(ogr.attributes.sequence)).toBe(f.properties.sequence);
      expect(maxDiff(coordsOf(ogr.wkt), flat(f.geometry))).toBeLessThanOrEqual(1e-7);
    });
  });

  it('plan KML: a layer per folder with the right counts and coordinates', () => {
    const layers = results['plan.kml'];
    const byName = Object.fromEntries(layers.map((l) => [l.name, l]));
    const expected: Record<string, string> = {
      Tracks: 'Track',
      Turns: 'Turn',
      Connectors: 'Connector',
      Boundary: 'Boundary',
      'Exterior headland passes': 'ExteriorHeadland',
      'Refill points': 'RefillPoint',
    };
    for (const [folder, type] of Object.entries(expected)) {
      const features = fc.features.filter((f) => f.properties.type === type);
      expect(byName[folder]?.featureCount, folder).toBe(features.length);
      features.forEach((f, i) => {
        const ogr = byName[folder].features[i];
        // LIBKML reads a KML Polygon's rings in file order; coordinates must match
        expect(maxDiff(coordsOf(ogr.wkt), flat(f.geometry)), `${folder} ${i}`).toBeLessThanOrEqual(1e-7);
      });
    }
  });

  it('plan Shapefile: line / polygon / point layers with type, sequence, width_m and the right geometry', () => {
    const byName = Object.fromEntries(results['plan.zip'].map((l) => [l.name, l]));
    expect(Object.keys(byName).sort()).toEqual(['plan_lines', 'plan_points', 'plan_polygons']);
    const lines = fc.features.filter((f) => f.geometry.type === 'LineString');
    expect(byName.plan_lines.featureCount).toBe(lines.length);
    lines.forEach((f, i) => {
      const ogr = byName.plan_lines.features[i];
      expect(ogr.attributes.type).toBe(f.properties.type);
      if (typeof f.properties.sequence === 'number')
        expect(Number(ogr.attributes.sequence)).toBe(f.properties.sequence);
      if (typeof f.properties.widthMeters === 'number')
        expect(Number(ogr.attributes.width_m)).toBe(f.properties.widthMeters);
      expect(maxDiff(coordsOf(ogr.wkt), flat(f.geometry))).toBeLessThanOrEqual(1e-7);
    });
    const boundary = byName.plan_polygons.features.find((f) => f.attributes.type === 'Boundary')!;
    // a polygon with a hole must come back as one polygon with an interior ring (not two polygons)
    expect(boundary.wkt?.startsWith('POLYGON')).toBe(true);
    expect(maxRingDeviation(fieldGeometryOf(boundary.wkt), plan.boundary)).toBeLessThanOrEqual(1e-7);
    expect(byName.plan_points.featureCount).toBe(fc.features.filter((f) => f.geometry.type === 'Point').length);
  });

  it('Trimble layout: Boundary and Swath layers in AgGPS/Data/Grower/Farm/F1', () => {
    const byName = Object.fromEntries(results['trimble.zip'].map((l) => [l.name, l]));
    expect(byName.Boundary.featureCount).toBe(1);
    expect(byName.Swath.featureCount).toBe(plan.route.filter((s) => s.type === 'Track').length);
    expect(maxRingDeviation(fieldGeometryOf(byName.Boundary.features[0].wkt), plan.boundary)).toBeLessThanOrEqual(1e-7);
  });

  it('an empty layer (a plan without tracks) is a valid, empty shapefile', () => {
    expect(results['empty.zip'].map((l) => [l.name, l.featureCount])).toEqual([['Swath', 0]]);
  });

  it('John Deere and Müller layouts: boundary and guidance line layers', () => {
    const tracks = plan.route.filter((s) => s.type === 'Track').length;
    for (const [file, boundaryLayer, linesLayer] of [
      ['johndeere.zip', 'boundary', 'guidance_lines'],
      ['mueller.zip', 'F1_boundary', 'F1_guidance'],
    ]) {
      const byName = Object.fromEntries(results[file].map((l) => [l.name, l]));
      expect(byName[boundaryLayer]?.featureCount, file).toBe(1);
      expect(byName[linesLayer]?.featureCount, file).toBe(tracks);
      expect(
        maxRingDeviation(fieldGeometryOf(byName[boundaryLayer].features[0].wkt), plan.boundary),
      ).toBeLessThanOrEqual(1e-7);
    }
    expect(results['johndeere.zip'].find((l) => l.name === 'boundary')!.features[0].attributes).toMatchObject({
      CLIENT: 'Grower',
      FARM: 'Farm',
      FIELD: 'F1',
    });
  });

  for (const file of ['fields.geojson', 'fields.kml', 'fields.zip']) {
    it(`${file}: all 88 corpus boundaries with the same rings (holes and multipart kept)`, () => {
      const features = results[file].flatMap((l) => l.features);
      expect(features).toHaveLength(boundaries.length);
      const bad: string[] = [];
      boundaries.forEach((b, i) => {
        const d = maxRingDeviation(fieldGeometryOf(features[i].wkt), b.geometry);
        if (!(d <= 1e-7)) bad.push(`${String(b.properties.id)}: ${d}`);
      });
      expect(bad).toEqual([]);
      expect(features[0].attributes.id).toBe(boundaries[0].properties.id);
    });
  }
});

describeWith(
  ['gdal'],
  'Shapefiles in projected coordinate systems (written by GDAL ogr2ogr) are reprojected to WGS84',
  () => {
    const ids = ['at-ref-056', 'bg-009', 'br-lem-003', 'nz-006', 'se-000', 'jp-063'];
    const picked = corpusFields()
      .filter((f) => ids.includes(f.id) || f.category === 'multipart')
      .slice(0, 8);
    let dir = '';
    const cases: { id: string; epsg: string; encoding: string; zip: Uint8Array }[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'furrow-prj-'));
      await Promise.all(
        picked.map(async (field, i) => {
          const [lon, lat] = (
            field.geometry.type === 'Polygon' ? field.geometry.coordinates[0][0] : field.geometry.coordinates[0][0][0]
          ) as number[];
          const zone = Math.floor((lon + 180) / 6) + 1;
          const epsg = i % 3 === 2 ? 'EPSG:3857' : `EPSG:${lat >= 0 ? 32600 + zone : 32700 + zone}`;
          const encoding = i % 2 === 0 ? 'UTF-8' : 'ISO-8859-1';
          const src = join(dir, `${field.id}.geojson`);
          const feature = {
            type: 'Feature',
            properties: { Grower: 'Jörg Müller', Farm: 'Hofgut Süd', Field: field.id },
            geometry: field.geometry,
          };
          writeFileSync(src, JSON.stringify({ type: 'FeatureCollection', features: [feature] }));
          const out = join(dir, field.id);
          await run('ogr2ogr', [
            '-f',
            'ESRI Shapefile',
            out,
            src,
            '-t_srs',
            epsg,
            '-lco',
            `ENCODING=${encoding}`,
            '-nln',
            'field',
          ]);
          const zip = new JSZip();
          for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) {
            if (existsSync(join(out, `field.${ext}`)))
              zip.file(`field.${ext}`, readFileSync(join(out, `field.${ext}`)));
          }
          cases.push({ id: field.id, epsg, encoding, zip: await zip.generateAsync({ type: 'uint8array' }) });
        }),
      );
    }, 120_000);

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('same rings within 1e-7°, attributes decoded with the .cpg code page', async () => {
      expect(cases.length).toBe(picked.length);
      expect(cases.length).toBeGreaterThanOrEqual(6);
      for (const c of cases) {
        const [b] = await readShapefileBoundary(c.zip, `${c.id}.zip`);
        const original = corpusFields().find((f) => f.id === c.id)!;
        const [expected] = readGeoJson(original.text, original.file);
        expect(maxRingDeviation(b.geometry, expected.geometry), `${c.id} ${c.epsg}`).toBeLessThanOrEqual(1e-7);
        expect(b.properties, `${c.id} ${c.encoding}`).toMatchObject({
          Grower: 'Jörg Müller',
          Farm: 'Hofgut Süd',
          Field: c.id,
        });
      }
    });
  },
);
