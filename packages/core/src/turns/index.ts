/**
 * Turns: curvature-limited manoeuvres between poses.
 *
 * `turnCandidates(from, to, opts)` lists feasible manoeuvres sorted by length; the route stage
 * takes the first that stays inside the field. Poses are in the local metric frame, heading
 * in radians CCW from +x. See docs/turns.md.
 */
import { PlanError } from '../errors.js';
import type { SmoothingStrategyType, TurnType } from '../types.js';
import { wrapPi } from './angles.js';
import { sampleSegments, sampledPointCount, segmentCusps, segmentsEndPose, segmentsLength } from './segments.js';
import { plainShapeScratch, turnDisplacement, turnLengthMeters, turnShape, type TurnShape } from './shape.js';
import type { Pose, TurnOptions, TurnPath, TurnSegment } from './types.js';
import { fieldBulb, fieldThreePoint } from './fieldTurns.js';
import { reedsSheppSolutions } from './reedsShepp.js';
import {
  pushStraight,
  pushTurn,
  SLOT_STRIDE,
  SLOT_WORDS,
  slotSegments,
  solveWords,
  WORD_SLOTS,
  type DubinsWord,
} from './words.js';

export type { Pose, TurnOptions, TurnPath, TurnSegment } from './types.js';
export type { SampledPath } from './segments.js';
export { sampleSegments, segmentsLength, segmentsEndPose } from './segments.js';
export type { TurnShape } from './shape.js';
export { turnShape, turnLengthMeters, turnDisplacement, halfTurnDisplacement } from './shape.js';
export type { DubinsWord } from './words.js';
export { reedsSheppLengthMeters, reedsSheppSolutions, type ReedsSheppSolution } from './reedsShepp.js';
export {
  uTurnLengthMeters,
  bulbTurnLengthMeters,
  bulbTurnExtentMeters,
  fishtailTurnLengthMeters,
  predictFieldTurns,
  fieldBulb,
  fieldThreePoint,
  type FieldBulb,
  type FieldThreePoint,
  type FieldTurnPrediction,
  type FieldTurnOptions,
} from './fieldTurns.js';

const DEFAULT_STEP_METERS = 0.5;
/** Finer sampling only multiplies points (memory) without telling more about a turn. */
const MIN_STEP_METERS = 0.01;
/** A sampled candidate must reach the target this closely before its last point is snapped. */
const END_POSITION_TOLERANCE_METERS = 1e-6;
const END_HEADING_TOLERANCE_RADIANS = 1e-7;

interface ResolvedOptions {
  radiusMeters: number;
  sigma: number;
  stepMeters: number;
  reverseAllowed: boolean;
  smoothing: SmoothingStrategyType;
  shape: TurnShape;
}

function fail(path: string, message: string): never {
  throw new PlanError('invalid-option', message, [{ path, message }]);
}

/** Validates options; throws PlanError('invalid-option') naming the bad field. */
export function resolveTurnOptions(opts: TurnOptions): ResolvedOptions {
  const R = opts.turnRadiusMeters;
  if (!(R > 0) || !Number.isFinite(R))
    fail('turnRadiusMeters', `turnRadiusMeters must be a finite number > 0, got ${R}`);
  const sigmaIn = opts.maxCurvatureRatePerSquareMeter;
  if (sigmaIn !== undefined && !(sigmaIn > 0))
    fail('maxCurvatureRatePerSquareMeter', `maxCurvatureRatePerSquareMeter must be > 0 (or omitted), got ${sigmaIn}`);
  const step = opts.sampleStepMeters ?? DEFAULT_STEP_METERS;
  if (!(step >= MIN_STEP_METERS) || !Number.isFinite(step))
    fail('sampleStepMeters', `sampleStepMeters must be a finite number ≥ ${MIN_STEP_METERS} m, got ${step}`);
  const smoothing = opts.smoothing ?? (sigmaIn !== undefined && sigmaIn < Infinity ? 'Clothoids' : 'Arcs');
  if (smoothing !== 'None' && smoothing !== 'Arcs' && smoothing !== 'Clothoids')
    fail('smoothing', `smoothing must be None, Arcs or Clothoids, got ${String(smoothing)}`);
  const sigma = smoothing === 'Clothoids' ? (sigmaIn ?? Infinity) : Infinity;
  return {
    radiusMeters: R,
    sigma,
    stepMeters: step,
    reverseAllowed: opts.reverseAllowed === true,
    smoothing,
    shape: turnShape(R, sigma),
  };
}

