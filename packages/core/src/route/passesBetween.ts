/**
 * The headland passes driven between two of the route's tracks rather than after them. A field whose
 * tracks end in dead ends (arms narrower than a turn, a strip's centre-line pass running into a
 * tip) leaves the machine where no forward path reaches the passes after the last track, or where
 * none leads on from the passes into a dead end: driven between the track that leaves one dead end
 * and the one that goes into the other, the passes join both. Each split of the route's order is
 * connected as it stands (the searches counted on the route's work clock); the one with no join
 * nothing fits and the fewest passes left out, then the least non-working length, is kept.
 */
import { polylineLength } from '../geometry/vec.js';
import type { Piece } from '../turns/path.js';
import type { Track } from '../tracks/generateTracks.js';
import { trackPieces } from './connectTracks.js';
import type { TrackVisit } from './connectContext.js';
import { unfitted, type Parts } from './routeConnections.js';
import type { ObjectiveRates } from './optimize/objective.js';
import { UNWORKED_RETURN_FACTOR } from '../objective.js';

/** Splits tried at most: the route's order is connected once per split, both ways round. */
export const MAX_PASSES_BETWEEN_SPLITS = 12;

/**
 * The route with the passes between two of its tracks, the best split (the least time at the
 * objective's rates: non-working metres driven, working metres lost to shortened tracks and passes
 * left out as ground to come back to); undefined where none joins all its pieces.
 */
export function passesBetween(
  tracks: Track[],
  cellOf: Int32Array,
  visits: readonly TrackVisit[],
  headlandPieces: readonly Piece[],
  rates: ObjectiveRates,
  connect: (pieces: Piece[]) => Parts,
): Parts | undefined {
  const n = visits.length;
  if (n < 2 || n - 1 > MAX_PASSES_BETWEEN_SPLITS) return undefined;
  const backwards = [...visits].reverse().map((v) => ({ ...v, forward: !v.forward }));
  let best: { parts: Parts; seconds: number } | undefined;
  for (const order of [visits, backwards])
    for (let k = 1; k < n; k++) {
      const pieces: Piece[] = [
        ...trackPieces(tracks, order.slice(0, k), cellOf),
        ...headlandPieces,
        ...trackPieces(tracks, order.slice(k), cellOf),
      ];
      const parts = connect(pieces);
      if (unfitted(parts)) continue;
      const seconds = secondsOf(parts, rates);
      if (!best || seconds < best.seconds) best = { parts, seconds };
    }
  return best?.parts;
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
