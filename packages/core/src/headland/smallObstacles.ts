/**
 * Small obstacles (poles, single trees): a no-go zone smaller than `smallObstacleSizeMeters`
 * (its largest extent; default the working width) that lies well inside the field gets no
 * headland rounds: the headlands and tracks are planned on the field without it
 * (`withoutSmallObstacles`), and the tracks swerve round it (tracks/swerveTracks.ts).
 */
import { offsetPolygons } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';

function signedArea(r: PathD): number {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += (r[j].x - r[i].x) * (r[j].y + r[i].y);
  return a / 2;
}

/** Largest distance between two vertices of the ring (stops early once over `cap`). */
function diameter(r: PathD, cap: number): number {
  let best = 0;
  for (let i = 0; i < r.length; i++) {
    for (let j = i + 1; j < r.length; j++) {
      const d = Math.hypot(r[i].x - r[j].x, r[i].y - r[j].y);
      if (d > best) best = d;
      if (best >= cap) return best;
    }
  }
  return best;
}

/**
 * The field without its small no-go zones (holes, clockwise, of largest extent under
 * `maxSizeMeters`, at least `marginMeters` inside the rest of the field), and those zones.
 */
export function withoutSmallObstacles(field: PathsD, maxSizeMeters: number, marginMeters: number): { field: PathsD; small: PathsD } {
  if (!(maxSizeMeters > 0)) return { field, small: [] };
  const candidates: PathD[] = [], rest: PathD[] = [];
  for (const r of field) (signedArea(r) < 0 && diameter(r, maxSizeMeters) < maxSizeMeters ? candidates : rest).push(r);
  if (candidates.length === 0) return { field, small: [] };
  // Well inside: every vertex within the rest of the field shrunk by the margin.
  const core = new Region(offsetPolygons(rest, -marginMeters));
  const small: PathD[] = [];
  for (const h of candidates) (h.every((p) => core.contains(p.x, p.y)) ? small : rest).push(h);
  return small.length === 0 ? { field, small: [] } : { field: field.filter((r) => !small.includes(r)), small };
}
