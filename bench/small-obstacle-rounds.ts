/**
 * Small obstacles and headland rounds: over the corpus fields with holes, which no-go zones
 * smaller than the working width (largest extent, measured on the lon/lat ring in a local
 * equirectangular frame) still get an interior headland pass round them. A zone counts as rounded
 * when an `InteriorHeadland` route piece encloses its centroid and no larger zone's centroid.
 * Each such zone is printed with its distance to the field's outer edge and to the next zone.
 *
 * Run: `npx tsx bench/small-obstacle-rounds.ts [--width=12] [--radius=9] [--passes=2]`
 * (planned on a frozen clock: the same plans on any machine).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { planRoute } from '../packages/core/src/plan.js';
import type { FieldGeometry } from '../packages/core/src/types.js';

type Pt = [number, number];
const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, d: number): number =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d);
const W = arg('width', 12),
  R = arg('radius', 9),
  N = arg('passes', 2);

function inside(p: Pt, ring: Pt[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i],
      [xj, yj] = ring[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function segmentDistance(p: Pt, a: Pt, b: Pt): number {
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

const rows = readFileSync(`${root}test/fields/index.csv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','));
let small = 0,
  rounded = 0;
const fields: string[] = [];
for (const [id, file, , , holeCount] of rows) {
  if (Number(holeCount) === 0) continue;
  const g = JSON.parse(readFileSync(`${root}test/fields/${file}`, 'utf8'));
  const field: FieldGeometry =
    g.type === 'FeatureCollection' ? g.features[0].geometry : g.type === 'Feature' ? g.geometry : g;
  const polygons = (field.type === 'Polygon' ? [field.coordinates] : field.coordinates) as number[][][][];
  const lat0 = polygons[0][0][0][1],
    ky = 111_320,
    kx = ky * Math.cos((lat0 * Math.PI) / 180);
  const local = (q: number[]): Pt => [q[0] * kx, q[1] * ky];
  const zones = polygons
    .flatMap((p) => p.slice(1))
    .map((h) => {
      const pts = h.map(local);
      let d = 0;
      for (let i = 0; i < pts.length; i++)
        for (let j = i + 1; j < pts.length; j++)
          d = Math.max(d, Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]));
      return {
        size: d,
        centre: pts.reduce<Pt>((a, q) => [a[0] + q[0] / pts.length, a[1] + q[1] / pts.length], [0, 0]),
      };
    });
  const smallZones = zones.filter((z) => z.size < W);
  if (smallZones.length === 0) continue;
  const plan = planRoute(
    { field, machine: { widthMeters: W, turnRadiusMeters: R }, headland: { passes: N } },
    { now: () => 0 },
  );
  const rings = plan.route.filter((s) => s.type === 'InteriorHeadland').map((s) => s.coordinates.map(local));
  const outer = polygons.map((p) => p[0].map(local));
  let n = 0;
  for (const z of smallZones) {
    if (!rings.some((ring) => inside(z.centre, ring) && !zones.some((o) => o.size >= W && inside(o.centre, ring))))
      continue;
    n++;
    let edge = Infinity,
      next = Infinity;
    for (const e of outer)
      for (let i = 0; i + 1 < e.length; i++) edge = Math.min(edge, segmentDistance(z.centre, e[i], e[i + 1]));
    for (const o of zones)
      if (o !== z) next = Math.min(next, Math.hypot(o.centre[0] - z.centre[0], o.centre[1] - z.centre[1]));
    console.log(
      `${id}: a ${z.size.toFixed(1)} m zone with a headland round, ${edge.toFixed(0)} m from the outer edge, ${Number.isFinite(next) ? next.toFixed(0) : '–'} m from the next zone`,
    );
  }
  small += smallZones.length;
  rounded += n;
  if (n > 0) fields.push(id);
}
console.log(
  `W ${W} m, R ${R} m, ${N} passes: ${small} zones under ${W} m, ${rounded} with a headland round (${fields.length} fields: ${fields.join(', ')})`,
);
