/**
 * Small obstacles (poles, single trees): a no-go zone smaller than `smallObstacleSizeMeters`
 * (its largest extent; default the working width) that lies past the headland passes gets no
 * headland rounds: the headlands and tracks are planned on the field without it
 * (`withoutSmallObstacles`), and the tracks swerve round it (tracks/swerveTracks.ts). One the
 * passes would run over or brush (`passesNear`) keeps its rounds (headland/planHeadlands.ts).
 */
import { offsetPolygons } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { Region, segmentDistance } from '../geometry/region.js';
import type { HeadlandPass } from './types.js';

/** Room the machine's centre line keeps from a small obstacle, m (half a tractor's width and a margin). */
export const CLEARANCE_METERS = 1.5;

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
 * hole) and those `kept` says keep: they keep their headland rounds, and a small hole within the
 * margin of one of them is kept too, else those rounds would run over it. Checked until no more
 * holes are kept.
 */
export function withoutSmallObstacles(field: PathsD, maxSizeMeters: number, marginMeters: number, kept: (ring: PathD) => boolean = () => false): { field: PathsD; small: PathsD } {
  if (!(maxSizeMeters > 0)) return { field, small: [] };
  let small: PathD[] = [];
  const rest: PathD[] = [];
  for (const r of field) (signedArea(r) < 0 && diameter(r, maxSizeMeters) < maxSizeMeters && !kept(r) ? small : rest).push(r);
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

/**
 * Whether a headland pass's centre line comes within `distanceMeters` of the zone (its edges from
 * the pass's points, the pass's sides from its vertices: a zone under the working width cannot lie
 * across a side unseen).
 */
export function passesNear(passes: readonly HeadlandPass[], zone: PathD, distanceMeters: number): boolean {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of zone) {
    x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y);
  }
  const d = distanceMeters;
  for (const pass of passes) {
    const ring = pass.ring;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[j], b = ring[i];
      if (Math.max(a.x, b.x) < x0 - d || Math.min(a.x, b.x) > x1 + d || Math.max(a.y, b.y) < y0 - d || Math.min(a.y, b.y) > y1 + d) continue;
      for (const p of zone) if (segmentDistance(p.x, p.y, a.x, a.y, b.x, b.y) < d) return true;
      for (let k = 0, l = zone.length - 1; k < zone.length; l = k++) if (segmentDistance(b.x, b.y, zone[l].x, zone[l].y, zone[k].x, zone[k].y) < d) return true;
    }
  }
  return false;
}
