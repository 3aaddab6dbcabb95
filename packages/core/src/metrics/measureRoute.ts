/**
 * The metrics stage as the pipeline calls it: the route's metrics (computeMetrics.ts) with its
 * refill detours, and the `unworked-area` warnings (unworkedWarnings.ts).
 */
import type { PlanMetrics, PlanWarning } from '../types.js';
import type { LocalField } from '../geometry/prepareField.js';
import type { LocalSegment, LocalWarning } from '../turns/path.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import { addRefillMetrics, computeMetrics, workingPasses } from './computeMetrics.js';
import { sweepPasses } from '../geometry/computeCoverage.js';
import { activeSwath, bandsAlong } from '../geometry/activeSwath.js';
import type { PathsD } from '../geometry/clipper.js';
import { unworkedWarnings, type TightBends } from './unworkedWarnings.js';
import { unworkedPatches, type UnworkedPatch } from '../geometry/unworked.js';

export interface MeasuredRoute {
  metrics: PlanMetrics;
  /** Warnings of the metrics (`coverage-approximate`), local. */
  warnings: LocalWarning[];
  /**
   * Every unworked patch over 1 % of the field or 100 m², with its area and place: listed on first ask (a planning
   * another beats on its metrics never lists them).
   */
  unworked(): PlanWarning[];
  /** The ground the route leaves, in patches of at least `minArea` m², largest first (local frame). */
  leftOver(minArea: number): UnworkedPatch[];
}

/** What the wall-clock cap cuts here (the `time-limit` warning). */
const CUT_PATCHES = 'the unworked patches were not listed (the uncovered share is measured)';
/**
 * Past the cap, the coverage metric buffers at most this many vertices of curved passes (its warning
 * `coverage-approximate` says by how much it simplified them: on the 1,000 ha scale field, 5 passes
 * of 42,708 vertices, within 0.5 m; uncovered 0.089 % → 0.118 %, the metric's time about 0.6 of 10,000's).
 */
export const HURRIED_PASS_VERTICES = 2_000;
/**
 * A patch within half the boom and this share of R of a bend no pass gets past lies behind it (the
 * pass cut there ends up to about R short of the bend).
 */
const BEND_REACH_FACTOR_OF_R = 1;

/**
 * Metrics of the route `segments` over `tracks` (a strip pass has a width of its own). Past the
 * call's wall-clock cap (`hurry`, clock.ts) the coverage metric buffers fewer vertices and the unworked patches are not
 * listed.
 */
export function measureRoute(
  segments: LocalSegment[],
  tracks: readonly {
    widthMeters?: number;
    xy?: Float64Array;
    activeLeftMeters?: Float64Array;
    activeRightMeters?: Float64Array;
    tightBends?: number[];
  }[],
  field: LocalField,
  machine: ResolvedMachine,
  refills?: { points: unknown[]; detourMeters: number },
  hurry?: (what?: string) => boolean,
): MeasuredRoute {
  const w = machine.widthMeters;
  const widthOf = (sg: LocalSegment): number =>
    sg.type === 'Track' && sg.trackIndex !== undefined ? (tracks[sg.trackIndex]?.widthMeters ?? w) : w;
  // centre-line passes: the band of their active sections along the piece driven
  const swathOf = (sg: LocalSegment): PathsD | undefined => {
    const t = sg.type === 'Track' && sg.trackIndex !== undefined ? tracks[sg.trackIndex] : undefined;
    if (!t?.xy || !t.activeLeftMeters || !t.activeRightMeters) return undefined;
    const b = bandsAlong(sg.xy, t.xy, t.activeRightMeters, t.activeLeftMeters);
    return activeSwath(sg.xy, b.lo, b.hi);
  };
  const warnings: LocalWarning[] = [];
  // One sweep of the swaths serves the coverage metric and the unworked patches (geometry/computeCoverage.ts).
  const swept = sweepPasses(
    field.workable,
    workingPasses(segments, widthOf, swathOf),
    hurry?.() ? HURRIED_PASS_VERTICES : undefined,
  );
  const metrics = computeMetrics(
    segments,
    field.workable,
    field.fieldAreaSquareMeters,
    machine,
    warnings,
    widthOf,
    swept,
    swathOf,
  );
  if (refills) addRefillMetrics(metrics, refills.points.length, refills.detourMeters);
  let unworked: PlanWarning[] | undefined;
  const listUnworked = (): PlanWarning[] =>
    (unworked ??= hurry?.(CUT_PATCHES)
      ? []
      : unworkedWarnings(
          field.workable,
          swept,
          field.fieldAreaSquareMeters,
          (x, y) => field.frame.toLonLat(x, y),
          tightBendsOf(tracks, machine),
        ));
  // asked by each variant built on this planning (left-over, passes-between): made once per threshold
  const leftOverBy = new Map<number, UnworkedPatch[]>();
  const leftOver = (minArea: number): UnworkedPatch[] => {
    let patches = leftOverBy.get(minArea);
    if (!patches) leftOverBy.set(minArea, (patches = unworkedPatches(field.workable, swept, minArea)));
    return patches;
  };
  return { metrics, warnings, unworked: listUnworked, leftOver };
}

/** The bends no pass of radius R gets past, as the planning's centre-line passes found them. */
function tightBendsOf(tracks: readonly { tightBends?: number[] }[], machine: ResolvedMachine): TightBends | undefined {
  const xy: number[] = [];
  for (const t of tracks) if (t.tightBends) for (const v of t.tightBends) xy.push(v);
  if (xy.length === 0) return undefined;
  return {
    xy,
    turnRadiusMeters: machine.turnRadiusMeters,
    reachMeters: machine.widthMeters / 2 + BEND_REACH_FACTOR_OF_R * machine.turnRadiusMeters,
  };
}
