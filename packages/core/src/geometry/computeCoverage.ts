/**
 * Coverage: the swaths are the working passes buffered by half the width (flat ends, round
 * joins), united with Clipper2 (exact on touching edges of adjacent swaths, where GEOS once
 * truncated the union). overlap = Σ swath areas − area of their union (area worked more than
 * once, counted once per extra pass); uncovered = workable area − covered part of it.
 *
 * The swaths are built and turned for a cheap sweep in geometry/swaths.ts; they are united curved
 * first, then with the tracks' rectangles, without the hairline holes between headland passes
 * (geometry/swathUnion.ts); what the union leaves of the ground is cut without sweeping those holes
 * again in geometry/groundLeft.ts. The headland passes' swaths and their union are drawn once a call:
 * the route's passes are the planned rings driven from their junctions (`sameRingAs`).
 *
 * A dense (GPS-logged) boundary is measured against as simplified (geometry/simplifyBoundary.ts):
 * its jitter left thousands of hairline pieces between the outermost swath's edge and the logged
 * line, every one of them a sweep's work. What that moves is bounded: no point of the simplified
 * ring is further than its tolerance t from the real one (Ramer–Douglas–Peucker, then a centimetre
 * grid, both in `simplificationTolerance`), so the area between the two boundaries — all that
 * uncovered can gain or lose, the workable area itself being the real one — is at most
 * perimeter × t (`groundErrorSquareMeters`; on the 5,000-vertex wobbly 100 ha field 4.18 km ×
 * 0.21 m ≈ 880 m², 0.09 % of it; the area actually between them is 245 m²). Only where that bound
 * is at most MAX_GROUND_ERROR_SHARE of the workable area: a thin logged field (a long strip has
 * much boundary for its area) is measured against its real boundary. Overlap (the swaths against
 * each other) does not see the boundary. A boundary that is not dense (the corpus) is measured
 * against as it is.
 */
import { areaOf, unionPolygons } from './clipper.js';
import { unionSwaths } from './swathUnion.js';
import { groundLeft } from './groundLeft.js';
import type { PathsD } from './clipper.js';
import { curvedUnionOnce, passSwath, turnedSwaths } from './swaths.js';
import type { TurnedSwaths, WorkingPass } from './swaths.js';
import { MAX_PASS_VERTICES, boundPasses, withoutSpikes } from './coverageGuard.js';
import { perimeterOf, simplificationTolerance, simplifyBoundary } from './simplifyBoundary.js';

export type { WorkingPass } from './swaths.js';
export { mainPassDirection, rectangleSwath } from './swaths.js';

export interface Coverage {
  workableAreaSquareMeters: number;
  coveredSquareMeters: number;
  overlapSquareMeters: number;
  uncoveredSquareMeters: number;
  overlapRatio: number;
  uncoveredRatio: number;
  /** Set when the metric had to simplify its input (geometry/coverageGuard.ts): what it did. */
  approximation?: string;
  /**
   * How far uncovered may be off for a dense boundary measured simplified, m² (0: measured on the boundary as it is).
   */
  groundErrorSquareMeters: number;
}

/** The swath polygons of the passes (one set per pass), in their own frame. */
export function swathsOf(passes: WorkingPass[]): PathsD[] {
  const out: PathsD[] = [];
  for (const p of passes) if (p.xy.length >= 4) out.push(passSwath(p.xy, p.widthMeters));
  return out;
}

/** The passes' swaths and their union, in the sweep frame, with what the workable ground is there. */
export interface SweptPasses extends TurnedSwaths {
  /** The union of the swaths (sweep frame). */
  union: PathsD;
  /** What of the workable ground the swaths leave, one entry per polygon (shell first; sweep frame). */
  left: PathsD[];
  /** The workable ground measured against: the workable field, simplified where dense (local frame). */
  ground: PathsD;
  /** Area between `ground` and the workable field at most, m² (0 when they are the same). */
  groundErrorSquareMeters: number;
  /** Set when the passes were simplified first (geometry/coverageGuard.ts). */
  approximation?: string;
}