function checkPose(p: Pose, name: string): void {
  if (!p || !Number.isFinite(p.x) || !Number.isFinite(p.y) || !Number.isFinite(p.headingRadians))
    throw new PlanError('invalid-request', `${name} pose must have finite x, y, headingRadians`, [
      { path: name, message: 'non-finite pose' },
    ]);
}

interface Candidate {
  turnType: TurnType;
  word: string;
  lengthMeters: number;
  segments: TurnSegment[];
}

/** Relative geometry of the target in the start frame. */
interface Relative {
  /** Heading of `to` is `from`'s reversed (parallel tracks, opposite directions). */
  opposite: boolean;
  along: number;
  lateral: number;
  /** |heading of to − heading of from| folded into [0, π]. */
  heading: number;
}

function relative(from: Pose, to: Pose): Relative {
  const c = Math.cos(from.headingRadians);
  const s = Math.sin(from.headingRadians);
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  return {
    opposite: Math.abs(wrapPi(to.headingRadians - from.headingRadians - Math.PI)) < 1e-9,
    along: dx * c + dy * s,
    lateral: -dx * s + dy * c,
    heading: Math.abs(wrapPi(to.headingRadians - from.headingRadians)),
  };
}

/**
 * Field-turn name of a forward manoeuvre between opposite-parallel poses: turning by π toward
 * the other track only (U; PerfectU when it is one semicircle with no straight), or away,
 * around and back (Bulb). Anything else, or other poses: 'Dubins'.
 */
function classifyForward(segs: readonly TurnSegment[], rel: Relative): TurnType {
  if (!rel.opposite) return rel.heading > 1e-9 && loops(segs, rel.heading) ? 'PTurn' : 'Dubins';
  if (Math.abs(rel.lateral) < 1e-9) return 'Dubins';
  const side = rel.lateral > 0 ? 1 : -1;
  let total = 0;
  let straight = false;
  let away = false;
  let firstSide = 0;
  let lastSide = 0;
  for (const g of segs) {
    if (g.reverse) return 'Dubins';
    const k0 = g.startCurvaturePerMeter;
    const k1 = g.endCurvaturePerMeter;
    total += 0.5 * (k0 + k1) * g.lengthMeters;
    if (k0 === 0 && k1 === 0) straight = true;
    if (k0 * side < 0 || k1 * side < 0) away = true;
    const k = k0 !== 0 ? k0 : k1;
    if (k !== 0) {
      if (firstSide === 0) firstSide = Math.sign(k);
      lastSide = Math.sign(k);
    }
  }
  if (Math.abs(total - side * Math.PI) > 1e-6) return 'Dubins';
  if (!away) return straight ? 'U' : 'PerfectU';
  return !straight && firstSide === -side && lastSide === -side ? 'Bulb' : 'Dubins';
}

/**
 * A forward path that turns the long way round: its heading changes by more than π in total
 * while the poses differ by `headingRadians` (0 < |Δh| < π): the P-turn (or loop) used where
 * a headland meets the tracks at a sharp angle.
 */
function loops(segs: readonly TurnSegment[], headingRadians: number): boolean {
  let total = 0;
  for (const g of segs) {
    if (g.reverse) return false;
    total += 0.5 * (g.startCurvaturePerMeter + g.endCurvaturePerMeter) * g.lengthMeters;
  }
  return Math.abs(total) > Math.PI + 1e-9 && Math.abs(total) < 2 * Math.PI + headingRadians;
}

/** Same pieces (after merging), within 1e-9 m / 1e-12 per meter. */
function samePieces(a: readonly TurnSegment[], b: readonly TurnSegment[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const p = a[i];
    const q = b[i];
    if (p.reverse !== q.reverse) return false;
    if (Math.abs(p.lengthMeters - q.lengthMeters) > 1e-9) return false;
    if (Math.abs(p.startCurvaturePerMeter - q.startCurvaturePerMeter) > 1e-12) return false;
    if (Math.abs(p.endCurvaturePerMeter - q.endCurvaturePerMeter) > 1e-12) return false;
  }
  return true;
}

