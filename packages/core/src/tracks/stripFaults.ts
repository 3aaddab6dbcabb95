/**
 * Whether a route's faults may come from its strip passes (tracks/strips.ts): where they may, the
 * call also plans the field without them (choice/planVariants.ts), and the objective decides.
 */
import type { LocalSegment, LocalWarning } from '../turns/path.js';
import type { Track } from './generateTracks.js';
import { isRouteFault } from './routeFaults.js';

/**
 * Whether the route's faults may come from its strip passes (tracks from `firstStrip` on): a join
 * not fitted or a track left out at a strip pass's end or middle, or headland passes left out
 * right after the last track (before the first, with headlands first) when that is a strip pass,
 * unless the field's shape alone leaves them out (`shapeOnly`: no junction a forward path can join
 * and leave, so no planning joins them from a track; all tracks strip passes, one may start the route).
 */
export function stripFaults(
  warnings: LocalWarning[],
  segments: LocalSegment[],
  tracks: Track[],
  firstStrip: number,
  headlandsFirst: boolean,
): boolean {
  const near = (x: number | undefined, y: number | undefined): boolean =>
    x !== undefined &&
    y !== undefined &&
    tracks.slice(firstStrip).some((t) =>
      [
        [t.x0, t.y0],
        [t.x1, t.y1],
        [(t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2],
      ].some(([px, py]) => Math.hypot(px - x, py - y) < 2),
    );
  // a join not fitted names where it goes to in its message: "to (x, y) heading"
  const goal = (wn: LocalWarning): boolean => {
    const m = / to \((-?[\d.]+), (-?[\d.]+)\) heading/.exec(wn.message);
    return m !== null && near(Number(m[1]), Number(m[2]));
  };
  if (warnings.some((wn) => wn.code !== 'headland-pass-skipped' && isRouteFault(wn) && (near(wn.x, wn.y) || goal(wn))))
    return true;
  // A pass the field's shape leaves out is left out with or without them, unless nothing but
  // headland passes is left without them: the route then starts on one, joined from nowhere.
  if (!warnings.some((wn) => wn.code === 'headland-pass-skipped' && (!wn.shapeOnly || firstStrip === 0))) return false;
  const driven = segments.filter((sg) => sg.type === 'Track');
  const next = headlandsFirst ? driven[0] : driven[driven.length - 1];
  return next?.trackIndex !== undefined && next.trackIndex >= firstStrip;
}
