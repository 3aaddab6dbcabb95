/**
 * AgOpenGPS field folders (issue 43): corpus plans written by `writePlan(plan, 'agopengps')` and
 * read back by a reader written from the published format (support/agopengps-reader.ts, no code
 * shared with the writer); hand-written folders read as boundaries, a drive-through hole passable.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import type { FieldGeometry, PathPlanRequest, Plan, Position, Ring } from '@furrow/core';
import { boundaryToAgOpenGps } from '@furrow/format-agopengps';
import { readAnyBoundary, readBoundaryFolder, writePlan } from '@furrow/format-vendor';
import { corpusField } from './support/fixtures.js';
import {
  metersBetween,
  pathLength,
  readBoundaryTxt,
  readFieldTxt,
  readHeadlandTxt,
  readRecPathTxt,
  readTrackLinesTxt,
  ringArea,
  toLonLat,
  type FieldTxt,
  type Ring as FenceRing,
} from './support/agopengps-reader.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/cli/bin/furrow.js');

/** 20 corpus fields: five with holes, a MultiPolygon (ch-047), three planned with curved tracks. */
const FIELDS: { id: string; curved?: boolean }[] = [
  { id: 'at-033' },
  { id: 'at-ref-003', curved: true },
  { id: 'at-ref-057' },
  { id: 'be-vlg-038' },
  { id: 'be-vlg-081' },
  { id: 'bg-079' },
  { id: 'ch-021' },
  { id: 'ch-047' },
  { id: 'ch-059' },
  { id: 'dk-052', curved: true },
  { id: 'de-sh-008' },
  { id: 'de-sh-055' },
  { id: 'dk-091' },
  { id: 'fr-086' },
  { id: 'ie-010' },
  { id: 'jp-063' },
  { id: 'kh-042' },
  { id: 'pt-026' },
  { id: 'sk-043', curved: true },
  { id: 'nl-brp-084' },
];

const polygonsOf = (g: FieldGeometry): Ring[][] => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates);
const text = (x: string | Uint8Array): string => (typeof x === 'string' ? x : new TextDecoder().decode(x));

interface Folder {
  name: string;
  field: FieldTxt;
  rings: FenceRing[];
  headland: ReturnType<typeof readHeadlandTxt>;
  tracks: ReturnType<typeof readTrackLinesTxt>;
  recPath: ReturnType<typeof readRecPathTxt>;
}

function readFolders(files: Record<string, string | Uint8Array>): Folder[] {
  const names = [...new Set(Object.keys(files).map((p) => p.split('/')[0]))].sort();
  return names.map((name) => {
    const get = (f: string): string => {
      const x = files[`${name}/${f}`];
      if (x === undefined) throw new Error(`${name}/${f} is missing`);
      return text(x);
    };
    expect(Object.keys(files).filter((p) => p.startsWith(`${name}/`)).length).toBe(5);
    const field = readFieldTxt(get('Field.txt'));
    const rings = readBoundaryTxt(get('Boundary.txt'));
    return {
      name,
      field,
      rings,
      headland: readHeadlandTxt(get('Headland.txt'), rings.length),
      tracks: readTrackLinesTxt(get('TrackLines.txt')),
      recPath: readRecPathTxt(get('RecPath.txt')),
    };
  });
}

/** The largest distance from any vertex of the polygons to the nearest fence point read back, meters. */
function vertexRoundTripMeters(polygons: Ring[][], folders: Folder[]): number {
  const back: Position[] = [];
  for (const f of folders) for (const r of f.rings) for (const p of r.points) back.push(toLonLat(f.field, p.e, p.n));
  let worst = 0;
  for (const rings of polygons)
    for (const ring of rings)
      for (const v of ring) {
        let best = Infinity;
        for (const b of back) best = Math.min(best, metersBetween(v, b));
        worst = Math.max(worst, best);
      }
  return worst;
}

function maxSpacingMeters(points: { e: number; n: number }[]): number {
  let worst = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i];
    const b = points[(i + 1) % points.length];
    worst = Math.max(worst, Math.hypot(b.e - a.e, b.n - a.n));
  }
  return worst;
}

