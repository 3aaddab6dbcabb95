/**
 * Coverage: the swaths are the working passes buffered by half the width (flat ends, round
 * joins), united with Clipper2 (exact on touching edges of adjacent swaths, where GEOS once
 * truncated the union). overlap = Σ swath areas − area of their union (area worked more than
 * once, counted once per extra pass); uncovered = workable area − covered part of it.
 *
 * Speed: the sweep of the union visits the scanbeams (y = const) and, in each, every edge crossing
 * it; parallel tracks across the sweep put hundreds of edges in every scanbeam. So everything is
 * first turned so that the passes' main direction (most worked length) lies along x, where a
 * scanbeam crosses only the tracks at its height (areas do not change under rotation); and
 * two-point passes (straight tracks) become their rectangles directly, not through the offsetter.
 */
import { PRECISION, areaOf, bufferPolylines, flatToPath, intersectPolygons, unionPolygons } from './clipper.js';
import type { PathsD } from './clipper.js';
import { hypot } from './vec.js';
import { boundPasses, withoutSpikes } from './coverageGuard.js';

export interface WorkingPass {
  /** Flat xy polyline in the local frame. Closed rings repeat their first point at the end. */
  xy: ArrayLike<number>;
  widthMeters: number;
}

export interface Coverage {
  workableAreaSquareMeters: number;
  coveredSquareMeters: number;
  overlapSquareMeters: number;
  uncoveredSquareMeters: number;
  overlapRatio: number;
  uncoveredRatio: number;
  /** Set when the metric had to simplify its input (geometry/coverageGuard.ts): what it did. */
  approximation?: string;
}

function isClosed(xy: ArrayLike<number>): boolean {
  const n = xy.length;
  return n >= 8 && Math.abs(xy[0] - xy[n - 2]) < 1e-9 && Math.abs(xy[1] - xy[n - 1]) < 1e-9;
}

/** The swath polygons of the passes (one set per pass). */
export function swathsOf(passes: WorkingPass[]): PathsD[] {
  const out: PathsD[] = [];
  for (const p of passes) {
    if (p.xy.length < 4) continue;
    const closed = isClosed(p.xy);
    const path = flatToPath(closed ? Array.prototype.slice.call(p.xy, 0, p.xy.length - 2) : p.xy);
    out.push(bufferPolylines([path], p.widthMeters / 2, closed));
  }
  return out;
}

/**
 * Direction (radians, [0, π)) with the most length of straight two-point passes (tracks), to the
 * nearest 1e-6 rad; 0 without any.
 */
export function mainPassDirection(passes: WorkingPass[]): number {
  const lengthByKey = new Map<number, number>();
  let best = 0, bestLength = 0;
  for (const p of passes) {
    if (p.xy.length !== 4) continue;
    const dx = p.xy[2] - p.xy[0], dy = p.xy[3] - p.xy[1];
    const l = hypot(dx, dy);
    if (!(l > 0)) continue;
    let a = Math.atan2(dy, dx);
    if (a < 0) a += Math.PI;
    if (a >= Math.PI) a -= Math.PI;
    const key = Math.round(a * 1e6);
    const total = (lengthByKey.get(key) ?? 0) + l;
    lengthByKey.set(key, total);
    if (total > bestLength) { bestLength = total; best = key / 1e6; }
  }
  return best;
}

/** The swath of a straight pass (x0, y0) → (x1, y1), counter-clockwise: its rectangle. */
export function rectangleSwath(x0: number, y0: number, x1: number, y1: number, halfWidthMeters: number): PathsD {
  const l = hypot(x1 - x0, y1 - y0);
  const nx = (-(y1 - y0) / l) * halfWidthMeters, ny = ((x1 - x0) / l) * halfWidthMeters;
  return [[{ x: x0 - nx, y: y0 - ny }, { x: x1 - nx, y: y1 - ny }, { x: x1 + nx, y: y1 + ny }, { x: x0 + nx, y: y0 + ny }]];
}

export function computeCoverage(workable: PathsD, allPasses: WorkingPass[]): Coverage {
  const workableArea = areaOf(workable);
  const bounded = boundPasses(allPasses);
  const passes = bounded.passes;
  // Turn by −θ (θ the main pass direction): x' = x cos θ + y sin θ, y' = −x sin θ + y cos θ.
  const theta = mainPassDirection(passes);
  const c = Math.cos(theta), s = Math.sin(theta);
  const turned = theta !== 0;
  const turnedWorkable: PathsD = turned ? workable.map((r) => r.map((p) => ({ x: p.x * c + p.y * s, y: -p.x * s + p.y * c }))) : workable;
  let sum = 0;
  const all: PathsD = [];
  for (const p of passes) {
    const n = p.xy.length;
    if (n < 4) continue;
    let xy: ArrayLike<number> = p.xy;
    if (turned) {
      const t = new Float64Array(n);
      for (let i = 0; i < n; i += 2) {
        const x = p.xy[i], y = p.xy[i + 1];
        t[i] = x * c + y * s;
        t[i + 1] = -x * s + y * c;
      }
      xy = t;
    }
    const swath = n === 4 && (xy[0] !== xy[2] || xy[1] !== xy[3]) ? rectangleSwath(xy[0], xy[1], xy[2], xy[3], p.widthMeters / 2) : swathsOf([{ xy, widthMeters: p.widthMeters }])[0] ?? [];
    sum += areaOf(swath);
    for (const r of swath) all.push(r);
  }
  // Every ring into a boolean without spikes (geometry/coverageGuard.ts): the union is rounded to 2 decimals.
  const union = all.length > 0 ? withoutSpikes(unionPolygons(withoutSpikes(all, PRECISION)), 2) : [];
  const unionArea = areaOf(union);
  const covered = union.length > 0 ? areaOf(intersectPolygons(union, withoutSpikes(turnedWorkable, PRECISION))) : 0;
  const overlap = Math.max(0, sum - unionArea);
  const uncovered = Math.max(0, workableArea - covered);
  return {
    workableAreaSquareMeters: workableArea,
    coveredSquareMeters: covered,
    overlapSquareMeters: overlap,
    uncoveredSquareMeters: uncovered,
    overlapRatio: workableArea > 0 ? overlap / workableArea : 0,
    uncoveredRatio: workableArea > 0 ? uncovered / workableArea : 0,
    ...(bounded.approximation ? { approximation: bounded.approximation } : {}),
  };
}
