/**
 * The headland the turns need. A forward turn between opposite-parallel tracks reaches past the
 * track ends: a U (spacing s ≥ 2a, `a` the advance of a quarter turn: R with arcs) by `a` where
 * the two ends are level; where the headland edge crosses the tracks at an angle α (the ends k
 * lines apart differ by Δu along the track, tan α = Δu / s) the U reaches a + (s − a)·sin α past
 * the edge (the quarter turn at the end farther out, then across). The machine turns on the
 * headland, so the headland must be at least that deep for the turns to stay inside the field.
 *
 * `headlandNeedForTurns` measures that depth on the joins of a skip pattern (each track to the one
 * ⌈2a / w⌉ lines over, both headland sides) and returns the number of passes of width w whose depth
 * covers `HEADLAND_NEED_SHARE` of them; the rest are joined with the track ends pulled back (the
 * route stage's turn joins).
 */
import { predictFieldTurns } from '../turns/index.js';
import type { FieldTurnOptions } from '../turns/fieldTurns.js';
import type { Track } from './generateTracks.js';

/** Share of the skip joins the headland depth is chosen to hold without shortening a track. */
export const HEADLAND_NEED_SHARE = 0.9;
/** Clearance kept between a turn and the field edge, meters (the containment test's tolerance and sampling). */
export const HEADLAND_NEED_MARGIN_METERS = 0.5;
/**
 * A headland this much shallower than the turns need is not widened, meters: the turns then reach
 * into the clearance but not past the field edge, and the route stage trims the few that do not fit
 * (the track ends pulled back a few decimetres). A whole headland pass more for that would re-plan
 * the field (at W 6 m, R 6 m a third of the corpus, for 0.2–0.5 m).
 */
export const HEADLAND_SHORTFALL_TOLERANCE_METERS = 0.5;

export interface HeadlandNeed {
  /** Depth past the track ends the chosen share of the skip turns reaches, meters. */
  depthMeters: number;
  /** Headland passes of width w with at least that depth. */
  passes: number;
  /** Lines between the tracks a U turn joins. */
  skipLines: number;
  /** Joins measured (0: fewer track lines than a U turn spans; the depth is that of a U between level ends). */
  joins: number;
  /** Where a join needs that depth: the end of its farther-out track (local meters). */
  x: number;
  y: number;
}

/**
 * Depth (and passes) the forward U turns of a skip pattern need past the ends of `tracks`. Where
 * no two tracks are a U turn's span apart (a field of few tracks, joined only by loops several
 * times a U's length), the depth of a U between level ends, with `joins` 0: in headland passes
 * that deep such a field is mostly or wholly driven round. Undefined without straight tracks.
 */
export function headlandNeedForTurns(
  tracks: readonly Track[],
  widthMeters: number,
  opts: FieldTurnOptions,
): HeadlandNeed | undefined {
  const w = widthMeters;
  // the U of the smallest skip that needs no loop: its span s and reach a
  let skipLines = 0,
    reach = 0;
  for (let k = 1; k <= 64 && skipLines === 0; k++) {
    const u = predictFieldTurns(k * w, { ...opts, reverseAllowed: false }).find(
      (t) => t.turnType === 'U' || t.turnType === 'PerfectU',
    );
    if (u) {
      skipLines = k;
      reach = u.extentMeters;
    }
  }
  if (skipLines === 0) return undefined;
  const s = skipLines * w;
  const byLine = new Map<number, Track[]>();
  for (const t of tracks) {
    if (t.directionRadians !== undefined || t.xy) continue;
    const l = byLine.get(t.line);
    if (l) l.push(t);
    else byLine.set(t.line, [t]);
  }
  const depths: { d: number; x: number; y: number }[] = [];
  for (const [line, list] of byLine) {
    const others = byLine.get(line + skipLines);
    if (!others) continue;
    for (const a of list)
      for (const b of others) {
        if (Math.min(a.u1, b.u1) - Math.max(a.u0, b.u0) <= 0) continue;
        for (const end of [0, 1]) {
          const du = end === 0 ? a.u0 - b.u0 : a.u1 - b.u1;
          const sin = Math.abs(du) / Math.hypot(du, s);
          // the end farther out: the lower u at the start side, the higher at the end side
          const out = (end === 0) === du < 0 ? a : b;
          depths.push({
            d: reach + Math.max(0, s - reach) * sin + HEADLAND_NEED_MARGIN_METERS,
            x: end === 0 ? out.x0 : out.x1,
            y: end === 0 ? out.y0 : out.y1,
          });
        }
      }
  }
  if (depths.length === 0) {
    const first = [...byLine.values()][0]?.[0];
    return first
      ? {
          depthMeters: reach + HEADLAND_NEED_MARGIN_METERS,
          passes: Math.ceil((reach + HEADLAND_NEED_MARGIN_METERS) / w - 1e-9),
          skipLines,
          joins: 0,
          x: first.x0,
          y: first.y0,
        }
      : undefined;
  }
  depths.sort((p, q) => p.d - q.d);
  const at = depths[Math.min(depths.length - 1, Math.ceil(HEADLAND_NEED_SHARE * depths.length) - 1)];
  return { depthMeters: at.d, passes: Math.ceil(at.d / w - 1e-9), skipLines, joins: depths.length, x: at.x, y: at.y };
}
