/**
 * The plan's `unworked-area` warnings: every patch the route leaves unworked that is over 1 % of
 * the field or over 100 m² (geometry/unworked.ts `patchThreshold`), with its area and a point
 * inside it, largest first. At most `MAX_LISTED` are listed one by one; the rest are summed up in
 * one more warning.
 */
import { patchThreshold, unworkedPatches } from '../geometry/unworked.js';
import type { SwathPass, UnworkedPatch } from '../geometry/unworked.js';
import { segmentDistance } from '../geometry/region.js';
import type { SweptPasses } from '../geometry/computeCoverage.js';
import type { PathsD } from '../geometry/clipper.js';
import type { PlanWarning, Position } from '../types.js';

export const MAX_LISTED_PATCHES = 100;

/**
 * Bends of the field no pass of the machine gets past (centre-line passes cut there:
 * tracks/centreLinePieces.ts), flat xy, and the reach of its boom beyond such a point.
 */
export interface TightBends {
  xy: readonly number[];
  turnRadiusMeters: number;
  /** A patch this near a tight bend lies behind it, m (half the boom and a little). */
  reachMeters: number;
}

/** Why nothing reaches a patch, in words a user reads. */
function whyLeft(
  p: UnworkedPatch,
  workable: PathsD,
  bends: TightBends | undefined,
  toLonLat: (x: number, y: number) => Position,
): string {
  const at = bends && nearestBend(p, bends);
  if (!bends || !at || !shutBehind(p, workable, bends)) return 'no pass of the machine reaches it';
  const [lon, lat] = toLonLat(at[0], at[1]).map((v) => Math.round(v * 1e6) / 1e6);
  const R = Math.round(bends.turnRadiusMeters * 10) / 10;
  return (
    `no pass with turning radius ${R} m can enter it: the field bends more tightly than a ${R} m turn ` +
    `fits inside it at ${lon}, ${lat}`
  );
}

/** A patch's edge this near the field's is the field's edge, m. */
const ON_EDGE_METERS = 0.3;

/**
 * Whether the patch lies shut in behind tight bends: wherever its edge is not the field's (where
 * worked ground or the rest of the field adjoins it), a tight bend is within reach. Where it also
 * adjoins ground away from every such bend, a pass might come in from there: not said.
 */
function shutBehind(p: UnworkedPatch, workable: PathsD, bends: TightBends): boolean {
  for (const r of p.rings)
    for (const q of r) {
      if (distanceToRings(q.x, q.y, workable, ON_EDGE_METERS) <= ON_EDGE_METERS) continue;
      let near = false;
      for (let i = 0; i + 1 < bends.xy.length && !near; i += 2)
        near = Math.hypot(q.x - bends.xy[i], q.y - bends.xy[i + 1]) <= bends.reachMeters;
      if (!near) return false;
    }
  return true;
}

/** Distance from (x, y) to the rings' edges, or any value at most `enough` once one is known to be. */
function distanceToRings(x: number, y: number, rings: PathsD, enough: number): number {
  let best = Infinity;
  for (const r of rings)
    for (let k = 0, j = r.length - 1; k < r.length; j = k++) {
      const d = segmentDistance(x, y, r[j].x, r[j].y, r[k].x, r[k].y);
      if (d < best) best = d;
      if (best <= enough) return best;
    }
  return best;
}

/** The tight bend within reach of the patch (nearest first), if any. */
function nearestBend(p: UnworkedPatch, bends: TightBends): [number, number] | undefined {
  let best: [number, number] | undefined,
    bestD = bends.reachMeters;
  for (let i = 0; i + 1 < bends.xy.length; i += 2) {
    const x = bends.xy[i],
      y = bends.xy[i + 1];
    for (const r of p.rings)
      for (let k = 0, j = r.length - 1; k < r.length; j = k++) {
        const d = segmentDistance(x, y, r[j].x, r[j].y, r[k].x, r[k].y);
        if (d <= bestD) [best, bestD] = [[x, y], d];
      }
  }
  return best;
}

export function unworkedWarnings(
  workable: PathsD,
  passes: SwathPass[] | SweptPasses,
  fieldAreaSquareMeters: number,
  toLonLat: (x: number, y: number) => Position,
  bends?: TightBends,
): PlanWarning[] {
  const patches = unworkedPatches(workable, passes, patchThreshold(fieldAreaSquareMeters));
  const out: PlanWarning[] = [];
  const share = (a: number): string =>
    fieldAreaSquareMeters > 0 ? ((100 * a) / fieldAreaSquareMeters).toFixed(1) : '0';
  for (const p of patches.slice(0, MAX_LISTED_PATCHES)) {
    const at = toLonLat(p.x, p.y);
    const where: Position = [Math.round(at[0] * 1e7) / 1e7, Math.round(at[1] * 1e7) / 1e7];
    out.push({
      code: 'unworked-area',
      message:
        `${Math.round(p.areaSquareMeters)} m² (${share(p.areaSquareMeters)} % of the field) is left ` +
        `unworked around ${where[0]}, ${where[1]} (lon, lat): ${whyLeft(p, workable, bends, toLonLat)}`,
      geometry: { type: 'Point', coordinates: where },
      areaSquareMeters: Math.round(p.areaSquareMeters * 10) / 10,
    } as PlanWarning);
  }
  const rest = patches.slice(MAX_LISTED_PATCHES);
  if (rest.length > 0) {
    const a = rest.reduce((s, p) => s + p.areaSquareMeters, 0);
    out.push({
      code: 'unworked-area',
      message:
        `${rest.length} more unworked patches (${Math.round(a)} m², ${share(a)} % of the field), each ` +
        `smaller than those listed`,
    });
  }
  return out;
}
