/**
 * Small obstacles (poles, single trees): a no-go zone smaller than `smallObstacleSizeMeters`
 * (its largest extent; default the working width) gets no headland rounds: the headlands and
 * tracks are planned on the field without it (`withoutSmallObstacles`), and the tracks
 * (tracks/swerveTracks.ts) and headland passes (headland/swervePasses.ts) whose centre lines come
 * within CLEARANCE_METERS of it (`passesNear`) swerve round it, the implement working on with its
 * sections off over it. One a pass cannot swerve round keeps its rounds (headland/planHeadlands.ts).
 */
import type { PathD, PathsD } from '../geometry/clipper.js';
import { Region, segmentDistance, segmentsIntersect } from '../geometry/region.js';
import { boxOf } from '../geometry/nearBox.js';
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
 * `maxSizeMeters`, at least `margin.edge` inside the rest of the field and `margin.hole` from
 * its holes), and those zones. "The rest" includes the small holes that are not well inside (near
 * the boundary or a large hole) and those `kept` says keep: they keep their headland rounds, and a
 * small hole within `margin.hole` of one of them is kept too (the rounds of a zone bend round it
 * too tightly to swerve round a pole beside it). Checked until no more holes are kept.
 */
export function withoutSmallObstacles(
  field: PathsD,
  maxSizeMeters: number,
  margin: { edge: number; hole: number },
  kept: (ring: PathD) => boolean = () => false,
): { field: PathsD; small: PathsD } {
  if (!(maxSizeMeters > 0)) return { field, small: [] };
  let small: PathD[] = [];
  const rest: PathD[] = [];
  for (const r of field)
    (signedArea(r) < 0 && diameter(r, maxSizeMeters) < maxSizeMeters && !kept(r) ? small : rest).push(r);
  for (let restCount = -1; small.length > 0 && rest.length !== restCount;) {
    restCount = rest.length;
    // Well inside: every vertex in the rest of the field and at least the edge margin from its edges, none within the
    // hole margin of its holes (distances to the edges: the rest shrunk and its holes grown by offsets, without drawing
    // them).
    const restRegion = new Region(rest);
    const holes = rest.filter((r) => signedArea(r) < 0);
    const holeRegion = margin.hole > margin.edge && holes.length > 0 ? new Region(holes) : undefined;
    const wellInside = (p: PathD[number]): boolean =>
      restRegion.contains(p.x, p.y) &&
      restRegion.distanceToEdge(p.x, p.y) >= margin.edge &&
      !(holeRegion && holeRegion.distanceToEdge(p.x, p.y) <= margin.hole);
    const inside: PathD[] = [];
    for (const h of small) (h.every(wellInside) ? inside : rest).push(h);
    small = inside;
  }
  return small.length === 0 ? { field, small: [] } : { field: field.filter((r) => !small.includes(r)), small };
}

/**
 * Whether a headland pass's centre line comes within `distanceMeters` of the zone (side to side:
 * a pass may cross a thin zone between its vertices).
 */
export function passesNear(passes: readonly HeadlandPass[], zone: PathD, distanceMeters: number): boolean {
  const { minX: x0, minY: y0, maxX: x1, maxY: y1 } = boxOf([zone]);
  const d = distanceMeters;
  for (const pass of passes) {
    const ring = pass.ring;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[j],
        b = ring[i];
      if (
        Math.max(a.x, b.x) < x0 - d ||
        Math.min(a.x, b.x) > x1 + d ||
        Math.max(a.y, b.y) < y0 - d ||
        Math.min(a.y, b.y) > y1 + d
      )
        continue;
      for (let k = 0, l = zone.length - 1; k < zone.length; l = k++)
        if (sidesDistance(a, b, zone[l], zone[k]) < d) return true;
    }
  }
  return false;
}

/** Distance between the segments ab and cd (0 where they cross or touch). */
function sidesDistance(a: PathD[number], b: PathD[number], c: PathD[number], d: PathD[number]): number {
  if (segmentsIntersect(a.x, a.y, b.x, b.y, c.x, c.y, d.x, d.y)) return 0;
  return Math.min(
    segmentDistance(c.x, c.y, a.x, a.y, b.x, b.y),
    segmentDistance(d.x, d.y, a.x, a.y, b.x, b.y),
    segmentDistance(a.x, a.y, c.x, c.y, d.x, d.y),
    segmentDistance(b.x, b.y, c.x, c.y, d.x, d.y),
  );
}
