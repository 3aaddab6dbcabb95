/**
 * The headland passes driven between two of the route's tracks rather than after them. A field whose
 * tracks end in dead ends (arms narrower than a turn, a strip's centre-line pass running into a
 * tip) leaves the machine where no forward path reaches the passes after the last track, or where
 * none leads on from the passes into a dead end: driven between the track that leaves one dead end
 * and the one that goes into the other, the passes join both. Splits of the route's order are
 * connected as they stand (the searches counted on the route's work clock, a bounded number of
 * routes), and the one whose joins all fit with the least time at the objective's rates is kept. A split is
 * connected with a length budget (`RouteContext.lengthBudget`): once its turns and connectors cannot beat the best
 * split so far, even with every track and pass driven whole, or once a join of it fits nothing, it stops there.
 */
import { hypot, polylineLength } from '../geometry/vec.js';
import type { Piece } from '../turns/path.js';
import type { Track } from '../tracks/generateTracks.js';
import { trackPieces } from './connectTracks.js';
import type { LengthBudget, TrackVisit } from './connectContext.js';
import { unfitted, type Parts } from './routeConnections.js';
import type { ObjectiveRates } from './optimize/objective.js';
import { UNWORKED_RETURN_FACTOR } from '../objective.js';

/** Splits tried at most: the route's order is connected once per split, both ways round. */
export const MAX_PASSES_BETWEEN_SPLITS = 12;
/** Routes connected at most, splits with the tracks next to the passes turned round included. */
export const MAX_PASSES_BETWEEN_ROUTES = 32;

/**
 * The route with the passes between two of its tracks: the best split of the order, and of the order
 * driven backwards where its ends are `free` (no gate or end node asked for). Each split is tried as
 * it is, then with the track before the passes, the one after them, or both, turned round (a dead end
 * is left, or entered, the other way), at most `MAX_PASSES_BETWEEN_ROUTES` routes in all. Best is the
 * least time at the objective's rates: non-working metres driven, and working metres lost to
 * shortened tracks and passes left out, as ground to come back to. Undefined where no split joins all
 * its pieces.
 */
export function passesBetween(
  tracks: Track[],
  cellOf: Int32Array,
  visits: readonly TrackVisit[],
  headlandPieces: readonly Piece[],
  rates: ObjectiveRates,
  connect: (pieces: Piece[], budget: LengthBudget) => Parts & { aborted?: boolean },
  ends: 'free' | 'asked',
): Parts | undefined {
  const n = visits.length;
  if (n < 2 || n - 1 > MAX_PASSES_BETWEEN_SPLITS) return undefined;
  // where the route's start or end is asked for (a gate, a node), the order is not driven backwards
  const backwards = [...visits].reverse().map((v) => ({ ...v, forward: !v.forward }));
  const orders = ends === 'free' ? [visits, backwards] : [visits];
  const turned = (v: TrackVisit, turn: boolean): TrackVisit => (turn ? { ...v, forward: !v.forward } : v);
  let best: { parts: Parts; seconds: number } | undefined;
  let left = MAX_PASSES_BETWEEN_ROUTES;
  // the splits as they are first, then with the tracks next to the passes turned round
  for (let flips = 0; flips < 4; flips++)
    for (const order of orders)
      for (let k = 1; k < n && left > 0; k++) {
        // with the start asked for, the first track is not turned round; with the end, the last
        if (ends === 'asked' && ((k === 1 && flips & 1) || (k === n - 1 && flips & 2))) continue;
        left--;
        const before = [...order.slice(0, k - 1), turned(order[k - 1], (flips & 1) === 1)];
        const after = [turned(order[k], (flips & 2) === 2), ...order.slice(k + 1)];
        const pieces = [
          ...trackPieces(tracks, before, cellOf),
          ...headlandPieces,
          ...trackPieces(tracks, after, cellOf),
        ];
        const parts = connect(pieces, {
          leftMeters: best ? budgetMeters(best.seconds, pieces, rates) : Infinity,
          spent: false,
        });
        if (parts.aborted || unfitted(parts)) continue;
        const seconds = secondsOf(parts, rates);
        if (!best || seconds < best.seconds) best = { parts, seconds };
      }
  return best?.parts;
}

/**
 * The turns and connectors a route of `pieces` may drive and still beat `seconds` (`secondsOf`): with every track
 * and pass driven whole (a pass is driven once round from its junction, a track at most from end to end; a margin
 * of 0.1 % and 1 m for rounding).
 */
function budgetMeters(seconds: number, pieces: readonly Piece[], rates: ObjectiveRates): number {
  let working = 0;
  for (const p of pieces)
    working +=
      p.kind === 'headland' ? p.loop.lengthMeters : p.xy ? polylineLength(p.xy) : hypot(p.ex - p.sx, p.ey - p.sy);
  const most = working * 1.001 + 1;
  return (seconds + most * rates.workingPerMeter * UNWORKED_RETURN_FACTOR) / rates.turningPerMeter;
}

/** Non-working metres at the turning rate less the working metres as ground worked (objective.ts). */
function secondsOf(parts: Parts, rates: ObjectiveRates): number {
  let s = 0;
  for (const g of parts.segs) {
    const m = polylineLength(g.xy);
    s +=
      g.type === 'Turn' || g.type === 'Connector'
        ? m * rates.turningPerMeter
        : -m * rates.workingPerMeter * UNWORKED_RETURN_FACTOR;
  }
  return s;
}
