/**
 * Headlands: N passes around the field's edge. Pass i (1-based) drives at (i − ½)·width
 * inside the boundary; rings that come out clockwise run around a hole and are
 * InteriorHeadland passes. The mainland (where tracks go) is the field shrunk by N·width.
 */
import { areaOf, differencePolygons, offsetPolygons, ringToFlat, sharedOffset } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { pointInRing } from '../geometry/pointInRing.js';
import { ringPass } from '../geometry/swaths.js';
import { offsetMitred } from './corners.js';
import type { HeadlandPass, Headlands } from './types.js';

export type { HeadlandPass, Headlands } from './types.js';
import { junctionOnLoop, loopSideFits, makeLoop } from '../turns/connectorRings.js';

/** Working passes need no fine arcs (1 cm from the true circle). */
const PASS_ARC_TOLERANCE_METERS = 0.01;

/**
 * A pass as a flat xy polyline, its first point repeated at the end: one array per ring object
 * (geometry/swaths.ts `ringPass`, under which its swath is kept). Read-only.
 */
export function passToFlat(p: HeadlandPass): Float64Array {
  return ringPass(p.ring);
}

/**
 * Where a w-wide pass fits: the field opened by w/2 (shrunk, grown back). Without headland passes
 * (or along the sides of turn-only headlands) the mainland reaches the boundary, so it is cut to
 * this, keeping tracks out of the narrow corridors that geometry/corridors.ts reports.
 */
export function passableCore(field: PathsD, widthMeters: number): PathsD {
  const shrunk = offsetPolygons(field, -widthMeters / 2, PASS_ARC_TOLERANCE_METERS);
  return shrunk.length > 0 ? offsetPolygons(shrunk, widthMeters / 2, PASS_ARC_TOLERANCE_METERS) : [];
}

function ringArea(ring: PathD): number {
  return areaOf([ring]);
}

/** Points tried along a pass for junctions (evenly spaced, at most one a metre). */
const JUNCTION_SAMPLES = 200;
/**
 * A pass that can be joined at fewer than this share of its points is smoothed: the connect stage
 * tries junctions near where the machine is and at a few far points only, and on a pass where
 * smooth stretches are this rare it finds none (in-040's stair-stepped pass: 3 % of its points;
 * every other exterior pass of the corpus but one thin strip's, 21 %: over 45 %).
 */
const MIN_JUNCTION_SHARE = 0.1;

/**
 * Whether the machine can join a closed pass (and leave it there, heading the same way) at
 * enough of its points: a point with a metre either side free of kinks tighter than R, as the
 * connect stage requires (turns/connectorRings.ts `junctionOnLoop`, `loopSideFits`), either way
 * round, at MIN_JUNCTION_SHARE of JUNCTION_SAMPLES points along it at least.
 */
export function passIsJoinable(ring: PathD, turnRadiusMeters: number): boolean {
  const loop = makeLoop(ringToFlat(ring), Infinity);
  const n = Math.max(1, Math.min(JUNCTION_SAMPLES, Math.floor(loop.lengthMeters)));
  const need = Math.ceil(MIN_JUNCTION_SHARE * n);
  let fits = 0;
  for (let k = 0; k < n; k++) {
    if (fits >= need) return true;
    if (fits + (n - k) < need) return false;
    const s = (k * loop.lengthMeters) / n;
    for (const dir of [1, -1] as const) {
      const j = junctionOnLoop(loop, s, dir, 'enter');
      if (
        loopSideFits(loop, j, dir, 'enter', turnRadiusMeters) &&
        loopSideFits(loop, j, dir, 'leave', turnRadiusMeters)
      ) {
        fits++;
        break;
      }
    }
  }
  return fits >= need;
}

/**
 * Insets tried, meters, before a pass is opened and closed (the smallest whose smoothed pass stays inside the original
 * wins).
 */
const SMOOTHING_INSETS_METERS = [0, 0.25, 0.5, 1, 2];
/** Radius of the smoothing, × R: polygonal arcs of exactly R read as kinks at R in the junction check. */
const SMOOTHING_RADIUS_FACTOR = 1.1;

/** The region opened by ρ: shrunk by ρ and grown back, so that its convex bends have a radius of at least ρ. */
function openRegion(region: PathsD, rho: number): PathsD {
  const shrunk = offsetPolygons(region, -rho, PASS_ARC_TOLERANCE_METERS);
  return shrunk.length > 0 ? offsetPolygons(shrunk, rho, PASS_ARC_TOLERANCE_METERS) : [];
}

/**
 * The region moved in by `insetMeters`, opened by ρ and closed by ρ (grown, shrunk back: its
 * concave bends get a radius of at least ρ too). Its boundary bends nowhere tighter than ρ.
 */
