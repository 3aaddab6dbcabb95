/**
 * Reversing connector search: where the machine may reverse and no forward path fits —
 * a 12 m headland band at R 12 m, where a forward quarter turn out of a track needs all of the
 * band — a driver backs up and makes a K-turn (three-point turn) in the band. This is the
 * hybrid-A* of `searchConnector` (connectSearch.ts) with motions driven forward AND backward.
 *
 * States are continuous poses with the direction of the motion that reached them; the closed set
 * is cells × heading bins × direction. Each expansion drives one primitive (straight, or an arc of
 * radius R either way; forward or backward) that must lie inside the field. Cost: the length
 * driven, reversing length × `REVERSE_COST`, and `CUSP_COST_RADII` × R for each change of
 * direction (stop, shift, start). The heuristic is the raster distance inside the field to the
 * goal (`goalDistance`), weighted more than the forward search's (greedier). Analytic expansion: the Reeds-Shepp,
 * Dubins and fishtail candidates of `turnCandidates` (plain arcs) that lie inside the field, cheapest by the same cost
 * first. The path found is shortened by replacing runs of primitives with such candidates where they cost
 * no more.
 *
 * The result: a dense polyline from `from` to `to` and its cusp indices (there the chords reverse,
 * which is how `checkKinematics` reads a cusp); curvature ≤ 1/R everywhere (arcs and lines).
 * `drivableReversing` makes it fit a curvature-rate limit piece by piece between cusps.
 */
import type { Region } from '../geometry/region.js';
import { checkKinematics } from '../turns/kinematics.js';
import { limitCurvatureRate } from '../turns/rateLimit.js';
import { candidateInside, turnCandidates } from '../turns/index.js';
import type { TurnSegment } from '../turns/types.js';
import type { Pose, TurnPath } from '../turns/types.js';
import { wrapPi } from '../turns/angles.js';
import { HEADING_BINS, Heap, defaultExpansions, headingBin } from './connectSearch.js';
import { goalDistance } from './fieldRaster.js';
import type { RasterWindow } from './fieldRaster.js';

export interface ReversingLimits {
  /** Minimum turning radius, meters. */
  turnRadiusMeters: number;
  /** Expansions before giving up (default: `defaultExpansions` of the distance to the goal). */
  maxExpansions?: number;
  /** Distance between output points, meters (≤ 0.5 for checkPlan). */
  sampleStepMeters?: number;
  /** Rasterise only this window for the heuristic (default: the whole field). */
  window?: RasterWindow;
  /** The caller's deadline: once true, the search gives up (returns undefined). */
  abort?: () => boolean;
}

export interface ReversingPath {
  /** x0,y0,x1,y1,… from `from` to `to`, points at most sampleStepMeters apart. */
  xy: Float64Array;
  /** Point indices where the direction of travel flips, inside the path (a start in reverse is `startsReversed`). */
  cusps: number[];
  /** Whether the first piece is driven backwards. */
  startsReversed: boolean;
  /** Whether the last piece is driven backwards. */
  endsReversed: boolean;
}

/** Reversing costs this much more per meter than driving forward. */
export const REVERSE_COST = 1.5;
/** Each change of direction costs this many turning radii of driving. */
export const CUSP_COST_RADII = 1;
/**
 * Weight of the heuristic (the forward search's is 1.2): with two directions and cusps the search
 * has many more states near the start, and with 1.2 it ran out of expansions on joins of 300-600 m
 * inside the field (br-lem-069, bg-025 at R 12 m) that it makes with 2 in a few hundred. The
 * path found is shortened afterwards.
 */
const HEURISTIC_WEIGHT = 2;
/**
 * Fewest expansions by default (`defaultExpansions` gives 8000 to a short join): backing into a
 * track start between holes took 9085 (it-tus-033 at R 12 m).
 */
const MIN_EXPANSIONS = 12000;
/** Direct candidates costed per analytic expansion (shortest first by length). */
const SHOT_CANDIDATES = 12;
/** Direct manoeuvres tried while shortening the path found. */
const MAX_SHORTEN_ATTEMPTS = 400;

