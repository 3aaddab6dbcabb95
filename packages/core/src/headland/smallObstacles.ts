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
 * "The rest" includes the small holes that are not well inside (near the boundary or a large
 * hole): they keep their headland rounds, and a small hole within the margin of one of them is
 * kept too, else those rounds would run over it. Checked until no more holes are kept.
 */
export function withoutSmallObstacles(field: PathsD, maxSizeMeters: number, marginMeters: number): { field: PathsD; small: PathsD } {
  if (!(maxSizeMeters > 0)) return { field, small: [] };
  let small: PathD[] = [];
  const rest: PathD[] = [];
  for (const r of field) (signedArea(r) < 0 && diameter(r, maxSizeMeters) < maxSizeMeters ? small : rest).push(r);
  for (let restCount = -1; small.length > 0 && rest.length !== restCount; ) {
    restCount = rest.length;
    // Well inside: every vertex within the rest of the field shrunk by the margin.
    const core = new Region(offsetPolygons(rest, -marginMeters));
    const inside: PathD[] = [];
    for (const h of small) (h.every((p) => core.contains(p.x, p.y)) ? inside : rest).push(h);
    small = inside;
  }
  return small.length === 0 ? { field, small: [] } : { field: field.filter((r) => !small.includes(r)), small };
}
