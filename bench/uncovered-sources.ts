/**
 * Where the uncovered area of corpus plans comes from (against the coverage target). Every field
 * is planned as `furrow bench` plans it (width 6 m, 2 headland passes, R 6 m, snake), the
 * swaths of its route are united, and the uncovered part of the workable area is split into
 * zones, each uncovered square meter counted in the first zone that holds it:
 *
 * - `skipped`: the swath of a headland pass the route left out (`headland-pass-skipped`);
 * - `narrow`: the field outside its opening by w/2 — corners and necks no w-wide swath reaches
 *   without leaving the field;
 * - `band`: the rest of the headland band (boundary to N·w in): corners the passes cut, passes
 *   dropped as slivers, trimmed passes;
 * - `ends`: the mainland within w of its edge where the tracks end (the edge at more than 30°
 *   to the tracks): the wedges beside the track ends;
 * - `sides`: the mainland within w of its edge along the tracks;
 * - `inner`: deeper in the mainland (cells with no tracks, short pieces dropped, trimmed tracks).
 *
 * Imports core's stage functions from its sources (they are not on the public API).
 * Run: `npx tsx bench/uncovered-sources.ts [--filter=id] [--max-area-ha=N] [--json=out.json]`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { planRoute } from '../packages/core/src/plan.js';
import { prepareField } from '../packages/core/src/geometry/prepareField.js';
import { normalizeRequest } from '../packages/core/src/request/normalizeRequest.js';
import { passableCore } from '../packages/core/src/headland/generateHeadlands.js';
import { swathsOf } from '../packages/core/src/geometry/computeCoverage.js';
import {
  areaOf,
  differencePolygons,
  intersectPolygons,
  offsetPolygons,
  unionPolygons,
} from '../packages/core/src/geometry/clipper.js';
import type { PathsD } from '../packages/core/src/geometry/clipper.js';
import type { FieldGeometry, PathPlanRequest } from '../packages/core/src/types.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const filter = arg('filter');
const maxAreaHa = Number(arg('max-area-ha') ?? Infinity);
const jsonOut = arg('json');
const svgDir = arg('svg');
const W = 6,
  N = 2,
  R = 6;
const ZONES = ['skipped', 'narrow', 'band', 'ends', 'sides', 'inner'] as const;
type Zone = (typeof ZONES)[number];

const rows = readFileSync(`${root}test/fields/index.csv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','));
const results: {
  id: string;
  category: string;
  uncoveredRatio: number;
  overlapRatio: number;
  skippedPasses: number;
  zones: Record<Zone, number>;
}[] = [];

/** A picture for the eye: field, swaths (green), uncovered (red), route's working passes (black). */
function drawSvg(field: PathsD, swaths: PathsD, uncovered: PathsD, lines: number[][]): string {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const r of field)
    for (const p of r) {
      x0 = Math.min(x0, p.x);
      y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x);
      y1 = Math.max(y1, p.y);
    }
  const k = 1600 / Math.max(x1 - x0, y1 - y0);
  const X = (x: number): string => ((x - x0) * k + 10).toFixed(1),
    Y = (y: number): string => ((y1 - y) * k + 10).toFixed(1);
  const path = (ps: PathsD): string => ps.map((r) => `M${r.map((p) => `${X(p.x)},${Y(p.y)}`).join('L')}Z`).join('');
  const pl = (xy: number[]): string => {
    let d = '';
    for (let i = 0; i < xy.length; i += 2) d += `${i ? 'L' : 'M'}${X(xy[i])},${Y(xy[i + 1])}`;
    return d;
  };
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${((x1 - x0) * k + 20).toFixed(0)}" height="${((y1 - y0) * k + 20).toFixed(0)}"><rect width="100%" height="100%" fill="white"/>` +
    `<path d="${path(swaths)}" fill="#9d9" fill-rule="nonzero"/><path d="${path(uncovered)}" fill="red" fill-rule="nonzero"/>` +
    `<path d="${path(field)}" fill="none" stroke="blue" stroke-width="1"/>${lines.map((l) => `<path d="${pl(l)}" fill="none" stroke="black" stroke-width="0.7"/>`).join('')}</svg>`
  );
}

/** The mainland's edge band split by the edge's angle to the tracks: ends (≥ 30°) and sides. */
function edgeBands(mainland: PathsD, directionRadians: number): { ends: PathsD; sides: PathsD } {
  const ux = Math.cos(directionRadians),
    uy = Math.sin(directionRadians);
  const ends: PathsD = [],
    sides: PathsD = [];
  for (const ring of mainland) {
    for (let i = 0, n = ring.length; i < n; i++) {
      const a = ring[i],
        b = ring[(i + 1) % n];
      const ex = b.x - a.x,
        ey = b.y - a.y,
        len = Math.hypot(ex, ey);
      if (len === 0) continue;
      const sin = Math.abs(ex * uy - ey * ux) / len;
      // The edge buffered by w (a rectangle with the edge on its centre line).
      const nx = (-ey / len) * W,
        ny = (ex / len) * W;
      const q = [
        { x: a.x + nx, y: a.y + ny },
        { x: b.x + nx, y: b.y + ny },
        { x: b.x - nx, y: b.y - ny },
        { x: a.x - nx, y: a.y - ny },
      ];
      if (areaOf([q]) < 0) q.reverse();
      (sin >= 0.5 ? ends : sides).push(q);
    }
  }
  const e = unionPolygons(ends);
  return { ends: e, sides: differencePolygons(unionPolygons(sides), e) };
}