/** A direct manoeuvre inside the field with its cost and its first / last driving direction (+1 / -1). */
interface Shot {
  path: TurnPath;
  costMeters: number;
  first: number;
  last: number;
}

/** Cost of a manoeuvre's pieces, and the direction of its first and last non-empty piece. */
function segmentsCost(segs: readonly TurnSegment[], cuspMeters: number): { cost: number; first: number; last: number } {
  let cost = 0,
    first = 0,
    last = 0;
  for (const g of segs) {
    if (!(g.lengthMeters > 1e-9)) continue;
    const d = g.reverse ? -1 : 1;
    if (first === 0) first = d;
    else if (d !== last) cost += cuspMeters;
    last = d;
    cost += g.lengthMeters * (g.reverse ? REVERSE_COST : 1);
  }
  return { cost, first: first || 1, last: last || 1 };
}

/**
 * The cheapest (by `segmentsCost`, a cusp where it meets the motions before and after) of the
 * shortest direct manoeuvres from `a` to `b` that lies inside the field. `dirIn` / `dirOut`: the
 * driving direction before `a` and after `b` (0: either).
 */
function directShot(
  a: Pose,
  b: Pose,
  region: Region,
  R: number,
  step: number,
  dirIn: number,
  dirOut: number,
): Shot | undefined {
  let cands: TurnPath[];
  try {
    cands = turnCandidates(a, b, {
      turnRadiusMeters: R,
      reverseAllowed: true,
      smoothing: 'Arcs',
      sampleStepMeters: step,
    });
  } catch {
    return undefined;
  }
  const cusp = CUSP_COST_RADII * R;
  const costed: Shot[] = [];
  for (let i = 0; i < cands.length && i < SHOT_CANDIDATES; i++) {
    const segs = cands[i].segments;
    if (!segs) continue;
    const c = segmentsCost(segs, cusp);
    const extra = (dirIn !== 0 && c.first !== dirIn ? cusp : 0) + (dirOut !== 0 && c.last !== dirOut ? cusp : 0);
    costed.push({ path: cands[i], costMeters: c.cost + extra, first: c.first, last: c.last });
  }
  costed.sort((p, q) => p.costMeters - q.costMeters);
  for (const s of costed) if (candidateInside(s.path, region)) return s;
  return undefined;
}

/**
 * Samples a primitive from (x, y, h): signed length s (negative: backwards), steering curvature k; the points after the
 * start.
 */
function drive(x: number, y: number, h: number, s: number, k: number, step: number, out: number[]): void {
  const n = Math.max(1, Math.ceil(Math.abs(s) / step));
  for (let i = 1; i <= n; i++) {
    const t = (s * i) / n;
    if (k === 0) out.push(x + t * Math.cos(h), y + t * Math.sin(h));
    else out.push(x + (Math.sin(h + k * t) - Math.sin(h)) / k, y - (Math.cos(h + k * t) - Math.cos(h)) / k);
  }
}

/** Closed-set key of a node: its cell (from `from`), heading class and the direction that reached it. */
function reversingKey(from: Pose, cell: number, x: number, y: number, h: number, dir: number): number {
  return (
    ((Math.floor((y - from.y) / cell) * 100003 + Math.floor((x - from.x) / cell)) * HEADING_BINS + headingBin(h)) * 2 +
    (dir > 0 ? 1 : 0)
  );
}

/**
 * Searches a path from `from` to `to` inside `region` driven forward and backward, curvature
 * ≤ 1/R throughout. The machine arrives at `from` and leaves `to` driving forward (a cusp there
 * costs as any other). Returns undefined when the budget runs out or `abort` says so.
 */
