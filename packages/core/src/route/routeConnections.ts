/**
 * The connections of one planning (route/routeTracks.ts): made while costing, looked up when the route is put
 * together, refitted with the tracks shortened where nothing fits, all within counted budgets.
 */
import { polylineLength } from '../geometry/vec.js';
import type { Region } from '../geometry/region.js';
import type { LocalSegment, LocalWarning, Piece } from '../turns/path.js';
import { withStagingLegs } from '../refill/routeExtras.js';
import type { LegRouter } from '../refill/legs.js';
import { connectTracks, trackPieces } from './connectTracks.js';
import type { LengthBudget, RouteContext, ShorteningBudget } from './connectTracks.js';
import { tightestBendRatio } from './order/fieldOrder.js';
import type { ConnectorCost, RealCostModel } from './order/connectedOrder.js';
import type { ObjectiveRates } from './optimize/objective.js';
import type { RouteBudget } from './budget.js';
import type { RouteStageInput } from './routeStageInput.js';

/** A connection as made: its segments and warnings. */
export type Parts = { segs: LocalSegment[]; warnings: LocalWarning[] };
/** A connection not made (out of budget): counts as a join nothing fits. */
export const UNJOINED: Parts = {
  segs: [{ type: 'Connector', xy: new Float64Array(0), connector: 'unfitted' }],
  warnings: [],
};
/** What the wall-clock cap cuts here (the `time-limit` warning). */
const CUT_REFIT = 'joins nothing fitted were not tried again with the tracks shortened';
const CUT_NEW_CONNECTIONS = 'no track was taken out of the route for a join not costed before it';
/** Connections `skipUnjoinable` may make beyond the ordering's, per planning. */
const MAX_NEW_CONNECTIONS = 48;
/** Connections the last resort for joins still not fitted (`dropUnjoinable`) may make, per planning. */
const MAX_LAST_RESORT_CONNECTIONS = 64;
/**
 * Connections re-ordering the route round a join that taking tracks out does not mend (`relinkUnjoinable`) may make,
 * per planning.
 */
const MAX_RELINK_CONNECTIONS = 64;
/**
 * Counted work (Region.work units) after which a link tried instead of the route's own (by either of
 * the two above) is given up as not fitting: on sk-083 and it-tus-033 (W 3 m, R 12 m) every such link
 * that fits is found within 2.2 × 10⁵, one that does not searches 3-5 × 10⁶ before it says so.
 */
const TRIED_LINK_WORK_UNITS = 1_000_000;

export function unfitted(r: Parts): boolean {
  return r.segs.some((sg) => sg.connector === 'unfitted');
}

type Lookup = (store: Map<number, Parts>, key: number, make: (abort?: () => boolean) => void) => Parts | undefined;

/** A connection's cost at the objective's rates, and its defects: its warnings and each join too tight or outside. */
function connectorCostOf(
  segs: LocalSegment[],
  warningCount: number,
  rates: ObjectiveRates,
  R: number,
  region: Region,
): { cost: number; defects: number } {
  let cost = 0;
  let defects = warningCount;
  for (const s of segs) {
    if (s.type !== 'Turn' && s.type !== 'Connector') continue;
    cost += polylineLength(s.xy) * (s.connector === 'staging' ? rates.transportPerMeter : rates.turningPerMeter);
    if (
      s.connector !== 'staging' &&
      s.connector !== 'unfitted' &&
      s.connector !== 'transport' &&
      (tightestBendRatio(s.xy, R) > 1.05 || !region.containsPolyline(s.xy))
    )
      defects++;
  }
  return { cost, defects };
}

type ConnectPieces = (
  p: Piece[],
  legIn: boolean,
  legOut: boolean,
  abort?: () => boolean,
  shortenUnfitted?: ShorteningBudget,
  lengthBudget?: LengthBudget,
) => Parts & { aborted?: boolean };

/** Connects pieces in order, with the staging legs in and out where asked, on a context of their own. */
function piecesConnector(
  ctx: RouteContext,
  staging: [number, number] | undefined,
  legRouter: LegRouter,
): ConnectPieces {
  const stagingLeg = (xy: Float64Array): LocalSegment => ({ type: 'Connector', xy, connector: 'staging' });
  return (p, legIn, legOut, abort, shortenUnfitted, lengthBudget) => {
    // a connection under a length budget stops where it is spent, as at the caller's deadline
    const stop = lengthBudget ? (): boolean => lengthBudget.spent || (abort?.() ?? false) : abort;
    const c: RouteContext = {
      ...ctx,
      warnings: [],
      ...(stop ? { abort: stop } : {}),
      ...(shortenUnfitted ? { shortenUnfitted } : {}),
      ...(lengthBudget ? { lengthBudget } : {}),
    };
    let segs = connectTracks(p, c);
    if (staging && (legIn || legOut))
      segs = withStagingLegs(segs, staging, stagingLeg, { legIn, legOut, router: legRouter });
    return { segs, warnings: c.warnings, ...(c.aborted ? { aborted: true } : {}) };
  };
}