const scratch = new Float64Array(WORD_SLOTS * SLOT_STRIDE);

function dubinsCandidates(from: Pose, to: Pose, shape: TurnShape, rel: Relative, into: Candidate[]): void {
  solveWords(from.x, from.y, from.headingRadians, to.x, to.y, to.headingRadians, shape, scratch);
  for (let slot = 0; slot < WORD_SLOTS; slot++) {
    const len = scratch[slot * SLOT_STRIDE];
    if (!(len < Infinity)) continue;
    const word = SLOT_WORDS[slot];
    const segments = slotSegments(slot, scratch, shape);
    into.push({ turnType: classifyForward(segments, rel), word, lengthMeters: len, segments });
  }
}

/**
 * Classic field turns between opposite-parallel poses whose ends need not be aligned:
 * [straight] quarter turn, straight across, quarter turn [straight]. Forward when the spacing
 * allows (U), else with the crossing straight driven in reverse (Fishtail, reverse only).
 */
function fieldCandidates(shape: TurnShape, rel: Relative, reverseAllowed: boolean, into: Candidate[]): void {
  if (!rel.opposite) return;
  const w = Math.abs(rel.lateral);
  if (w < 1e-9) return;
  const side = rel.lateral > 0 ? 1 : -1;
  const quarter = turnLengthMeters(shape, Math.PI / 2);
  if (!Number.isFinite(quarter)) return;
  const a = turnDisplacement(shape, Math.PI / 2)[0];
  const cross = w - 2 * a;
  const aligned = Math.abs(rel.along) < 1e-9;
  const e = aligned ? 0 : rel.along;
  const forward = cross >= -1e-9;
  const c = side > 0 ? 'L' : 'R';
  const o = side > 0 ? 'R' : 'L';
  if (!forward) {
    // Bulb (also where CC-Dubins has none: elementary outer turns), with straight extensions.
    const bulb = fieldBulb(shape, w);
    if (bulb) {
      const segs: TurnSegment[] = [];
      if (e > 0) pushStraight(segs, e);
      const d1 = bulb.outerDeflectionRadians;
      const outer = d1 > 0 ? -side : side;
      pushTurn(segs, shape, outer, Math.abs(d1));
      pushTurn(segs, shape, side, bulb.middleDeflectionRadians);
      pushTurn(segs, shape, outer, Math.abs(d1));
      if (e < 0) pushStraight(segs, -e);
      const oc = d1 > 0 ? o : c;
      const word = `${e > 0 ? 'S' : ''}${oc}${c}${oc}${e < 0 ? 'S' : ''}`;
      into.push({ turnType: d1 > 0 ? 'Bulb' : 'U', word, lengthMeters: segmentsLength(segs), segments: segs });
    }
  }
  if (reverseAllowed) {
    // Three-point turn: forward away, reverse toward, forward away (C+C−C+), with extensions.
    const k = fieldThreePoint(shape, w);
    if (k) {
      const segs: TurnSegment[] = [];
      if (e > 0) pushStraight(segs, e);
      pushTurn(segs, shape, -side, k.outerDeflectionRadians);
      pushTurn(segs, shape, side, k.middleDeflectionRadians, true);
      pushTurn(segs, shape, -side, k.outerDeflectionRadians);
      if (e < 0) pushStraight(segs, -e);
      const word = `${e > 0 ? 'S+' : ''}${o}+${c}-${o}+${e < 0 ? 'S+' : ''}`;
      into.push({ turnType: 'Fishtail', word, lengthMeters: segmentsLength(segs), segments: segs });
    }
  }
  // The aligned forward U is usually the Dubins CSC word already (dropped as a duplicate then),
  // but not where a quarter turn is below the CC minimum deflection.
  if (!forward && !reverseAllowed) return;
  const segs: TurnSegment[] = [];
  if (e > 0) pushStraight(segs, e);
  pushTurn(segs, shape, side, Math.PI / 2);
  pushStraight(segs, Math.abs(cross), !forward);
  pushTurn(segs, shape, side, Math.PI / 2);
  if (e < 0) pushStraight(segs, -e);
  const type: TurnType = forward ? classifyForward(segs, rel) : 'Fishtail';
  const word = `${e > 0 ? 'S' : ''}${c}${forward ? 'S' : 'S-'}${c}${e < 0 ? 'S' : ''}`;
  into.push({ turnType: type, word, lengthMeters: segmentsLength(segs), segments: segs });
}