export function searchReversingConnector(
  from: Pose,
  to: Pose,
  region: Region,
  limits: ReversingLimits,
): ReversingPath | undefined {
  const R = limits.turnRadiusMeters;
  const step = limits.sampleStepMeters ?? 0.5;
  const abort = limits.abort;
  const cusp = CUSP_COST_RADII * R;
  const heuristic = goalDistance(region, to, from, limits.window);
  // Primitives: 15° of an R arc long (as the forward search's).
  const L = Math.max(0.5, (R * Math.PI) / 12);
  const maxExpansions =
    limits.maxExpansions ?? Math.max(MIN_EXPANSIONS, defaultExpansions(heuristic(from.x, from.y), L));
  const curvatures = [0, 1 / R, -1 / R];
  const cell = Math.max(0.25, L * 0.7);
  const keyOf = (x: number, y: number, h: number, dir: number): number => reversingKey(from, cell, x, y, h, dir);
  // Node store; Dir: the direction of the motion that reached the node (+1 at the start: the machine arrives forward).
  const X: number[] = [],
    Y: number[] = [],
    H: number[] = [],
    G: number[] = [],
    D: number[] = [],
    Dir: number[] = [],
    parent: number[] = [];
  const closed = new Set<number>();
  const bestG = new Map<number, number>();
  const heap = new Heap();
  const add = (x: number, y: number, h: number, g: number, dir: number, p: number): void => {
    const id = X.length;
    const d = heuristic(x, y);
    X.push(x);
    Y.push(y);
    H.push(h);
    G.push(g);
    D.push(d);
    Dir.push(dir);
    parent.push(p);
    heap.push(g + HEURISTIC_WEIGHT * d, id);
  };
  add(from.x, from.y, from.headingRadians, 0, 1, -1);
  const buf: number[] = [];
  let expansions = 0,
    pops = 0;
  let goalNode = -1;
  let goalShot: Shot | undefined;
  const near = 6 * R;
  while (heap.size > 0 && expansions < maxExpansions) {
    if (abort && (pops++ & 63) === 0 && abort()) return undefined;
    const id = heap.pop();
    const k = keyOf(X[id], Y[id], H[id], Dir[id]);
    if (closed.has(k)) continue;
    closed.add(k);
    expansions++;
    const pose = { x: X[id], y: Y[id], headingRadians: H[id] };
    // Analytic expansion: every node within 2R of the goal, every 4th within 6R, every 16th elsewhere (a shot costs a
    // dozen candidates).
    if (D[id] < 2 * R || (D[id] < near && expansions % 4 === 1) || expansions % 16 === 1) {
      const s = directShot(pose, to, region, R, step, Dir[id], 1);
      if (s) {
        goalNode = id;
        goalShot = s;
        break;
      }
    }
    for (const dir of [1, -1]) {
      for (const kappa of curvatures) {
        buf.length = 0;
        buf.push(pose.x, pose.y);
        drive(pose.x, pose.y, pose.headingRadians, dir * L, kappa, step, buf);
        if (!region.containsPolyline(buf)) continue;
        const n = buf.length;
        const x = buf[n - 2],
          y = buf[n - 1],
          h = pose.headingRadians + kappa * dir * L;
        const nk = keyOf(x, y, h, dir);
        if (closed.has(nk)) continue;
        // Curving a little dearer than straight, reversing dearer than forward, a cusp dearer still.
        const g = G[id] + L * (kappa === 0 ? 1 : 1.05) * (dir < 0 ? REVERSE_COST : 1) + (dir !== Dir[id] ? cusp : 0);
        const b = bestG.get(nk);
        if (b !== undefined && b <= g) continue;
        bestG.set(nk, g);
        add(x, y, h, g, dir, id);
      }
    }
  }
  if (goalNode < 0 || !goalShot) return undefined;

  // The chain of nodes, start to goal node; dirOut[i]: the direction driven after node i.
  const chain: number[] = [];
  for (let v = goalNode; v >= 0; v = parent[v]) chain.push(v);
  chain.reverse();
  const m = chain.length;
  const poses: Pose[] = chain.map((v) => ({ x: X[v], y: Y[v], headingRadians: H[v] }));
  const dirIn = chain.map((v) => Dir[v]);
  const dirOut = chain.map((_, i) => (i + 1 < m ? Dir[chain[i + 1]] : goalShot!.first));
  const g = chain.map((v) => G[v]);
  return shortenedReversingPath(from, to, region, { R, step, L, cusp }, { poses, dirIn, dirOut, g }, goalShot);
}