function smoothRegion(region: PathsD, insetMeters: number, rho: number): PathsD {
  const t = PASS_ARC_TOLERANCE_METERS;
  const opened = openRegion(insetMeters > 0 ? offsetPolygons(region, -insetMeters, t) : region, rho);
  return opened.length > 0 ? offsetPolygons(offsetPolygons(opened, rho, t), -rho, t) : [];
}

/**
 * Exterior rings of `rings` (one pass's offset, `region` the area they bound) that the machine
 * can join at too few points (`passIsJoinable`) — a stair-stepped (pixelated) boundary gives a
 * pass of short edges and kinks all round, which the connect stage would leave out — replaced by
 * a smoothed pass: first the region opened by R (`openRegion`: the stairs' convex kinks rounded,
 * the pass moved inwards only), and if that is not joinable either, opened and closed
 * (`smoothRegion`: no bend tighter than R), moved in by the least inset that keeps it inside the
 * original region. Either way the pass comes no nearer the boundary or a hole than its own offset,
 * so its swath stays in the field. Smoothing cuts the field's corners with radius R, which is why
 * only passes the route would leave out (or be hard put to join) are smoothed, and only when the
 * smoothed pass is joinable.
 */
function smoothUnjoinableRings(rings: PathsD, region: PathsD, turnRadiusMeters: number): PathsD {
  const out: PathsD = [];
  const rho = SMOOTHING_RADIUS_FACTOR * turnRadiusMeters;
  // Candidate smoothings of the whole region, built on first need.
  const candidates: (() => PathsD)[] = [
    () => openRegion(region, rho),
    () => {
      for (const inset of SMOOTHING_INSETS_METERS) {
        const q = smoothRegion(region, inset, rho);
        // Inside the original region (to Clipper's rounding): nothing pokes out towards the boundary.
        if (q.length > 0 && areaOf(differencePolygons(q, region)) < 1e-3) return q;
      }
      return [];
    },
  ];
  const built = new Map<number, PathsD>();
  for (const ring of rings) {
    if (ring.length < 3 || ringArea(ring) <= 0 || passIsJoinable(ring, turnRadiusMeters)) {
      out.push(ring);
      continue;
    }
    let replaced = false;
    for (let k = 0; k < candidates.length && !replaced; k++) {
      let c = built.get(k);
      if (!c) built.set(k, (c = candidates[k]()));
      const inside = c.filter((r) => r.length >= 3 && ringArea(r) > 0 && pointInRing(r[0].x, r[0].y, ring));
      if (inside.length > 0 && inside.every((r) => passIsJoinable(r, turnRadiusMeters))) {
        for (const r of inside) out.push(r);
        replaced = true;
      }
    }
    if (!replaced) out.push(ring);
  }
  return out;
}

/**
 * With a corner style the passes are offset with mitred joins (sharp at every corner), then rounded or squared by
 * headland/corners.ts. Given the turning radius (and no corner style), exterior passes the machine could hardly join
 * are smoothed (`smoothUnjoinableRings`).
 */
export function generateHeadlands(
  field: PathsD,
  passCount: number,
  widthMeters: number,
  corners?: 'rounded' | 'square',
  turnRadiusMeters?: number,
): Headlands {
  const passes: HeadlandPass[] = [];
  for (let i = 1; i <= passCount; i++) {
    const d = -(i - 0.5) * widthMeters;
    const offset = corners ? offsetMitred(field, d) : sharedOffset(field, d, PASS_ARC_TOLERANCE_METERS);
    const rings =
      !corners && turnRadiusMeters !== undefined && turnRadiusMeters > 0
        ? smoothUnjoinableRings(offset, offset, turnRadiusMeters)
        : offset;
    for (const ring of rings) {
      if (ring.length < 3) continue;
      const a = ringArea(ring);
      // Slivers smaller than a swath-width square are not drivable passes.
      if (Math.abs(a) < widthMeters * widthMeters * 0.25) continue;
      passes.push({ type: a > 0 ? 'ExteriorHeadland' : 'InteriorHeadland', passIndex: i, ring });
    }
  }
  return { passes, mainland: headlandMainland(field, passCount, widthMeters) };
}

/**
 * What `passCount` headland passes of `widthMeters` leave of the field for tracks (`generateHeadlands(…).mainland`,
 * without the passes). Made once per field object and depth (`sharedOffset`: the widen-or-keep step asks it of the
 * depth the next planning plans with). Read-only.
 */
export function headlandMainland(field: PathsD, passCount: number, widthMeters: number): PathsD {
  return passCount > 0
    ? sharedOffset(field, -passCount * widthMeters, PASS_ARC_TOLERANCE_METERS)
    : passableCore(field, widthMeters);
}