for (const r of rows) {
  const [id, file, areaHa] = r;
  if (filter && !id.includes(filter)) continue;
  if (!(Number(areaHa) <= maxAreaHa)) continue;
  const g = JSON.parse(readFileSync(`${root}test/fields/${file}`, 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
  };
  const geometry = (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
  const request: PathPlanRequest = {
    field: geometry,
    machine: { widthMeters: W, turnRadiusMeters: R },
    headland: { passes: N },
    routeOptions: { algorithm: 'snake' },
  };
  const plan = planRoute(request);
  const f = prepareField(normalizeRequest(request));
  const toLocal = (coords: number[][]): number[] => {
    const out: number[] = [];
    for (const p of coords) out.push(...f.frame.toLocal(p[0], p[1]));
    return out;
  };
  const worked = plan.route
    .filter((s) => s.type !== 'Turn' && s.type !== 'Connector')
    .map((s) => ({ xy: toLocal(s.coordinates), widthMeters: W }));
  const all: PathsD = [];
  for (const s of swathsOf(worked)) all.push(...s);
  let left = differencePolygons(f.workable, unionPolygons(all));
  const total = areaOf(left);
  // Headland passes the route does not drive.
  const driven = new Set(plan.route.filter((s) => s.headlandIndex !== undefined).map((s) => s.headlandIndex));
  const headlands = plan.headlands as { index: number; coordinates: number[][] }[];
  const skipped = headlands.filter((h) => !driven.has(h.index));
  const skippedSwath =
    skipped.length > 0
      ? unionPolygons(swathsOf(skipped.map((h) => ({ xy: toLocal(h.coordinates), widthMeters: W }))).flat())
      : [];
  const mainland = offsetPolygons(f.field, -N * W, 0.01);
  const narrow = differencePolygons(f.field, passableCore(f.field, W));
  const band = differencePolygons(f.field, mainland);
  const dir = ((90 - plan.heading.degrees) * Math.PI) / 180;
  const { ends, sides } = edgeBands(mainland, dir);
  const zones = {} as Record<Zone, number>;
  const zonePolys: Record<Zone, PathsD> = {
    skipped: skippedSwath,
    narrow,
    band,
    ends: intersectPolygons(mainland, ends),
    sides: intersectPolygons(mainland, sides),
    inner: mainland,
  };
  for (const z of ZONES) {
    const zp = zonePolys[z];
    if (zp.length === 0) {
      zones[z] = 0;
      continue;
    }
    zones[z] = areaOf(intersectPolygons(left, zp));
    left = differencePolygons(left, zp);
  }
  if (svgDir)
    writeFileSync(
      `${svgDir}/${id}.svg`,
      drawSvg(
        f.field,
        unionPolygons(all),
        differencePolygons(f.workable, unionPolygons(all)),
        worked.map((p) => p.xy),
      ),
    );
  // Whatever no zone took (numerical slivers) goes to inner.
  zones.inner += Math.max(0, areaOf(left));
  const wa = plan.metrics.workableAreaSquareMeters;
  results.push({
    id,
    category: r[8],
    uncoveredRatio: plan.metrics.uncoveredRatio,
    overlapRatio: plan.metrics.overlapRatio,
    skippedPasses: skipped.length,
    zones,
  });
  const pct = (v: number): string => ((100 * v) / wa).toFixed(2).padStart(6);
  console.log(
    `${id.padEnd(18)} unc ${(100 * plan.metrics.uncoveredRatio).toFixed(2).padStart(6)}% (zones ${pct(total)}) ovl ${(100 * plan.metrics.overlapRatio).toFixed(2).padStart(5)}% skipped ${skipped.length} | ${ZONES.map((z) => `${z} ${pct(zones[z])}`).join(' ')}`,
  );
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
console.log(
  `\n${results.length} fields: median uncovered ${(100 * median(results.map((x) => x.uncoveredRatio))).toFixed(3)} %, median overlap ${(100 * median(results.map((x) => x.overlapRatio))).toFixed(3)} %`,
);
console.log('zone: median share of the workable area, and fields where it is the largest zone');
for (const z of ZONES) {
  const ratios = results.map((x) => {
    const t = ZONES.reduce((a, k) => a + x.zones[k], 0);
    return t > 0 ? (x.uncoveredRatio * x.zones[z]) / t : 0;
  });
  const top = results.filter((x) => ZONES.every((k) => x.zones[k] <= x.zones[z])).length;
  console.log(`${z.padEnd(8)} median ${(100 * median(ratios)).toFixed(3)} %  largest in ${top} fields`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 1));