/**
 * A connection costed for the ordering, kept (`keep`) where it was made in full: one the ordering's deadline cut
 * short (`abort`) is neither kept nor its cost trusted; one that would cost more than `maxCost` (a link: its turns
 * and connectors at the turning rate, under that length budget) is `over`, its defect counted where a join of it
 * fitted nothing. A connection made in full is kept at its cost, over the budget or not.
 */
function costedConnection(
  connectPieces: ConnectPieces,
  connectorCost: (segs: LocalSegment[], warningCount: number) => { cost: number; defects: number },
  rates: ObjectiveRates,
) {
  return (
    p: Piece[],
    legIn: boolean,
    legOut: boolean,
    keep: (r: Parts) => void,
    abort?: () => boolean,
    maxCost = Infinity,
  ): ConnectorCost => {
    const budget: LengthBudget | undefined =
      maxCost < Infinity ? { leftMeters: maxCost / rates.turningPerMeter, spent: false } : undefined;
    const r = connectPieces(p, legIn, legOut, abort, undefined, budget);
    if (r.aborted && budget?.spent) return { cost: maxCost, defects: budget.unfitted ? 1 : 0, over: true };
    if (r.aborted) return { ...connectorCost(r.segs, r.warnings.length), aborted: true };
    keep(r);
    return connectorCost(r.segs, r.warnings.length);
  };
}

/**
 * A connection where nothing fits, connected again with the tracks shortened (within the refit budget) and
 * kept in `store` where that fits. Connections tried again in vain are not tried a third time
 * (skipUnjoinable and assembleRoute ask twice).
 */
function refitter(inp: RouteStageInput, budget: RouteBudget, connectPieces: ConnectPieces) {
  const refitFailed = new Map<Map<number, Parts>, Set<number>>();
  return (
    store: Map<number, Parts>,
    key: number,
    r: Parts | undefined,
    pieces: () => Piece[],
    legIn: boolean,
    legOut: boolean,
  ): Parts | undefined => {
    if (!r || r === UNJOINED || !unfitted(r)) return r;
    let failed = refitFailed.get(store);
    if (!failed) refitFailed.set(store, (failed = new Set()));
    if (failed.has(key) || budget.refitExhausted() || inp.hurry?.(CUT_REFIT)) return r;
    failed.add(key);
    const again = connectPieces(pieces(), legIn, legOut, undefined, budget.shortening);
    if (again.aborted || unfitted(again)) return r;
    store.set(key, again);
    return again;
  };
}

/**
 * Choosing which tracks to take out makes connections the ordering did not: within the refit
 * budget (and at most MAX_NEW_CONNECTIONS of them); one it does not reach counts as not fitting,
 * so no track is taken out on its account.
 */
function withinRefitBudget(inp: RouteStageInput, budget: RouteBudget, costMore: boolean): Lookup {
  let newConnectionsLeft = MAX_NEW_CONNECTIONS;
  return (store, key, make) => {
    const have = store.get(key);
    if (have || !costMore) return have;
    if (inp.hurry?.(CUT_NEW_CONNECTIONS)) return UNJOINED;
    budget.startRefitClock();
    if (budget.refitExhausted() || newConnectionsLeft <= 0) return UNJOINED;
    newConnectionsLeft--;
    make(budget.shortening.over);
    return store.get(key) ?? UNJOINED;
  };
}

/**
 * The last resort (`dropUnjoinable`) makes the connections it needs, a counted number of them,
 * unless the wall-clock cap has fired; re-ordering round a join that taking tracks out does not
 * mend (`relinkUnjoinable`) makes its own, counted apart. A link either tries is given up after
 * a counted amount of work (remembered as not fitting, not tried again); heads and tails (the
 * headland passes driven) are not.
 */
function countedLookup(limit: number, inp: RouteStageInput, ctx: RouteContext, linkParts: Map<number, Parts>): Lookup {
  let left = limit;
  const given = new Map<Map<number, Parts>, Set<number>>();
  return (store, key, make) => {
    const have = store.get(key);
    if (have) return have;
    if (given.get(store)?.has(key) || left <= 0 || inp.outOfTime?.()) return UNJOINED;
    left--;
    const until = ctx.region.work + TRIED_LINK_WORK_UNITS;
    make(store === linkParts ? () => ctx.region.work > until : undefined);
    const made = store.get(key);
    if (made) return made;
    let gave = given.get(store);
    if (!gave) given.set(store, (gave = new Set()));
    gave.add(key);
    return UNJOINED;
  };
}