/**
 * The searched chain shortened (the goal, or the farthest later pose, straight from each pose where no dearer than
 * the chain), and put together as a polyline with its cusps. `chain`: the poses, start to goal node, the direction
 * driven into and out of each, the cost to each.
 */
function shortenedReversingPath(
  from: Pose,
  to: Pose,
  region: Region,
  sizes: { R: number; step: number; L: number; cusp: number },
  chain: { poses: Pose[]; dirIn: number[]; dirOut: number[]; g: number[] },
  goalShot: Shot,
): ReversingPath {
  const { R, step, L, cusp } = sizes;
  const { poses, dirIn, dirOut, g } = chain;
  const m = poses.length;
  const buf: number[] = [];
  const total = g[m - 1] + goalShot.costMeters;

  // Shorten, and put the polyline together with its cusps.
  const out: number[] = [from.x, from.y];
  const cusps: number[] = [];
  let lastDir = 0,
    firstDir = 0;
  const append = (part: ArrayLike<number>, partCusps: readonly number[], first: number, last: number): void => {
    const base = (out.length >> 1) - 1;
    if (lastDir !== 0 && first !== lastDir) cusps.push(base);
    if (firstDir === 0) firstDir = first;
    for (const c of partCusps) if (c > 0) cusps.push(base + c);
    for (let i = 2; i < part.length; i++) out.push(part[i]);
    lastDir = last;
  };
  let i = 0,
    attempts = 0;
  let done = false;
  while (i < m - 1 && !done) {
    // Straight to the goal from here, if no dearer than the rest of the path found.
    const direct =
      attempts++ < MAX_SHORTEN_ATTEMPTS ? directShot(poses[i], to, region, R, step, dirIn[i], 1) : undefined;
    if (direct && direct.costMeters <= total - g[i] + 1e-9) {
      append(direct.path.points, direct.path.cusps, direct.first, direct.last);
      done = true;
      break;
    }
    let j = m - 1,
      joined = false;
    for (; j > i + 1 && attempts < MAX_SHORTEN_ATTEMPTS; j = Math.max(i + 1, Math.floor((i + j) / 2))) {
      attempts++;
      const s = directShot(poses[i], poses[j], region, R, step, dirIn[i], dirOut[j]);
      const chainCost = g[j] - g[i] + (dirIn[j] !== dirOut[j] ? cusp : 0);
      if (s && s.costMeters <= chainCost + 1e-9) {
        append(s.path.points, s.path.cusps, s.first, s.last);
        joined = true;
        break;
      }
      if (j === i + 2) {
        j = i + 1;
        break;
      }
    }
    if (!joined) {
      // One primitive, exactly as the search drove it.
      j = i + 1;
      const p = poses[i],
        q = poses[j],
        dir = dirIn[j];
      const kappa = wrapPi(q.headingRadians - p.headingRadians) / (dir * L);
      buf.length = 0;
      buf.push(p.x, p.y);
      drive(p.x, p.y, p.headingRadians, dir * L, Math.abs(kappa) < 1e-9 ? 0 : kappa, step, buf);
      // Land exactly on the stored pose.
      buf[buf.length - 2] = q.x;
      buf[buf.length - 1] = q.y;
      append(buf, [], dir, dir);
    }
    i = j;
  }
  if (!done) append(goalShot.path.points, goalShot.path.cusps, goalShot.first, goalShot.last);
  const xy = Float64Array.from(out);
  xy[xy.length - 2] = to.x;
  xy[xy.length - 1] = to.y;
  return { xy, cusps, startsReversed: firstDir < 0, endsReversed: lastDir < 0 };
}

/** The pieces of a polyline between its cusps (each cusp point ends one piece and starts the next). */
function piecesBetween(xy: Float64Array, cusps: readonly number[]): Float64Array[] {
  const n = xy.length >> 1;
  const cuts = [0, ...cusps.filter((c) => c > 0 && c < n - 1), n - 1];
  const out: Float64Array[] = [];
  for (let k = 1; k < cuts.length; k++) if (cuts[k] > cuts[k - 1]) out.push(xy.slice(2 * cuts[k - 1], 2 * cuts[k] + 2));
  return out;
}

