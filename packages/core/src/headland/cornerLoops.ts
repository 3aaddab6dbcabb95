/**
 * Corner loops: how a machine at least 2R + 2 m wide works the field's convex corners on its
 * outermost headland pass, forward only.
 *
 * The pass runs at w/2 from the boundary; at a convex corner of the field its swath, swung round
 * the pass's corner point, leaves the corner itself unworked — (1 − π/4)·(w/2)² at a square corner,
 * 70 m² for a 36 m sprayer, far more at an acute one — and the machine cannot even swing round a
 * point. A corner loop drives the corner instead: the pass bends out towards the boundary (an arc
 * of radius R away from the field's inside), sweeps round the corner on an arc of radius R that
 * keeps `CORNER_LOOP_MARGIN_METERS` from both sides of the corner, and bends back onto the next side
 * (arcs R·`LOOP_RADIUS_FACTOR`, so the polygonal arcs read no tighter than R). With w/2 ≥ R the
 * swath on that arc reaches from the corner's tip over the arc's centre, so the corner and the
 * band inside it are worked (worked twice where the bends overlap the pass).
 *
 * Corners and the sides' lines are read off the pass simplified by 1 m (a ragged field edge gives a
 * pass of short, noisy edges); vertices within 12 m of each other turning the same way are one
 * chamfered corner, at the meeting point of the sides around them. A corner gets a loop where the
 * loop stays inside the field (holes excluded; designed 1 m from the boundary, accepted down to
 * 0.5 m), the pass lies within 2 m of the corner's lines over the stretches the loop replaces,
 * and the loop works more of the pass's band (the field within w of the boundary) than the pass
 * without it — weighed in a box round the change. Two corners too close for a loop each get one
 * loop along the side between them, hugging the boundary, where that works more; it leaves the
 * band's inner edge along that side. A loop crossing another part of the pass undoes them all.
 */
import type { PathD, PathsD } from '../geometry/clipper.js';
import { Clipper, EndType, JoinType } from 'clipper2-ts';
import { PRECISION, areaOf, differencePolygons, intersectPolygons, offsetPolygons } from '../geometry/clipper.js';
import { Region, segmentsIntersect } from '../geometry/region.js';
import { hypot, wrapAngle } from '../geometry/vec.js';
import { douglasPeuckerKeep } from '../geometry/douglasPeucker.js';
import type { HeadlandPass } from './types.js';
import { CORNER_MIN_RADIANS } from './corners.js';

/** The loop keeps this far from the boundary, m. */
export const CORNER_LOOP_MARGIN_METERS = 1;
/** The loop's arcs are this much wider than R. */
const LOOP_RADIUS_FACTOR = 1.05;
/** The containment test allows the loop this much nearer the boundary than the margin, m. */
const MARGIN_SLACK_METERS = 0.5;
/** Corners turning by more than this (a hairpin) get no loop. */
const MAX_TURN_RADIANS = (150 * Math.PI) / 180;
/** The pass stretches a loop replaces must be this straight, m. */
const STRAIGHT_TOLERANCE_METERS = 2;
/** Vertices of the simplified pass this close together, turning the same way, are one corner (a chamfer), m. */
const CLUSTER_METERS = 12;
/** Corners and sides are found on the pass simplified to this tolerance, m. */
const SIMPLIFY_TOLERANCE_METERS = 1;
/** Arc points: one every this many radians at most. */
const ARC_STEP_RADIANS = Math.PI / 90;

type Pt = { x: number; y: number };
type Box = { x0: number; y0: number; x1: number; y1: number };

function grow(b: Box, d: number): Box {
  return { x0: b.x0 - d, y0: b.y0 - d, x1: b.x1 + d, y1: b.y1 + d };
}

/** Whether a machine of this width and turning radius gets corner loops: the arc's centre within the swath's reach. */
export function loopsCorners(widthMeters: number, turnRadiusMeters: number): boolean {
  const h = widthMeters / 2,
    r = LOOP_RADIUS_FACTOR * turnRadiusMeters;
  return turnRadiusMeters > 0 && h >= r + CORNER_LOOP_MARGIN_METERS && h <= 2 * r;
}

/**
 * The outermost exterior passes with a loop at each convex corner where one fits (the other passes
 * as they are), and how many loops were made.
 */
