/**
 * Test inputs for the format suites: the real field corpus (test/fields) and a hand-built,
 * realistic plan on a corpus field (headland pass, straight and one curved track, turns
 * between them, a connector, refill and staging points), for use before / beside `planRoute`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FieldGeometry, Plan, Position, Ring, RouteSegment } from '@furrow/core';

export const FIELDS_DIR = fileURLToPath(new URL('../../fields/', import.meta.url));

export interface CorpusField {
  id: string;
  file: string;
  category: string;
  text: string;
  geometry: FieldGeometry;
  properties: Record<string, unknown>;
}

let cache: CorpusField[] | undefined;

/** All 88 corpus fields, in index.csv order. */
export function corpusFields(): CorpusField[] {
  if (cache) return cache;
  const lines = readFileSync(`${FIELDS_DIR}index.csv`, 'utf8').trim().split('\n').slice(1);
  cache = lines.map((line) => {
    const cols = line.split(',');
    const text = readFileSync(`${FIELDS_DIR}${cols[1]}`, 'utf8');
    const feature = JSON.parse(text) as { geometry: FieldGeometry; properties: Record<string, unknown> };
    return {
      id: cols[0],
      file: cols[1],
      category: cols[8],
      text,
      geometry: feature.geometry,
      properties: feature.properties,
    };
  });
  return cache;
}

export function corpusField(id: string): CorpusField {
  const f = corpusFields().find((c) => c.id === id);
  if (!f) throw new Error(`no corpus field ${id}`);
  return f;
}

/** Local equirectangular frame around a point: good to a few mm over a field, enough for fixtures. */
function frame(origin: Position) {
  const mx = 111320 * Math.cos((origin[1] * Math.PI) / 180);
  const my = 110540;
  return {
    toXY: (p: Position): [number, number] => [(p[0] - origin[0]) * mx, (p[1] - origin[1]) * my],
    toLonLat: (x: number, y: number): Position => [origin[0] + x / mx, origin[1] + y / my],
  };
}

function lengthOf(line: Position[], toXY: (p: Position) => [number, number]): number {
  let sum = 0;
  for (let i = 1; i < line.length; i++) {
    const a = toXY(line[i - 1]);
    const b = toXY(line[i]);
    sum += Math.hypot(b[0] - a[0], b[1] - a[1]);
  }
  return sum;
}

/**
 * A plan on the field's first polygon: one exterior headland pass (the outer ring pulled
 * 15 % towards its centre), a connector to the first track, east-west tracks every
 * `widthMeters` inside the pass (the first one gently curved), and semicircular turns
 * sampled every ≤ 0.5 m. Pieces meet exactly; sequence numbers from 0.
 */
