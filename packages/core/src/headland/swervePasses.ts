/**
 * Headland passes past small obstacles in their band (headland/smallObstacles.ts): a pass whose
 * centre line comes within CLEARANCE_METERS of a small zone swerves round it as a track does — an S
 * of arcs ≥ R out to the side that needs the shorter shift, straight past it, an S back — while the
 * implement works on with its sections off over the zone. A pass swerves only where it runs straight
 * past the zone (not round a corner) and the swerve stays inside the field, clear of every no-go
 * zone; where that fails the zone keeps its rounds.
 */
import type { PathD } from '../geometry/clipper.js';
import { segmentDistance } from '../geometry/region.js';
import type { Region } from '../geometry/region.js';
import { ARC_MARGIN, clearOf, extentOf, sCurveLength, sideShifts, swerveProfile, toXY } from '../geometry/swerve.js';
import { CLEARANCE_METERS, passesNear } from './smallObstacles.js';
import type { HeadlandPass } from './types.js';

/** How far from its line a pass may stray where a swerve replaces it, m (straight, not a corner). */
const STRAIGHT_TOLERANCE_METERS = 0.3;

/**
 * The passes with those that come near `zone` swerved round it (the same array where none comes
 * near), or undefined where one cannot. `region`: the field with every no-go zone, built when first needed.
 */
export function swervePasses(
  passes: readonly HeadlandPass[],
  zone: PathD,
  region: () => Region,
  turnRadiusMeters: number,
): readonly HeadlandPass[] | undefined {
  let out: HeadlandPass[] | undefined;
  for (let i = 0; i < passes.length; i++) {
    const p = passes[i];
    if (!passesNear([p], zone, CLEARANCE_METERS)) continue;
    const ring = swerveRing(p.ring, zone, region(), turnRadiusMeters);
    if (!ring || passesNear([{ ...p, ring }], zone, CLEARANCE_METERS - 1e-6)) return undefined;
    (out ??= passes.slice())[i] = { ...p, ring };
  }
  return out ?? passes;
}

/** The closed ring swerved round the zone beside its nearest side, or undefined where no swerve fits. */
function swerveRing(ring: PathD, zone: PathD, region: Region, R: number): PathD | undefined {
  const n = ring.length;
  if (n < 3) return undefined;
  let cx = 0,
    cy = 0;
  for (const q of zone) {
    cx += q.x / zone.length;
    cy += q.y / zone.length;
  }
  // the side of the ring nearest the zone gives the swerve's frame
  let best = 0,
    bestD = Infinity;
  for (let i = 0; i < n; i++) {
    const a = ring[i],
      b = ring[(i + 1) % n];
    const d = segmentDistance(cx, cy, a.x, a.y, b.x, b.y);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  const A = ring[best],
    B = ring[(best + 1) % n];
  const len = Math.hypot(B.x - A.x, B.y - A.y);
  if (len === 0) return undefined;
  const c = (B.x - A.x) / len,
    s = (B.y - A.y) / len;
  const U = (q: { x: number; y: number }): number => c * q.x + s * q.y,
    V = (q: { x: number; y: number }): number => -s * q.x + c * q.y;
  const v0 = V(A);
  const e = extentOf(zone, c, s);
  const r = R * ARC_MARGIN;
  for (const shift of sideShifts(e, v0, CLEARANCE_METERS)) {
    if (Math.abs(shift) >= 2 * r) continue;
    const L = sCurveLength(shift, r);
    const a = e.ua - CLEARANCE_METERS - L,
      b = e.ub + CLEARANCE_METERS + L;
    // the ring runs straight along the line from before u = a to past u = b
    let kA = best,
      steps = 0;
    while (U(ring[kA]) >= a) {
      const prev = (kA - 1 + n) % n;
      if (Math.abs(V(ring[kA]) - v0) > STRAIGHT_TOLERANCE_METERS || U(ring[prev]) >= U(ring[kA]) || ++steps >= n) {
        kA = -1;
        break;
      }
      kA = prev;
    }
    let kB = (best + 1) % n;
    while (kA >= 0 && U(ring[kB]) <= b) {
      const next = (kB + 1) % n;
      if (Math.abs(V(ring[kB]) - v0) > STRAIGHT_TOLERANCE_METERS || U(ring[next]) <= U(ring[kB]) || ++steps >= n) {
        kB = -1;
        break;
      }
      kB = next;
    }
    if (
      kA < 0 ||
      kB < 0 ||
      Math.abs(V(ring[kA]) - v0) > STRAIGHT_TOLERANCE_METERS ||
      Math.abs(V(ring[kB]) - v0) > STRAIGHT_TOLERANCE_METERS
    )
      return undefined;
    const xy = toXY(swerveProfile(a, b, v0, shift, r, L), c, s);
    const path = new Float64Array(xy.length + 4);
    path.set([ring[kA].x, ring[kA].y]);
    path.set(xy, 2);
    path.set([ring[kB].x, ring[kB].y], xy.length + 2);
    if (!region.containsPolyline(path) || !clearOf(xy, region, CLEARANCE_METERS)) continue;
    // the ring from kB round to kA, then the swerve: kept in its own order from its first point where that is kept
    const out: PathD = [];
    const replaced = (i: number): boolean => (kA < kB ? i > kA && i < kB : i > kA || i < kB);
    for (let i = 0; i < n; i++) {
      if (replaced(i)) continue;
      out.push(ring[i]);
      if (i === kA) for (let k = 0; k < xy.length; k += 2) out.push({ x: xy[k], y: xy[k + 1] });
    }
    return out;
  }
  return undefined;
}