export function loopCorners(
  passes: HeadlandPass[],
  field: PathsD,
  widthMeters: number,
  turnRadiusMeters: number,
): { passes: HeadlandPass[]; loops: number } {
  if (!loopsCorners(widthMeters, turnRadiusMeters)) return { passes, loops: 0 };
  // Built on first need: the field shrunk by a little less than the margin (the loop runs along
  // the margin where it follows a side), for the loops' containment.
  let region: Region | undefined;
  const inside = (xy: Float64Array): boolean =>
    (region ??= new Region(offsetPolygons(field, -CORNER_LOOP_MARGIN_METERS + MARGIN_SLACK_METERS))).containsPolyline(
      xy,
    );
  // The outer pass's band within a box: what its swath is there to work there (the passes inside and
  // the tracks work the rest), from the field cut to the box grown by more than the band is deep.
  const bandIn = (box: Box): PathsD => {
    const near = intersectPolygons(field, [boxRing(grow(box, widthMeters + 1))]);
    return intersectPolygons(differencePolygons(near, offsetPolygons(near, -widthMeters)), [boxRing(box)]);
  };
  let loops = 0;
  const out = passes.map((p) => {
    if (p.type !== 'ExteriorHeadland' || p.passIndex !== 1 || p.ring.length < 3) return p;
    const r = loopRing(p.ring, widthMeters / 2, LOOP_RADIUS_FACTOR * turnRadiusMeters, inside, bandIn);
    loops += r.loops;
    return r.loops > 0 ? { ...p, ring: r.ring } : p;
  });
  return { passes: out, loops };
}

/**
 * For weighing loops the pass keeps a point at least this far from the one kept before (its arcs have one every 2°,
 * 0.44 m), and coarse joins, m.
 */
const ROUGH_STEP_METERS = 1.3;
const ROUGH_ARC_TOLERANCE_METERS = 0.1;

/**
 * Swaths of open polylines (flat ends, round joins) for weighing loops, thinned and with coarse
 * joins: a loop's arcs are tighter than the swath is wide, and their fine swaths are costly to
 * build. The plan's coverage metric uses the fine ones.
 */
function roughSwaths(runs: PathsD, h: number): PathsD {
  const thin = runs.map((r) => {
    const out: PathD = [r[0]];
    for (let i = 1; i < r.length; i++) {
      const last = out[out.length - 1];
      if (i === r.length - 1 || hypot(r[i].x - last.x, r[i].y - last.y) >= ROUGH_STEP_METERS) out.push(r[i]);
    }
    return out;
  });
  return Clipper.inflatePathsD(thin, h, JoinType.Round, EndType.Butt, 2, PRECISION, ROUGH_ARC_TOLERANCE_METERS);
}

function boxRing(b: Box): PathD {
  return [
    { x: b.x0, y: b.y0 },
    { x: b.x1, y: b.y0 },
    { x: b.x1, y: b.y1 },
    { x: b.x0, y: b.y1 },
  ];
}

/**
 * A loop planned on the ring: the corners it drives (one, or several in a row joined along the
 * boundary where their sides are too short for a loop each), the stretch of the ring it replaces
 * (distances along it) and its points.
 */
interface Loop {
  /** Ring index of the first corner (inside the stretch). */
  k: number;
  corners: CornerParts[];
  from: number;
  to: number;
  points: PathD;
}

/** The ring started in the middle of its longest edge, so that no loop wraps round its start. */
function startedMidLongestEdge(ring0: PathD): PathD {
  const n0 = ring0.length;
  let longest = 0,
    best = -1;
  for (let i = 0; i < n0; i++) {
    const a = ring0[i],
      b = ring0[(i + 1) % n0];
    const l = hypot(b.x - a.x, b.y - a.y);
    if (l > best) {
      best = l;
      longest = i;
    }
  }
  const a0 = ring0[longest],
    b0 = ring0[(longest + 1) % n0];
  const ring: PathD = [{ x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2 }];
  for (let i = 1; i <= n0; i++) ring.push(ring0[(longest + i) % n0]);
  return ring;
}

/** The ring loops are planned on: its points, distances along it (n + 1 of them), the swath's half width h. */
interface LoopRingFrame {
  ring: PathD;
  along: Float64Array;
  n: number;
  h: number;
}

function pointsInside(contains: (xy: Float64Array) => boolean, points: PathD): boolean {
  const flat = new Float64Array(2 * points.length);
  points.forEach((q, i) => {
    flat[2 * i] = q.x;
    flat[2 * i + 1] = q.y;
  });
  return contains(flat);
}

