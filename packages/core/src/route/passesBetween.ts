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

/** Splits tried at most: the route's order is connected once per split. */
export const MAX_PASSES_BETWEEN_SPLITS = 12;

/** The route with the passes between two of its tracks, the best split; undefined where none joins all its pieces. */
export function passesBetween(
  tracks: Track[],
  cellOf: Int32Array,
  visits: readonly TrackVisit[],
  headlandPieces: readonly Piece[],
  connect: (pieces: Piece[]) => Parts,
): Parts | undefined {
  const n = visits.length;
  if (n < 2 || n - 1 > MAX_PASSES_BETWEEN_SPLITS) return undefined;
  let best: { parts: Parts; score: [number, number] } | undefined;
  for (let k = 1; k < n; k++) {
    const pieces: Piece[] = [
      ...trackPieces(tracks, visits.slice(0, k), cellOf),
      ...headlandPieces,
      ...trackPieces(tracks, visits.slice(k), cellOf),
    ];
    const parts = connect(pieces);
    if (unfitted(parts)) continue;
    const score: [number, number] = [passesLeftOut(parts), nonWorkingMeters(parts)];
    if (!best || score[0] < best.score[0] || (score[0] === best.score[0] && score[1] < best.score[1]))
      best = { parts, score };
  }
  return best?.parts;
}

function passesLeftOut(parts: Parts): number {
  return parts.warnings.filter((w) => w.code === 'headland-pass-skipped').length;
}

function nonWorkingMeters(parts: Parts): number {
  let m = 0;
  for (const s of parts.segs) if (s.type === 'Turn' || s.type === 'Connector') m += polylineLength(s.xy);
  return m;
}