describe('AgOpenGPS folders of 20 corpus plans, read by an independent reader', () => {
  it.each(FIELDS)('$id', async ({ id, curved }) => {
    const field = corpusField(id);
    const request: PathPlanRequest = {
      field: field.geometry,
      machine: { widthMeters: 6 },
      ...(curved ? { tracks: { trackType: 'curved' as const } } : {}),
    };
    const plan: Plan = planRoute(request);
    const out = await writePlan(plan, 'agopengps', { field: id, date: new Date(Date.UTC(2026, 2, 14, 15, 4, 5)) });
    expect(out.mediaType).toBe('application/zip');
    const folders = readFolders(out.files!);
    const polygons = polygonsOf(plan.boundary);
    // one folder per polygon (AgOpenGPS keeps one outer fence per field)
    expect(folders.length).toBe(polygons.length);
    for (const f of folders) {
      expect(f.field.name).toBe(f.name);
      expect(f.field.date).toBe('2026-March-14 03:04:05 PM');
    }

    // rings: ring 0 outer, then the holes, none drive-through; fence points ≤ 3.3 m apart
    const holes = polygons.reduce((n, rings) => n + rings.length - 1, 0);
    expect(folders.reduce((n, f) => n + f.rings.length - 1, 0)).toBe(holes);
    for (const f of folders) {
      for (const r of f.rings) {
        expect(r.driveThrough).toBe(false);
        expect(maxSpacingMeters(r.points)).toBeLessThanOrEqual(3.3 + 0.002);
      }
      expect(f.headland.length === 0 || f.headland.length === f.rings.length).toBe(true);
    }
    // lat/lon → local (the file) → lat/lon (the published formulas): every vertex within 1 cm
    expect(vertexRoundTripMeters(polygons, folders)).toBeLessThan(0.01);

    // boundary areas within 0.1 % (outer fence minus the holes)
    const area = folders.reduce(
      (a, f) => a + f.rings.reduce((s, r, i) => s + (i === 0 ? 1 : -1) * ringArea(r.points), 0),
      0,
    );
    expect(Math.abs(area / plan.metrics.fieldAreaSquareMeters - 1)).toBeLessThan(0.001);

    // each folder's RecPath is the whole route: length within 0.1 %, section Auto on while working
    const first = [...plan.route].sort((a, b) => a.sequence - b.sequence)[0];
    for (const f of folders) {
      const rec = f.recPath;
      expect(Math.abs(pathLength(rec) / plan.metrics.distanceMeters - 1)).toBeLessThan(0.001);
      expect(metersBetween(toLonLat(f.field, rec[0].e, rec[0].n), first.coordinates[0])).toBeLessThan(0.01);
      expect(rec.some((p) => p.auto)).toBe(true);
      expect(rec.every((p) => p.speedKmh === (p.auto ? 9 : 5.4) || p.speedKmh === 14.4)).toBe(true);
    }

    // tracks: the guidance lines and every working pass; curves with ≥ 4 points (the reader checks)
    const working = plan.route.filter((s) => ['Track', 'ExteriorHeadland', 'InteriorHeadland'].includes(s.type));
    const guidance = Array.isArray(plan.guidanceLines) ? plan.guidanceLines.length : 0;
    const tracks = folders.flatMap((f) => f.tracks);
    expect(tracks.length).toBe(working.length + guidance);
    expect(tracks.some((t) => t.mode === 4)).toBe(true);
    if (curved) expect(tracks.filter((t) => t.name.startsWith('Track') && t.mode === 4).length).toBeGreaterThan(0);
    for (const t of tracks) {
      expect(t.nudge).toBe(0);
      expect(t.visible).toBe(true);
      if (t.mode === 4) expect(Math.hypot(t.points[0].e - t.a[0], t.points[0].n - t.a[1])).toBeLessThan(0.002);
    }
  });
});

describe('AgOpenGPS local plane round trip at 0°, 45° and 65° latitude', () => {
  it.each([0, 45, 65])('%i°', (latitude) => {
    for (const id of ['dk-091', 'ch-047', 'de-sh-055']) {
      const g = corpusField(id).geometry;
      const polys = polygonsOf(g);
      const lat0 = polys[0][0][0][1];
      const shift = (r: Ring): Ring => r.map(([lon, lat]) => [lon, lat - lat0 + latitude] as Position);
      const moved: FieldGeometry =
        g.type === 'Polygon'
          ? { type: 'Polygon', coordinates: g.coordinates.map(shift) }
          : { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map(shift)) };
      const folders = readFolders(boundaryToAgOpenGps({ geometry: moved }, { field: id }));
      expect(vertexRoundTripMeters(polygonsOf(moved), folders)).toBeLessThan(0.01);
      for (const f of folders) expect(Math.abs(f.field.originLat - latitude)).toBeLessThan(0.1);
    }
  });
});

// ----- hand-written folders in the published format -----

const FIELD_TXT = [
  '2025-March-14 09:30:00 AM',
  '$FieldDir',
  'North',
  '$Offsets',
  '0,0',
  'Convergence',
  '0',
  'StartFix',
  '48.1,11.5',
  '',
].join('\n');

/** A 200 × 100 m field round the origin with a 24 × 24 m hole in its middle. */
function boundaryTxt(driveThrough: boolean): string {
  return [
    '$Boundary',
    'False',
    '4',
    '-100,-50,1.5708',
    '100,-50,0',
    '100,50,4.71239',
    '-100,50,3.14159',
    driveThrough ? 'True' : 'False',
    '4',
    '-12,-12,0',
    '-12,12,1.5708',
    '12,12,3.14159',
    '12,-12,4.71239',
    '',
  ].join('\n');
}