/** The ring with each replaced stretch cut out and its loop put in (the first corner is inside its stretch). */
function assembleLoops(rf: LoopRingFrame, loops: Loop[]): { out: PathD; spans: [number, number][] } {
  const { ring, along, n } = rf;
  const out: PathD = [];
  const spans: [number, number][] = [];
  let li = 0;
  for (let i = 0; i < n; i++) {
    while (li < loops.length && along[i] > loops[li].to) li++;
    const l = loops[li];
    if (l && along[i] >= l.from) {
      if (i === l.k) {
        const last = out[out.length - 1];
        const pts = last && hypot(last.x - l.points[0].x, last.y - l.points[0].y) < 1e-6 ? l.points.slice(1) : l.points;
        spans.push([out.length, out.length + pts.length - 1]);
        for (const q of pts) out.push(q);
      }
      continue;
    }
    const last = out[out.length - 1];
    if (!last || hypot(last.x - ring[i].x, last.y - ring[i].y) >= 1e-6) out.push(ring[i]);
  }
  return { out, spans };
}

/** What the pass's swath leaves of the band within `box`, m² (only the pass's edges that reach it are buffered). */
function bandLeftIn(rf: LoopRingFrame, loops: Loop[], box: Box, band: PathsD): number {
  const h = rf.h;
  const pass = assembleLoops(rf, loops).out;
  const reach = grow(box, h),
    runs: PathsD = [];
  let run: PathD = [];
  for (let i = 0; i < pass.length; i++) {
    const a = pass[i],
      b = pass[(i + 1) % pass.length];
    if (
      Math.max(a.x, b.x) >= reach.x0 &&
      Math.min(a.x, b.x) <= reach.x1 &&
      Math.max(a.y, b.y) >= reach.y0 &&
      Math.min(a.y, b.y) <= reach.y1
    ) {
      if (run.length === 0) run.push(a);
      run.push(b);
    } else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return areaOf(differencePolygons(band, roughSwaths(runs, h)));
}

/** Where a loop changes the pass: round its points and the stretch it replaces, grown by the swath's reach. */
function changedBox(rf: LoopRingFrame, points: PathD[], from: number, to: number): Box {
  const { ring, along, n, h } = rf;
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  const add = (q: Pt): void => {
    box.x0 = Math.min(box.x0, q.x);
    box.x1 = Math.max(box.x1, q.x);
    box.y0 = Math.min(box.y0, q.y);
    box.y1 = Math.max(box.y1, q.y);
  };
  for (const ps of points) for (const q of ps) add(q);
  for (let i = 0; i < n; i++) if (along[i] >= from && along[i] <= to) add(ring[i]);
  add(pointAt(ring, along, from));
  add(pointAt(ring, along, to));
  return grow(box, h);
}

/**
 * The sides' lines from the simplified pass, and for a single vertex those of its own edges
 * too (a short side's own direction may be truer than its neighbour's): the one working more wins.
 */
function cornerLines(
  ring: PathD,
  kf: number,
  single: boolean,
  at: { prev: Pt; first: Pt; last: Pt; next: Pt },
  u1: Pt,
  u2: Pt,
): { c: Pt; u1: Pt; u2: Pt }[] {
  const { prev, first, last, next } = at;
  const n = ring.length;
  const lines: { c: Pt; u1: Pt; u2: Pt }[] = [];
  const c0 = single ? first : meet(first, u1, last, u2);
  if (c0) lines.push({ c: c0, u1, u2 });
  if (single) {
    const pe = ring[kf - 1],
      ne = ring[(kf + 1) % n];
    const e1 = hypot(first.x - pe.x, first.y - pe.y),
      e2 = hypot(ne.x - first.x, ne.y - first.y);
    if (e1 > 0 && e2 > 0 && (pe !== prev || ne !== next))
      lines.push({
        c: first,
        u1: { x: (first.x - pe.x) / e1, y: (first.y - pe.y) / e1 },
        u2: { x: (ne.x - first.x) / e2, y: (ne.y - first.y) / e2 },
      });
  }
  return lines;
}

function loopRing(
  ring0: PathD,
  h: number,
  R: number,
  contains: (xy: Float64Array) => boolean,
  bandIn: (box: Box) => PathsD,
): { ring: PathD; loops: number } {
  const ring = startedMidLongestEdge(ring0);
  const n = ring.length;
  const s = areaOf([ring]) > 0 ? 1 : -1; // counter-clockwise: convex corners turn left
  const along = new Float64Array(n + 1);
  for (let i = 1; i <= n; i++)
    along[i] = along[i - 1] + hypot(ring[i % n].x - ring[i - 1].x, ring[i % n].y - ring[i - 1].y);
  const rf: LoopRingFrame = { ring, along, n, h };
  const inside = (points: PathD): boolean => pointsInside(contains, points);
  const leftIn = (loops: Loop[], box: Box, band: PathsD): number => bandLeftIn(rf, loops, box, band);
  const changed = (points: PathD[], from: number, to: number): Box => changedBox(rf, points, from, to);
  // Corners and the sides' lines from the ring simplified (a field's ragged edge gives a pass of
  // short, noisy edges); the loops replace stretches of the ring itself.
  const key = simplifiedIndices(ring, SIMPLIFY_TOLERANCE_METERS);
  const loops: Loop[] = [];
  let lastKey = -1;
  for (let j = 1; j + 1 < key.length; j++) {
    // A corner: a vertex of the simplified pass, or a few close together turning the same way
    // (a chamfered corner), at the meeting point of the sides before and after them.
    const turnAt = (m: number): number => {
      const p = ring[key[m - 1]],
        c = ring[key[m]],
        q = ring[key[m + 1] % n];
      return wrapAngle(Math.atan2(q.y - c.y, q.x - c.x) - Math.atan2(c.y - p.y, c.x - p.x));
    };
    let jl = j;
    while (
      jl + 2 < key.length &&
      s * turnAt(jl) > 0 &&
      s * turnAt(jl + 1) > 0 &&
      hypot(ring[key[jl + 1]].x - ring[key[jl]].x, ring[key[jl + 1]].y - ring[key[jl]].y) < CLUSTER_METERS
    )
      jl++;
    const kf = key[j],
      kl = key[jl];
    const prev = ring[key[j - 1]],
      first = ring[kf],
      last = ring[kl],
      next = ring[key[jl + 1] % n];
    const l1 = hypot(first.x - prev.x, first.y - prev.y),
      l2 = hypot(next.x - last.x, next.y - last.y);
    if (!(l1 > 0 && l2 > 0)) continue;
    const u1 = { x: (first.x - prev.x) / l1, y: (first.y - prev.y) / l1 },
      u2 = { x: (next.x - last.x) / l2, y: (next.y - last.y) / l2 };
    const turn = wrapAngle(Math.atan2(u2.y, u2.x) - Math.atan2(u1.y, u1.x));
    const previousKey = lastKey;
    if (Math.abs(turn) >= CORNER_MIN_RADIANS) lastKey = kl;
    const single = jl === j;
    j = jl;
    if (s * turn < CORNER_MIN_RADIANS || s * turn > MAX_TURN_RADIANS) continue;
    const lines = cornerLines(ring, kf, single, { prev, first, last, next }, u1, u2);
    let best: { loops: Loop[]; gain: number } | undefined;
    for (const { c, u1: v1, u2: v2 } of lines) {
      const parts = { ...cornerParts(c, v1, v2, s, h, R), k: kf };
      const from = along[kf] + hypot(c.x - first.x, c.y - first.y) + parts.t1,
        to = along[kl] - hypot(c.x - last.x, c.y - last.y) + parts.t2;
      if (to > along[n] || !onLines(ring, along, c, kf, kl, from, to, v1, v2)) continue;
      let tried: Loop[] | undefined, box: Box | undefined;
      const before = loops[loops.length - 1];
      if (before && from < before.to) {
        // Too close to the loop before: one loop round both corners, along the side between them.
        if (before.corners[before.corners.length - 1].k !== previousKey || from < before.from) continue;
        const corners = [...before.corners, parts];
        const points = loopPoints(corners, s, R);
        if (inside(points)) {
          tried = [...loops.slice(0, -1), { ...before, corners, to, points }];
          box = changed([points, before.points], before.from, to);
        }
      } else if (from >= 0) {
        const points = loopPoints([parts], s, R);
        if (inside(points)) {
          tried = [...loops, { k: kf, corners: [parts], from, to, points }];
          box = changed([points], from, to);
        }
      }
      if (!tried || !box) continue;
      // Only what works more of the band (along a side a joined loop hugs the boundary and leaves the band's inner
      // edge).
      const band = bandIn(box);
      const gain = leftIn(loops, box, band) - leftIn(tried, box, band);
      if (gain > (best?.gain ?? 0)) best = { loops: tried, gain };
    }
    if (best) loops.splice(0, loops.length, ...best.loops);
  }
  if (loops.length === 0) return { ring: ring0, loops: 0 };
  const { out, spans } = assembleLoops(rf, loops);
  if (spans.some(([a, b]) => loopCrosses(out, a, b))) return { ring: ring0, loops: 0 };
  return { ring: out, loops: loops.reduce((m, l) => m + l.corners.length, 0) };
}

/**
 * Indices of the closed ring's points that Ramer–Douglas–Peucker keeps at `tolerance` (from its first point
 * round to it
 * again, as n).
 */
function simplifiedIndices(ring: PathD, tolerance: number): number[] {
  const n = ring.length;
  const flat = new Float64Array(2 * (n + 1));
  for (let i = 0; i <= n; i++) {
    flat[2 * i] = ring[i % n].x;
    flat[2 * i + 1] = ring[i % n].y;
  }
  const keep = douglasPeuckerKeep(flat, tolerance);
  const out: number[] = [];
  for (let i = 0; i <= n; i++) if (keep[i]) out.push(i);
  return out;
}

/** One corner's loop geometry (see `cornerParts`), with its ring index. */
interface CornerParts {
  k: number;
  t1: number;
  t2: number;
  T1: Pt;
  P1: Pt;
  M1: Pt;
  O: Pt;
  M2: Pt;
  P2: Pt;
  T2: Pt;
  /** Normals towards the boundary of the corner's incoming and outgoing sides. */
  n1: Pt;
  n2: Pt;
}

/**
 * The loop at corner `c` (incoming direction u1, outgoing u2, the field's inside on side s: +1
 * left): arc P1 (towards the boundary) from T1 to M1, arc O (round the corner, R + margin from both
 * sides of the field's corner) from M1 to M2, arc P2 (back) from M2 to T2, each of radius R;
 * t1 < 0 < t2 where it leaves and rejoins the pass lines, measured from c.
 */
function cornerParts(c: Pt, u1: Pt, u2: Pt, s: number, h: number, R: number): Omit<CornerParts, 'k'> {
  const n1 = { x: s * u1.y, y: -s * u1.x },
    n2 = { x: s * u2.y, y: -s * u2.x };
  const delta = h - R - CORNER_LOOP_MARGIN_METERS; // O's distance from both pass lines, towards the boundary
  const f = delta / (1 + n1.x * n2.x + n1.y * n2.y);
  const O = { x: c.x + f * (n1.x + n2.x), y: c.y + f * (n1.y + n2.y) };
  const reach = Math.sqrt(4 * R * R - (R - delta) * (R - delta));
  const t1 = (O.x - c.x) * u1.x + (O.y - c.y) * u1.y - reach;
  const t2 = (O.x - c.x) * u2.x + (O.y - c.y) * u2.y + reach;
  const T1 = { x: c.x + t1 * u1.x, y: c.y + t1 * u1.y },
    T2 = { x: c.x + t2 * u2.x, y: c.y + t2 * u2.y };
  const P1 = { x: T1.x + R * n1.x, y: T1.y + R * n1.y },
    P2 = { x: T2.x + R * n2.x, y: T2.y + R * n2.y };
  const M1 = { x: (P1.x + O.x) / 2, y: (P1.y + O.y) / 2 },
    M2 = { x: (P2.x + O.x) / 2, y: (P2.y + O.y) / 2 };
  return { t1, t2, T1, P1, M1, O, M2, P2, T2, n1, n2 };
}

/**
 * The points of a loop round `corners` in a row: out on the first corner's arc P1, round each
 * corner's arc O, along the boundary (R + margin from it, where consecutive O arcs touch the same
 * line) from one corner to the next, and back on the last corner's arc P2.
 */
function loopPoints(corners: CornerParts[], s: number, R: number): PathD {
  const first = corners[0],
    last = corners[corners.length - 1];
  const points: PathD = [first.T1];
  arc(points, first.P1, R, first.T1, first.M1, -s);
  corners.forEach((c, i) => {
    const entry = i === 0 ? c.M1 : { x: c.O.x + R * c.n1.x, y: c.O.y + R * c.n1.y };
    const exit = i === corners.length - 1 ? c.M2 : { x: c.O.x + R * c.n2.x, y: c.O.y + R * c.n2.y };
    if (i > 0) points.push(entry);
    arc(points, c.O, R, entry, exit, s);
  });
  arc(points, last.P2, R, last.M2, last.T2, -s);
  return points;
}

/** Appends the arc round `centre` from `a` to `b` (a excluded), turning left (dir +1) or right (−1). */
function arc(out: PathD, centre: Pt, R: number, a: Pt, b: Pt, dir: number): void {
  const a0 = Math.atan2(a.y - centre.y, a.x - centre.x),
    a1 = Math.atan2(b.y - centre.y, b.x - centre.x);
  let sweep = dir * (a1 - a0);
  while (sweep < 0) sweep += 2 * Math.PI;
  while (sweep >= 2 * Math.PI) sweep -= 2 * Math.PI;
  const steps = Math.max(1, Math.ceil(sweep / ARC_STEP_RADIANS));
  for (let i = 1; i <= steps; i++) {
    const t = a0 + (dir * sweep * i) / steps;
    out.push({ x: centre.x + R * Math.cos(t), y: centre.y + R * Math.sin(t) });
  }
  out[out.length - 1] = { x: b.x, y: b.y };
}

/**
 * Whether the ring between `from` and `to` (along it) lies on the corner's two lines through `c`:
 * on the first up to the corner's first vertex `kf`, on the second from its last `kl` (what lies
 * between, a chamfer, the loop replaces).
 */
function onLines(
  ring: PathD,
  along: Float64Array,
  c: Pt,
  kf: number,
  kl: number,
  from: number,
  to: number,
  u1: Pt,
  u2: Pt,
): boolean {
  const n = ring.length;
  const off = (q: Pt, u: Pt): number => Math.abs((q.x - c.x) * u.y - (q.y - c.y) * u.x);
  for (let i = 0; i < n; i++) {
    if (along[i] < from || along[i] > to || (i > kf && i < kl)) continue;
    if (off(ring[i], i <= kf ? u1 : u2) > STRAIGHT_TOLERANCE_METERS) return false;
  }
  return (
    off(pointAt(ring, along, from), u1) <= STRAIGHT_TOLERANCE_METERS &&
    off(pointAt(ring, along, to), u2) <= STRAIGHT_TOLERANCE_METERS
  );
}

/** Where the line through `a` along `u` meets the line through `b` along `v`; undefined if they are parallel. */
function meet(a: Pt, u: Pt, b: Pt, v: Pt): Pt | undefined {
  const d = u.x * v.y - u.y * v.x;
  if (Math.abs(d) < 1e-9) return undefined;
  const t = ((b.x - a.x) * v.y - (b.y - a.y) * v.x) / d;
  return { x: a.x + t * u.x, y: a.y + t * u.y };
}

/** The point `d` metres along the closed ring from its start. */
function pointAt(ring: PathD, along: Float64Array, d: number): Pt {
  const n = ring.length;
  let i = 0;
  while (i < n - 1 && along[i + 1] < d) i++;
  const a = ring[i],
    b = ring[(i + 1) % n],
    l = along[i + 1] - along[i];
  const t = l > 0 ? Math.min(1, Math.max(0, (d - along[i]) / l)) : 0;
  return { x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y) };
}

/** Whether a loop's points (from index `a` to `b` of the ring) cross another edge of the ring. */
function loopCrosses(ring: PathD, a: number, b: number): boolean {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = a; i <= b; i++) {
    const q = ring[i];
    if (q.x < minX) minX = q.x;
    if (q.x > maxX) maxX = q.x;
    if (q.y < minY) minY = q.y;
    if (q.y > maxY) maxY = q.y;
  }
  const n = ring.length;
  for (let j = 0; j < n; j++) {
    // edges of the loop itself and those touching it are its own
    if (j >= a - 1 && j <= b) continue;
    if (a === 0 && j === n - 1) continue;
    const c = ring[j],
      d = ring[(j + 1) % n];
    if (
      Math.max(c.x, d.x) < minX ||
      Math.min(c.x, d.x) > maxX ||
      Math.max(c.y, d.y) < minY ||
      Math.min(c.y, d.y) > maxY
    )
      continue;
    for (let i = a; i < b; i++)
      if (segmentsIntersect(ring[i].x, ring[i].y, ring[i + 1].x, ring[i + 1].y, c.x, c.y, d.x, d.y)) return true;
  }
  return false;
}