export function handPlan(field: FieldGeometry, widthMeters = 12, maxTracks = 6): Plan {
  const rings: Ring[] = field.type === 'Polygon' ? field.coordinates : field.coordinates[0];
  const outer = rings[0];
  const f = frame(outer[0]);
  const xy = outer.map(f.toXY);
  const cx = xy.reduce((s, p) => s + p[0], 0) / xy.length;
  const cy = xy.reduce((s, p) => s + p[1], 0) / xy.length;
  const inner = xy.map(([x, y]) => [cx + (x - cx) * 0.85, cy + (y - cy) * 0.85] as [number, number]);
  const headland = inner.map(([x, y]) => f.toLonLat(x, y));

  // horizontal scanlines over the inner ring: the first crossing pair of each line is a track
  const ys = inner.map((p) => p[1]);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const tracks: [number, number, number][] = [];
  for (let y = minY + widthMeters / 2; y < maxY && tracks.length < maxTracks; y += widthMeters) {
    const xs: number[] = [];
    for (let i = 0; i < inner.length - 1; i++) {
      const [x1, y1] = inner[i];
      const [x2, y2] = inner[i + 1];
      if ((y1 <= y && y2 > y) || (y2 <= y && y1 > y)) xs.push(x1 + ((y - y1) / (y2 - y1)) * (x2 - x1));
    }
    xs.sort((a, b) => a - b);
    if (xs.length >= 2 && xs[1] - xs[0] > 3 * widthMeters) tracks.push([xs[0] + widthMeters, xs[1] - widthMeters, y]);
  }
  const route: RouteSegment[] = [];
  const push = (type: RouteSegment['type'], coordinates: Position[], extra: Partial<RouteSegment> = {}) => {
    route.push({ sequence: route.length, type, coordinates, lengthMeters: lengthOf(coordinates, f.toXY), ...extra });
  };
  push('ExteriorHeadland', headland, { widthMeters, headlandIndex: 0 });
  let at: [number, number] = inner[inner.length - 1];
  tracks.forEach(([x0, x1, y], i) => {
    const forward = i % 2 === 0;
    const start: [number, number] = [forward ? x0 : x1, y];
    const end: [number, number] = [forward ? x1 : x0, y];
    const gap = Math.hypot(start[0] - at[0], start[1] - at[1]);
    if (i === 0) {
      const n = Math.max(2, Math.ceil(gap / 0.45) + 1);
      const line: Position[] = [];
      for (let k = 0; k < n; k++)
        line.push(f.toLonLat(at[0] + ((start[0] - at[0]) * k) / (n - 1), at[1] + ((start[1] - at[1]) * k) / (n - 1)));
      push('Connector', line);
    } else {
      // semicircle of radius (y_i − y_{i−1}) / 2 beyond the previous end, then straight to the start
      const r = (y - at[1]) / 2;
      const side = forward ? 1 : -1; // bulge outwards: left end when the next track runs forward
      const n = Math.max(8, Math.ceil((Math.PI * Math.abs(r)) / 0.45) + 1);
      const line: Position[] = [];
      for (let k = 0; k < n; k++) {
        const a = -Math.PI / 2 + (Math.PI * k) / (n - 1);
        line.push(f.toLonLat(at[0] - side * Math.abs(r) * Math.cos(a), at[1] + r + r * Math.sin(a)));
      }
      const last = at[1] + 2 * r;
      const d = Math.abs(start[0] - at[0]);
      const m = Math.ceil(d / 0.45);
      for (let k = 1; k <= m; k++) line.push(f.toLonLat(at[0] + ((start[0] - at[0]) * k) / m, last));
      if (m === 0) line[line.length - 1] = f.toLonLat(start[0], start[1]);
      push('Turn', line, { turnType: 'U' });
    }
    const line: Position[] = [];
    const steps = i === 0 ? 20 : 1;
    for (let k = 0; k <= steps; k++) {
      const t = k / steps;
      const bend = i === 0 ? Math.sin(Math.PI * t) * 1.5 : 0;
      line.push(f.toLonLat(start[0] + (end[0] - start[0]) * t, y + bend));
    }
    push('Track', line, { widthMeters, trackIndex: i });
    at = end;
  });
  const working = route
    .filter((s) => s.type === 'Track' || s.type === 'ExteriorHeadland')
    .reduce((s, r) => s + r.lengthMeters, 0);
  const all = route.reduce((s, r) => s + r.lengthMeters, 0);
  const firstTrack = route.find((s) => s.type === 'Track');
  return {
    version: '0.1.0',
    heading: { degrees: 90, source: 'preferred' },
    metrics: {
      fieldAreaSquareMeters: 10000,
      workableAreaSquareMeters: 9000,
      distanceMeters: all,
      workingDistanceMeters: working,
      nonWorkingDistanceMeters: all - working,
      timeSeconds: working / 2.5 + (all - working) / 1.5,
      overlapSquareMeters: 0,
      overlapRatio: 0,
      uncoveredSquareMeters: 1000,
      uncoveredRatio: 0.1,
      turns: route.filter((s) => s.type === 'Turn').length,
    },
    route,
    boundary: field,
    warnings: [],
    refillPoints: firstTrack
      ? [{ coordinates: firstTrack.coordinates[Math.floor(firstTrack.coordinates.length / 2)], liters: 500 }]
      : [],
    stagingArea: outer[0],
    guidanceLines: firstTrack
      ? [{ coordinates: [firstTrack.coordinates[0], firstTrack.coordinates[firstTrack.coordinates.length - 1]] }]
      : [],
  };
}

/** Canonical form of a polygon for comparisons: closed rings, outer CCW / holes CW, each starting at its smallest vertex, holes sorted. */
export function canonicalRings(rings: Ring[]): Ring[] {
  const area = (r: Ring) => r.reduce((s, p, i) => (i === 0 ? s : s + (r[i - 1][0] - p[0]) * (r[i - 1][1] + p[1])), 0);
  const fix = (ring: Ring, ccw: boolean): Ring => {
    let r = ring.slice();
    if (r.length > 1 && r[0][0] === r[r.length - 1][0] && r[0][1] === r[r.length - 1][1]) r.pop();
    const closed = [...r, r[0]];
    if (area(closed) > 0 !== ccw) r = r.reverse();
    let k = 0;
    for (let i = 1; i < r.length; i++) if (r[i][0] < r[k][0] || (r[i][0] === r[k][0] && r[i][1] < r[k][1])) k = i;
    r = [...r.slice(k), ...r.slice(0, k)];
    return [...r, r[0]];
  };
  const [outer, ...holes] = rings;
  const h = holes.map((r) => fix(r, false)).sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1]);
  return [fix(outer, true), ...h];
}

export function canonicalPolygons(g: FieldGeometry): Ring[][] {
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  return polys.map(canonicalRings).sort((a, b) => a[0][0][0] - b[0][0][0] || a[0][0][1] - b[0][0][1]);
}

/** Largest coordinate difference between two geometries in canonical form (Infinity when the structure differs). */
export function maxRingDeviation(a: FieldGeometry, b: FieldGeometry): number {
  const pa = canonicalPolygons(a);
  const pb = canonicalPolygons(b);
  if (pa.length !== pb.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < pa.length; i++) {
    if (pa[i].length !== pb[i].length) return Infinity;
    for (let j = 0; j < pa[i].length; j++) {
      if (pa[i][j].length !== pb[i][j].length) return Infinity;
      for (let k = 0; k < pa[i][j].length; k++) {
        worst = Math.max(worst, Math.abs(pa[i][j][k][0] - pb[i][j][k][0]), Math.abs(pa[i][j][k][1] - pb[i][j][k][1]));
      }
    }
  }
  return worst;
}