/**
 * A TurnPath whose points are sampled on first access (the route stage usually looks at the
 * first one or two candidates only). `points` is a getter on the prototype: read it as
 * `path.points`; `JSON.stringify` includes it through `toJSON`.
 */
class LazyTurnPath implements TurnPath {
  readonly turnType: TurnType;
  readonly lengthMeters: number;
  readonly cusps: number[];
  readonly startsReversed: boolean;
  readonly word: string;
  readonly segments: TurnSegment[];
  private readonly from: Pose;
  private readonly to: Pose;
  private readonly stepMeters: number;
  private sampled: Float64Array | undefined;

  constructor(from: Pose, to: Pose, c: Candidate, stepMeters: number) {
    this.turnType = c.turnType;
    this.lengthMeters = c.lengthMeters;
    this.segments = c.segments;
    this.cusps = segmentCusps(c.segments, stepMeters);
    this.startsReversed = c.segments.length > 0 && c.segments[0].reverse;
    this.word = c.word;
    // Copies: a caller may reuse its pose objects before reading `points`.
    this.from = { x: from.x, y: from.y, headingRadians: from.headingRadians };
    this.to = { x: to.x, y: to.y, headingRadians: to.headingRadians };
    this.stepMeters = stepMeters;
    this.sampled = undefined;
  }

  get points(): Float64Array {
    if (this.sampled === undefined)
      this.sampled = sampleSegments(this.from, this.segments, this.stepMeters, this.to).points;
    return this.sampled;
  }

  set points(value: Float64Array) {
    this.sampled = value;
  }

  /** `candidateInside`: sampled into the shared buffer first, kept (copied) only if inside. */
  inside(region: PolylineTest): boolean {
    if (this.sampled !== undefined) return region.containsPolyline(this.sampled);
    const total = sampledPointCount(this.segments, this.stepMeters);
    const need = 2 * total;
    if (sampleBuffer.length < need) sampleBuffer = new Float64Array(Math.max(need, 2 * sampleBuffer.length));
    if (region.beginPolyline === undefined || region.polylineRunClear === undefined) {
      const view = sampleSegments(this.from, this.segments, this.stepMeters, this.to, sampleBuffer).points;
      if (!region.containsPolyline(view)) return false;
      this.sampled = view.slice();
      return true;
    }
    // The cheapest rejection first: each run of points tested as soon as it is sampled (most
    // candidates that do not fit leave the field in their first arc), the last point only once
    // `to` is snapped onto it.
    if (!region.beginPolyline(this.from.x, this.from.y, total)) return false;
    run.region = region;
    run.tested = 0;
    run.total = total;
    run.clear = true;
    const view = sampleSegments(
      this.from,
      this.segments,
      this.stepMeters,
      this.to,
      sampleBuffer,
      stopAtCrossing,
    ).points;
    run.region = undefined;
    if (!run.clear) return false;
    if (total - 1 > run.tested && !region.polylineRunClear(sampleBuffer.subarray(2 * run.tested, 2 * total)))
      return false;
    this.sampled = view.slice();
    return true;
  }

  toJSON(): TurnPath {
    return {
      turnType: this.turnType,
      lengthMeters: this.lengthMeters,
      points: this.points,
      cusps: this.cusps,
      startsReversed: this.startsReversed,
      word: this.word,
      segments: this.segments,
    };
  }
}

/**
 * What a candidate is tested against (geometry/region.ts `Region`): it reads the points there and then, and keeps no
 * reference to them.
 */
export interface PolylineTest {
  containsPolyline(xy: ArrayLike<number>): boolean;
  /** Where the test can be made in pieces (Region): the first point and the work of the whole, then runs. */
  beginPolyline?(x: number, y: number, pointCount: number): boolean;
  polylineRunClear?(xy: ArrayLike<number>): boolean;
}