/**
 * The swaths of `allPasses` (bounded by the coverage guard), their union and the workable ground
 * they leave, in the sweep frame (geometry/swaths.ts): what the coverage metric and the unworked
 * patches (geometry/unworked.ts) both measure. Every ring goes into a boolean without spikes
 * (geometry/coverageGuard.ts). The booleans are on a grid of COVERAGE_PRECISION decimals: the
 * sweep frame is tilted off the tracks, and on a coarser grid a tilted track's long edges gain or
 * lose square centimetres (decimetres² on Clipper's default of 2).
 */
/** Decimals of the coverage booleans' grid (a micrometre). */
export const COVERAGE_PRECISION = 6;

/**
 * Largest share of the workable area uncovered may be off by when measured against the simplified
 * boundary (half the plan check's tolerance on the coverage ratios, 0.002).
 */
export const MAX_GROUND_ERROR_SHARE = 0.001;

/**
 * The ground uncovered is measured against: the simplified field where dense and its bound small enough, else the
 * field.
 */
function groundOf(workable: PathsD): { ground: PathsD; groundErrorSquareMeters: number } {
  const simple = simplifyBoundary(workable);
  if (simple === workable) return { ground: workable, groundErrorSquareMeters: 0 };
  const error = perimeterOf(workable) * simplificationTolerance(simple);
  return error <= MAX_GROUND_ERROR_SHARE * areaOf(workable)
    ? { ground: simple, groundErrorSquareMeters: error }
    : { ground: workable, groundErrorSquareMeters: 0 };
}

/** `maxPassVertices`: the coverage guard's bound on the curved passes' vertices (geometry/coverageGuard.ts). */
export function sweepPasses(
  workable: PathsD,
  allPasses: WorkingPass[],
  maxPassVertices = MAX_PASS_VERTICES,
): SweptPasses {
  const bounded = boundPasses(allPasses, maxPassVertices);
  const { ground, groundErrorSquareMeters } = groundOf(workable);
  const swaths = turnedSwaths(bounded.passes, ground);
  const P = COVERAGE_PRECISION;
  const turnedGround = withoutSpikes(
    ground.map((r) => r.map((p) => swaths.turn(p.x, p.y))),
    P,
  );
  // the curved swaths' union first, once per set of passes (the plannings and the route's metric share it)
  const curvedUnion = (): PathsD => curvedUnionOnce(swaths, P, () => unionPolygons(withoutSpikes(swaths.curved, P), P));
  const union = withoutSpikes(unionSwaths(curvedUnion, withoutSpikes(swaths.straight, P), P), P);
  const left = groundLeft(turnedGround, union, P);
  return {
    ...swaths,
    union,
    left,
    ground,
    groundErrorSquareMeters,
    ...(bounded.approximation ? { approximation: bounded.approximation } : {}),
  };
}

export function computeCoverage(workable: PathsD, passes: WorkingPass[] | SweptPasses): Coverage {
  const swept = Array.isArray(passes) ? sweepPasses(workable, passes) : passes;
  const workableArea = areaOf(workable);
  const unionArea = areaOf(swept.union);
  let left = 0;
  for (const piece of swept.left) left += areaOf(piece);
  const uncovered = Math.min(workableArea, Math.max(0, left));
  const covered = workableArea - uncovered;
  const overlap = Math.max(0, swept.areaSum - unionArea);
  return {
    workableAreaSquareMeters: workableArea,
    coveredSquareMeters: covered,
    overlapSquareMeters: overlap,
    uncoveredSquareMeters: uncovered,
    overlapRatio: workableArea > 0 ? overlap / workableArea : 0,
    uncoveredRatio: workableArea > 0 ? uncovered / workableArea : 0,
    groundErrorSquareMeters: swept.groundErrorSquareMeters,
    ...(swept.approximation ? { approximation: swept.approximation } : {}),
  };
}