/**
 * The connections of one planning: made while costing (`model`, each kept), looked up when the
 * route is put together (`partsVia`), refitted with the tracks shortened where nothing fits, all
 * within the refit budget.
 */
export function connections(
  inp: RouteStageInput,
  ctx: RouteContext,
  rates: ObjectiveRates,
  staging: [number, number] | undefined,
  legRouter: LegRouter,
  budget: RouteBudget,
  costMore: boolean,
) {
  const { tracks, cellOf } = inp;
  const headlandsFirst = inp.routeOptions.headlandsFirst;
  const R = inp.machine.turnRadiusMeters;
  const headlandPieces = inp.headlandRoute.pieces;
  const connectorCost = (segs: LocalSegment[], warningCount: number): { cost: number; defects: number } =>
    connectorCostOf(segs, warningCount, rates, R, ctx.region);
  const connectPieces = piecesConnector(ctx, staging, legRouter);
  const costOf = costedConnection(connectPieces, connectorCost, rates);
  /** The track of end `e` as a piece driven so that it leaves through `e` (exit) or enters through it. */
  const pieceAt = (e: number, entering: boolean): Piece =>
    trackPieces(tracks, [{ trackIndex: e >> 1, forward: entering ? (e & 1) === 0 : (e & 1) === 1 }], cellOf)[0];
  const linkParts = new Map<number, Parts>();
  const headParts = new Map<number, Parts>();
  const tailParts = new Map<number, Parts>();
  const endCount = 2 * tracks.length;
  // The pieces of a link (track end to track end), of the head (start to the first track) and of
  // the tail. No head (tail) is driven unless headland passes or a staging area come before (after)
  // the tracks.
  const linkPieces = (a: number, b: number): Piece[] => [pieceAt(a, false), pieceAt(b, true)];
  const headPieces = (e: number): Piece[] =>
    headlandsFirst ? [...headlandPieces, pieceAt(e, true)] : [pieceAt(e, true)];
  const tailPieces = (e: number): Piece[] =>
    headlandsFirst ? [pieceAt(e, false)] : [pieceAt(e, false), ...headlandPieces];
  const drivesHead = headlandsFirst || staging !== undefined;
  const drivesTail = !headlandsFirst || staging !== undefined;
  // Connections made while ordering get the deadline (`abort`): a connector search still running
  // at maxOptimizerTime gives up there, so the limit is hard (route/order/connectedOrder.ts).
  const model: RealCostModel = {
    link: (a, b, abort, maxCost) =>
      costOf(linkPieces(a, b), false, false, (r) => linkParts.set(a * endCount + b, r), abort, maxCost),
    head: (e, abort) =>
      drivesHead ? costOf(headPieces(e), true, false, (r) => headParts.set(e, r), abort) : { cost: 0, defects: 0 },
    tail: (e, abort) =>
      drivesTail ? costOf(tailPieces(e), false, true, (r) => tailParts.set(e, r), abort) : { cost: 0, defects: 0 },
  };
  const refit = refitter(inp, budget, connectPieces);
  // A connection as kept, or made by `make` (which stores it) where `lookup` decides to; refitted
  // where it does not fit.
  const partsVia = (lookup: Lookup) => ({
    link: (a: number, b: number): Parts | undefined =>
      refit(
        linkParts,
        a * endCount + b,
        lookup(linkParts, a * endCount + b, (abort) => model.link(a, b, abort)),
        () => linkPieces(a, b),
        false,
        false,
      ),
    head: (e: number): Parts | undefined =>
      drivesHead
        ? refit(
            headParts,
            e,
            lookup(headParts, e, (abort) => model.head(e, abort)),
            () => headPieces(e),
            true,
            false,
          )
        : undefined,
    tail: (e: number): Parts | undefined =>
      drivesTail
        ? refit(
            tailParts,
            e,
            lookup(tailParts, e, (abort) => model.tail(e, abort)),
            () => tailPieces(e),
            false,
            true,
          )
        : undefined,
  });
  const reuse: Lookup = (store, key, make) => store.get(key) ?? (costMore ? (make(), store.get(key)) : undefined);
  const within = withinRefitBudget(inp, budget, costMore);
  const lastResort = countedLookup(MAX_LAST_RESORT_CONNECTIONS, inp, ctx, linkParts);
  const relink = countedLookup(MAX_RELINK_CONNECTIONS, inp, ctx, linkParts);
  return { model, partsVia, reuse, within, lastResort, relink, connectPieces, costMore, shortening: budget.shortening };
}