/**
 * Whether the candidate's points lie inside `region`. A candidate not sampled yet is sampled into a
 * buffer shared by all candidates and keeps its points (a copy) only when they lie inside: the route
 * stage tests tens of thousands of candidates and keeps a few thousand (1,000 ha field at W 3 m:
 * 132 MB of sampled points in the ordering on real connectors, nearly all of them rejected).
 */
export function candidateInside(path: TurnPath, region: PolylineTest): boolean {
  return path instanceof LazyTurnPath ? path.inside(region) : region.containsPolyline(path.points);
}

/**
 * A piece this short driven between two changes of direction (or between one and the path's end) is
 * no manoeuvre: a gear change to creep a few centimetres, which the sampled path draws as a chord too
 * short to carry its heading (checkPlan reads a kink at the cusp). A Reeds-Shepp word with one ranks
 * as if it were this much longer: a path without it is usually millimetres longer (the word without the
 * stub, or a forward one); between two poses a hair apart the stubs are the whole manoeuvre, and stay.
 */
const MIN_CUSP_PIECE_METERS = 0.05;

function hasStubAtCusp(all: readonly TurnSegment[]): boolean {
  const segments = all.filter((s) => s.lengthMeters > 1e-9);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    const cuspBefore = i > 0 && segments[i - 1].reverse !== s.reverse;
    const cuspAfter = i + 1 < segments.length && segments[i + 1].reverse !== s.reverse;
    if ((cuspBefore || cuspAfter) && s.lengthMeters < MIN_CUSP_PIECE_METERS) return true;
  }
  return false;
}

/** The shared sampling buffer of `candidateInside` (grown as needed). */
let sampleBuffer = new Float64Array(4096);

/** The candidate being tested run by run (`LazyTurnPath.inside`): no closure per candidate. */
const run: { region: PolylineTest | undefined; tested: number; total: number; clear: boolean } = {
  region: undefined,
  tested: 0,
  total: 0,
  clear: true,
};

/** `sampleSegments`' stop: the points written since the last run tested, but the last, clear of the region's edges? */
function stopAtCrossing(written: number): boolean {
  const end = Math.min(written, run.total - 1) - 1;
  if (end <= run.tested) return false;
  run.clear = run.region!.polylineRunClear!(sampleBuffer.subarray(2 * run.tested, 2 * end + 2));
  run.tested = end;
  return !run.clear;
}

/** The candidate as a TurnPath, or undefined if its pieces do not reach `to` (checked without sampling). */
function toTurnPath(from: Pose, to: Pose, c: Candidate, stepMeters: number): TurnPath | undefined {
  const end = segmentsEndPose(from, c.segments);
  const dx = end.x - to.x;
  const dy = end.y - to.y;
  if (dx * dx + dy * dy > END_POSITION_TOLERANCE_METERS * END_POSITION_TOLERANCE_METERS) return undefined;
  if (Math.abs(wrapPi(end.headingRadians - to.headingRadians)) > END_HEADING_TOLERANCE_RADIANS) return undefined;
  return new LazyTurnPath(from, to, c, stepMeters);
}

/**
 * Feasible manoeuvres from `from` to `to`, shortest first: every feasible Dubins / CC-Dubins
 * word (classified U, PerfectU, Bulb where the poses are opposite-parallel, else Dubins),
 * the classic U with straight extensions, and with `reverseAllowed` the Fishtail and
 * Reeds-Shepp paths. Each is sampled with a point at least every `sampleStepMeters`; the
 * first point is exactly `from`, the last exactly `to`. Throws PlanError on bad options. `limit`: the first that
 * many only (a caller that reads no more: the same paths, the rest not made).
 */