/** Length of the working tracks inside the hole square (local frame of the folder), meters. */
function workedInsideHole(plan: Plan): number {
  const field: FieldTxt = { date: '', name: 'North', originLat: 48.1, originLon: 11.5 };
  const [lon0, lat0] = toLonLat(field, -12, -12);
  const [lon1, lat1] = toLonLat(field, 12, 12);
  let inside = 0;
  for (const s of plan.route.filter((r) => r.type === 'Track')) {
    for (let i = 1; i < s.coordinates.length; i++) {
      // sample the segment every ~0.5 m
      const a = s.coordinates[i - 1];
      const b = s.coordinates[i];
      const n = Math.max(1, Math.ceil(metersBetween(a, b) / 0.5));
      for (let k = 0; k < n; k++) {
        const lon = a[0] + ((b[0] - a[0]) * (k + 0.5)) / n;
        const lat = a[1] + ((b[1] - a[1]) * (k + 0.5)) / n;
        if (lon > lon0 && lon < lon1 && lat > lat0 && lat < lat1) inside += metersBetween(a, b) / n;
      }
    }
  }
  return inside;
}

function planFolder(files: Record<string, string>): Plan {
  const [b] = readBoundaryFolder(files, 'fields');
  const obstacles = (b.passableZones ?? []).map((geometry) => ({ geometry, passable: true }));
  return planRoute({ field: b.geometry, obstacles, machine: { widthMeters: 6 }, headland: { passes: 1 } });
}

describe('a hand-written AgOpenGPS folder as a boundary', () => {
  it('a drive-through hole is a passable zone: the tracks run through it', () => {
    const files = { 'North/Field.txt': FIELD_TXT, 'North/Boundary.txt': boundaryTxt(true) };
    const [b] = readBoundaryFolder(files, 'fields');
    expect(b.format).toBe('agopengps');
    expect(b.properties.name).toBe('North');
    expect(b.geometry.type === 'Polygon' && b.geometry.coordinates.length).toBe(1);
    expect(b.passableZones?.length).toBe(1);
    // the zone where the file puts it: its corners back through the published formulas
    const zone = b.passableZones![0].coordinates[0];
    const field: FieldTxt = { date: '', name: 'North', originLat: 48.1, originLon: 11.5 };
    for (const [e, n] of [
      [-12, -12],
      [12, 12],
    ])
      expect(Math.min(...zone.map((p) => metersBetween(p, toLonLat(field, e, n))))).toBeLessThan(0.001);
    expect(workedInsideHole(planFolder(files))).toBeGreaterThan(20);
  });

  it('a hole not marked drive-through is a hole: no track runs through it', () => {
    const files = { 'North/Field.txt': FIELD_TXT, 'North/Boundary.txt': boundaryTxt(false) };
    const [b] = readBoundaryFolder(files, 'fields');
    expect(b.passableZones).toBeUndefined();
    expect(b.geometry.type === 'Polygon' && b.geometry.coordinates.length).toBe(2);
    expect(workedInsideHole(planFolder(files))).toBe(0);
  });

  it('a zipped folder is detected and read like the others', async () => {
    const zip = new JSZip();
    zip.file('North/Field.txt', FIELD_TXT);
    zip.file('North/Boundary.txt', boundaryTxt(true));
    zip.file('North/Field.kml', '<kml xmlns="http://www.opengis.net/kml/2.2"></kml>');
    const [b] = await readAnyBoundary(await zip.generateAsync({ type: 'uint8array' }), 'north.zip');
    expect(b.format).toBe('agopengps');
    expect(b.passableZones?.length).toBe(1);
  });

  it('names the file and line of a broken origin', () => {
    const files = {
      'North/Field.txt': FIELD_TXT.replace('48.1,11.5', '48.1'),
      'North/Boundary.txt': boundaryTxt(true),
    };
    expect(() => readBoundaryFolder(files, 'fields')).toThrow(/North\/Field\.txt \(agopengps\) at line 9/);
  });
});

describe('furrow plan FIELD_DIR/ and -f agopengps -o DIR/', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'furrow-agopengps-'));
    mkdirSync(join(dir, 'North'));
    writeFileSync(join(dir, 'North', 'Field.txt'), FIELD_TXT);
    writeFileSync(join(dir, 'North', 'Boundary.txt'), boundaryTxt(true));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('plans the folder and writes the plan as a field folder', async () => {
    const out = join(dir, 'Fields');
    await run(process.execPath, [bin, 'plan', join(dir, 'North') + '/', '-f', 'agopengps', '-o', out + '/'], {
      cwd: root,
    });
    expect(readdirSync(out)).toEqual(['North']);
    const folder = readFolders(
      Object.fromEntries(
        ['Field.txt', 'Boundary.txt', 'Headland.txt', 'TrackLines.txt', 'RecPath.txt'].map((f) => [
          `North/${f}`,
          readFileSync(join(out, 'North', f), 'utf8'),
        ]),
      ),
    )[0];
    expect(folder.field.name).toBe('North');
    expect(folder.rings.length).toBe(1); // the passable zone is worked over, so not written as a hole
    expect(folder.recPath.length).toBeGreaterThan(10);
  });
});
