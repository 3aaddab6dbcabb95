import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArrayBuffer } from 'geotiff';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../index.js';

const root = new URL('../../../../', import.meta.url).pathname;
const field = join(root, 'test/fields/at-033.geojson');
let dir: string;
let dem: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'furrow-terrain-'));
  // A UTM 33N GeoTIFF rising 5 % towards grid north around the field: contour tracks run east-west.
  const ring = (JSON.parse(readFileSync(field, 'utf8')) as { geometry: { coordinates: number[][][] } }).geometry
    .coordinates[0];
  const [e, n] = proj4('EPSG:4326', '+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs').forward([
    ring[0][0],
    ring[0][1],
  ]) as number[];
  const size = 80,
    cell = 5;
  const z = new Float32Array(size * size);
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) z[r * size + c] = 300 + 0.05 * (size - r) * cell;
  const tif = writeArrayBuffer(z, {
    width: size,
    height: size,
    ModelPixelScale: [cell, cell, 0],
    ModelTiepoint: [0, 0, 0, e - 200, n + 200, 0],
    ProjectedCSTypeGeoKey: 32633,
    GTModelTypeGeoKey: 1,
    GTRasterTypeGeoKey: 1,
  });
  dem = join(dir, 'dem.tif');
  writeFileSync(dem, new Uint8Array(tif));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gap = (a: number, b: number): number => {
  const d = Math.abs((((a - b) % 180) + 180) % 180);
  return Math.min(d, 180 - d);
};

describe('furrow terrain', () => {
  it('prints the contour heading and the key contour of a field', async () => {
    const out = join(dir, 'terrain.json');
    expect(await main(['terrain', field, '--dem', dem, '--out', out])).toBe(0);
    const t = JSON.parse(readFileSync(out, 'utf8'));
    expect(gap(t.best.headingDegrees, 90)).toBeLessThan(1); // grid north is within 1° of true north here
    expect(t.keyContour.coordinates.length).toBeGreaterThan(1);
    const withTracks = join(dir, 'tracks.json');
    expect(
      await main(['terrain', field, '--dem', dem, '--contour-width', '6', '--inset', '6', '--out', withTracks]),
    ).toBe(0);
    const tracks = JSON.parse(readFileSync(withTracks, 'utf8')).contourTracks as { offsetIndex: number }[];
    expect(tracks.length).toBeGreaterThan(2);
    expect(new Set(tracks.map((x) => x.offsetIndex)).size).toBeGreaterThan(2);
  });

  it('--plan plans with that heading and reports the slope driven', async () => {
    const out = join(dir, 'plan.json');
    expect(
      await main(['terrain', field, '--dem', dem, '--plan', '--width', '6', '--headland-passes', '1', '--out', out]),
    ).toBe(0);
    const p = JSON.parse(readFileSync(out, 'utf8'));
    expect(p.terrain.headingSource).toBe('terrain');
    expect(gap(p.heading.degrees, p.terrain.recommended.headingDegrees)).toBeLessThan(0.01);
    expect(p.metrics.distanceMeters).toBeGreaterThan(0);
    const tracks = p.terrain.slope.passes.filter((s: { type: string }) => s.type === 'Track');
    expect(tracks.length).toBeGreaterThan(0);
    expect(Math.max(...tracks.map((s: { meanAlongGradePercent: number }) => s.meanAlongGradePercent))).toBeLessThan(1);
  });

  it('bad input exits 2', async () => {
    expect(await main(['terrain', field])).toBe(2); // --dem missing
    expect(await main(['terrain', field, '--dem', join(dir, 'nope.tif')])).toBe(2);
    expect(await main(['terrain', field, '--dem', dem, '--objective', 'steep'])).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{"type":"ElevationGrid"}');
    expect(await main(['terrain', field, '--dem', join(dir, 'bad.json')])).toBe(2);
  });
});