export function turnCandidates(from: Pose, to: Pose, opts: TurnOptions, limit = Infinity): TurnPath[] {
  const o = resolveTurnOptions(opts);
  checkPose(from, 'from');
  checkPose(to, 'to');
  const rel = relative(from, to);
  const cands: Candidate[] = [];
  // Straight ahead: no turn at all.
  if (
    Math.abs(wrapPi(to.headingRadians - from.headingRadians)) < 1e-9 &&
    Math.abs(rel.lateral) < 1e-9 &&
    rel.along >= 0
  ) {
    const segs: TurnSegment[] = [];
    pushStraight(segs, rel.along);
    cands.push({ turnType: 'Dubins', word: 'S', lengthMeters: rel.along, segments: segs });
  }
  dubinsCandidates(from, to, o.shape, rel, cands);
  fieldCandidates(o.shape, rel, o.reverseAllowed, cands);
  // Reeds-Shepp paths with at least one reversed piece (the forward-only ones are Dubins words).
  // They are arcs and straights: offered only where curvature may jump (no clothoid smoothing).
  if (o.reverseAllowed && o.shape.curvatureRatePerSquareMeter === Infinity) {
    for (const rs of reedsSheppSolutions(from, to, o.radiusMeters)) {
      if (!rs.segments.some((g) => g.reverse)) continue;
      cands.push({ turnType: 'ReedsShepp', word: rs.word, lengthMeters: rs.lengthMeters, segments: rs.segments });
    }
  }
  // A path that creeps a stub at a cusp ranks as if it were MIN_CUSP_PIECE_METERS longer.
  const rank = (c: Candidate): number =>
    c.turnType === 'ReedsShepp' && hasStubAtCusp(c.segments) ? c.lengthMeters + MIN_CUSP_PIECE_METERS : c.lengthMeters;
  cands.sort((p, q) => rank(p) - rank(q));
  const paths: TurnPath[] = [];
  const kept: Candidate[] = [];
  for (const c of cands) {
    if (paths.length >= limit) break;
    let dup = false;
    for (let i = kept.length - 1; i >= 0 && kept[i].lengthMeters > c.lengthMeters - 1e-9; i--) {
      if (samePieces(kept[i].segments, c.segments)) dup = true;
    }
    if (dup) continue;
    const p = toTurnPath(from, to, c, o.stepMeters);
    if (p) {
      paths.push(p);
      kept.push(c);
    }
  }
  return paths;
}

export interface DubinsSolution {
  word: DubinsWord;
  lengthMeters: number;
  segments: TurnSegment[];
}

/** Shortest Dubins path (plain arcs), as pieces; undefined only for non-finite input. */
export function shortestDubins(from: Pose, to: Pose, radiusMeters: number): DubinsSolution | undefined {
  const shape = turnShape(radiusMeters, Infinity);
  const best = solveWords(from.x, from.y, from.headingRadians, to.x, to.y, to.headingRadians, shape, scratch);
  if (best < 0) return undefined;
  return {
    word: SLOT_WORDS[best],
    lengthMeters: scratch[best * SLOT_STRIDE],
    segments: slotSegments(best, scratch, shape),
  };
}

/** Length of the shortest Dubins path, meters, without building or sampling it (no allocation). */
export function dubinsLengthMeters(from: Pose, to: Pose, radiusMeters: number): number {
  const shape = plainShapeScratch(radiusMeters);
  const best = solveWords(from.x, from.y, from.headingRadians, to.x, to.y, to.headingRadians, shape, scratch);
  return best < 0 ? NaN : scratch[best * SLOT_STRIDE];
}

/**
 * Length of the shortest CC-Dubins path (clothoid transitions, curvature rate ≤ σ), meters,
 * without sampling; NaN when no CC word fits (every word needs deflections ≥ κ²/σ).
 */
export function ccDubinsLengthMeters(
  from: Pose,
  to: Pose,
  radiusMeters: number,
  maxCurvatureRatePerSquareMeter: number,
): number {
  const shape = turnShape(radiusMeters, maxCurvatureRatePerSquareMeter);
  const best = solveWords(from.x, from.y, from.headingRadians, to.x, to.y, to.headingRadians, shape, scratch);
  return best < 0 ? NaN : scratch[best * SLOT_STRIDE];
}

/** The shortest Dubins path from `from` to `to`, sampled (a TurnPath), or undefined. */
export function dubinsPath(
  from: Pose,
  to: Pose,
  radiusMeters: number,
  sampleStepMeters = DEFAULT_STEP_METERS,
): TurnPath | undefined {
  const sol = shortestDubins(from, to, radiusMeters);
  if (!sol) return undefined;
  const type = classifyForward(sol.segments, relative(from, to));
  return toTurnPath(
    from,
    to,
    { turnType: type, word: sol.word, lengthMeters: sol.lengthMeters, segments: sol.segments },
    sampleStepMeters,
  );
}
