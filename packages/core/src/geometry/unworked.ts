/**
 * What working passes leave unworked: the workable ground minus their swaths (each pass
 * buffered by half its own width, flat ends, round joins), in patches, each with a point inside
 * it. Used before routing (strip passes, tracks/strips.ts) and on the route (the plan's
 * `unworked-area` warnings).
 */
import { areaOf, groupPolygons, offsetPolygons } from './clipper.js';
import type { PathsD } from './clipper.js';
import { sweepPasses } from './computeCoverage.js';
import type { SweptPasses, WorkingPass } from './computeCoverage.js';
import { sortAscending } from './vec.js';

/** A working pass: flat xy polyline (closed rings repeat their first point) and its working width. */
export type SwathPass = WorkingPass;

/** Leftovers thinner than this are hairlines between touching swaths, not ground to work, m. */
const HAIRLINE_METERS = 0.05;
/** A patch is warned about from this area, m², or this share of the field if smaller. */
export const PATCH_WARNING_SQUARE_METERS = 100;
export const PATCH_WARNING_SHARE = 0.01;

/** Smallest unworked patch the plan lists: over 1 % of the field or 100 m², whichever is less. */
export function patchThreshold(fieldAreaSquareMeters: number): number {
  return Math.min(PATCH_WARNING_SQUARE_METERS, PATCH_WARNING_SHARE * fieldAreaSquareMeters);
}

/** One unworked patch: its polygon (shell + holes), area and a point inside it. */
export interface UnworkedPatch {
  rings: PathsD;
  areaSquareMeters: number;
  x: number;
  y: number;
}

/** The workable ground the passes leave unworked, as patches of at least `minArea` m², largest first. */
export function unworkedPatches(workable: PathsD, passes: SwathPass[] | SweptPasses, minArea: number): UnworkedPatch[] {
  // In the sweep frame of the swaths' union (geometry/swaths.ts), the patches turned back.
  const swept = Array.isArray(passes) ? sweepPasses(workable, passes) : passes;
  // Opening by a hairline drops the slivers left between exactly adjacent swaths.
  // (only the pieces big enough to matter: the opening is the costly part)
  const big: PathsD = [];
  for (const piece of swept.left) if (areaOf(piece) >= minArea) for (const r of piece) big.push(r);
  const opened = big.length > 0 ? offsetPolygons(offsetPolygons(big, -HAIRLINE_METERS), HAIRLINE_METERS) : [];
  const out: UnworkedPatch[] = [];
  for (const rings of groupPolygons(opened)) {
    const a = areaOf(rings);
    if (!(a >= minArea)) continue;
    const back = rings.map((r) => r.map((p) => swept.back(p.x, p.y)));
    const p = pointInside(back);
    out.push({ rings: back, areaSquareMeters: a, x: p.x, y: p.y });
  }
  return out.sort((p, q) => q.areaSquareMeters - p.areaSquareMeters);
}

/**
 * A point well inside a polygon (shell + holes): the middle of the longest scanline piece
 * through the centroid's height, or, if the centroid's height is a degenerate line, of the
 * longest piece among a few heights.
 */
export function pointInside(rings: PathsD): { x: number; y: number } {
  let minY = Infinity,
    maxY = -Infinity,
    cx = 0,
    cy = 0,
    a2 = 0;
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const p = r[j],
        q = r[i];
      const cross = p.x * q.y - q.x * p.y;
      a2 += cross;
      cx += (p.x + q.x) * cross;
      cy += (p.y + q.y) * cross;
      if (q.y < minY) minY = q.y;
      if (q.y > maxY) maxY = q.y;
    }
  }
  const centroidY = a2 !== 0 ? cy / (3 * a2) : (minY + maxY) / 2;
  let best = { x: a2 !== 0 ? cx / (3 * a2) : 0, y: centroidY },
    bestLength = -1;
  for (const y of [centroidY, minY + 0.25 * (maxY - minY), minY + 0.5 * (maxY - minY), minY + 0.75 * (maxY - minY)]) {
    const xs = crossingsAt(rings, y);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      if (xs[k + 1] - xs[k] > bestLength) {
        bestLength = xs[k + 1] - xs[k];
        best = { x: (xs[k] + xs[k + 1]) / 2, y };
      }
    }
    if (bestLength > 0 && y === centroidY) break;
  }
  return best;
}

/** Sorted x of the crossings of the horizontal line at `y` with the rings' edges (half-open in y). */
function crossingsAt(rings: PathsD, y: number): number[] {
  const xs: number[] = [];
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const p = r[j],
        q = r[i];
      if (p.y > y !== q.y > y) xs.push(p.x + ((y - p.y) * (q.x - p.x)) / (q.y - p.y));
    }
  }
  return sortAscending(xs);
}