/** Heading of the chord from point a to point b of a flat polyline. */
function chordHeading(xy: ArrayLike<number>, a: number, b: number): number {
  return Math.atan2(xy[2 * b + 1] - xy[2 * a + 1], xy[2 * b] - xy[2 * a]);
}

/**
 * Tangent at point a towards b, c (its two neighbours on one side): the chord a→b less half the turn to b→c
 * (exact on a
 * circle sampled at equal steps).
 */
function tangentAt(xy: ArrayLike<number>, a: number, b: number, c: number): number {
  const h1 = chordHeading(xy, a, b),
    h2 = chordHeading(xy, b, c);
  return h1 - 0.5 * Math.atan2(Math.sin(h2 - h1), Math.cos(h2 - h1));
}

/**
 * The path drivable as `checkPlan` measures it — curvature ≤ 1/R, heading continuity, each cusp a
 * straight reversal and, with a rate limit σ, curvature rate ≤ σ on every piece between cusps (the
 * machine stops at a cusp: curvature may change there) — with a meter of the pieces before and
 * after (straight along the end poses). As it is when it already is; else, with σ, each piece
 * between cusps redrawn with clothoid transitions (`limitCurvatureRate`, its end points and
 * tangents kept) and checked again, inside the field. Undefined when neither fits.
 */
export function drivableReversing(
  path: ReversingPath,
  from: Pose,
  to: Pose,
  region: Region,
  R: number,
  sigma: number | undefined,
): Float64Array | undefined {
  const fits = (xy: Float64Array): boolean =>
    checkKinematics(withStraightEnds(xy, from, to), {
      turnRadiusMeters: R,
      reverseAllowed: true,
      ...(sigma !== undefined ? { maxCurvatureRatePerSquareMeter: sigma } : {}),
      curvatureTolerance: 0.04,
      rateTolerance: 0.03,
      minLegMeters: 0.4,
    }).length === 0;
  if (fits(path.xy)) return path.xy;
  if (sigma === undefined) return undefined;
  const out: number[] = [];
  const pieces = piecesBetween(path.xy, path.cusps);
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k];
    const n = piece.length >> 1;
    let drawn: ArrayLike<number> = piece;
    if (n >= 3) {
      // The tangents at the piece's ends along its travel: the end poses' at the ends of the path,
      // else read off the end chords (exact on arcs sampled at equal steps).
      const h0 = k === 0 ? from.headingRadians + (path.startsReversed ? Math.PI : 0) : tangentAt(piece, 0, 1, 2);
      const h1 =
        k === pieces.length - 1
          ? to.headingRadians + (path.endsReversed ? Math.PI : 0)
          : tangentAt(piece, n - 1, n - 2, n - 3) + Math.PI;
      const smooth = limitCurvatureRate(piece, {
        maxCurvatureRatePerSquareMeter: sigma,
        maxCurvaturePerMeter: 1 / R,
        startHeadingRadians: h0,
        endHeadingRadians: h1,
        maxDeviationMeters: 1,
      });
      if (smooth) drawn = smooth;
    }
    for (let i = out.length === 0 ? 0 : 2; i < drawn.length; i++) out.push(drawn[i]);
  }
  const xy = Float64Array.from(out);
  return fits(xy) && region.containsPolyline(xy) ? xy : undefined;
}

/**
 * The polyline with a meter of straight before and after (every 0.25 m) along the end poses' headings (the pieces it
 * joins).
 */
function withStraightEnds(xy: Float64Array, from: Pose, to: Pose): Float64Array {
  const n = xy.length;
  const out = new Float64Array(n + 16);
  for (let k = 0; k < 4; k++) {
    const d = 1 - 0.25 * k;
    out[2 * k] = xy[0] - d * Math.cos(from.headingRadians);
    out[2 * k + 1] = xy[1] - d * Math.sin(from.headingRadians);
  }
  out.set(xy, 8);
  for (let k = 1; k <= 4; k++) {
    out[n + 6 + 2 * k] = xy[n - 2] + 0.25 * k * Math.cos(to.headingRadians);
    out[n + 7 + 2 * k] = xy[n - 1] + 0.25 * k * Math.sin(to.headingRadians);
  }
  return out;
}
