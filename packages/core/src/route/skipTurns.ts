/**
 * Skip turns: where the spacing is below what a forward U turn needs (w < 2R), a machine joins a
 * track to one k lines over (k·w ≥ 2R gives a U of extent R instead of a bulb or a loop). A join
 * between tracks of one cell at most `turnSpanLines` apart is a *turn*: a direct manoeuvre, with
 * the track ends pulled back where it does not fit (connectTracks' neighbour join), typed `Turn`,
 * estimated and calibrated as a turn by the ordering. Farther joins are connections across the
 * field (headland traversals first).
 */

/** Lines apart the ordering never treats as anything but a turn (neighbours and short skips). */
export const MIN_TURN_SPAN_LINES = 3;

/**
 * Largest line difference of a turn join: the skip a flat U needs, ⌈2R / w⌉, and one more (the
 * interleaved patterns join tracks k and k + 1 over); never below `MIN_TURN_SPAN_LINES`.
 */
export function turnSpanLines(widthMeters: number, turnRadiusMeters: number): number {
  if (!(widthMeters > 0)) return MIN_TURN_SPAN_LINES;
  return Math.max(MIN_TURN_SPAN_LINES, Math.ceil((2 * turnRadiusMeters) / widthMeters - 1e-9) + 1);
}
