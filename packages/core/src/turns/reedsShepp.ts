/**
 * Reeds-Shepp paths (Reeds & Shepp 1990): the shortest paths of a car that may reverse, in
 * the 48 words of five families (CSC, CCC, CCCC, CCSC, CCSCC), each obtained from a base
 * formula by time-flip (drive it backwards), reflection (swap left and right) and, for CCC
 * and CCSC, backwards reading. Formulas follow the paper (8.1-8.11, with the two published
 * typos corrected as in OMPL's implementation). Unit radius internally; lengths scaled by R.
 *
 * Hot path: `solveReedsShepp` allocates nothing; each solution is a record of 7 numbers in
 * `out`: [pattern index, p0..p4, total length]; p = signed arc angle (C) or length (S) in
 * radius units, negative = driven in reverse.
 */
import { wrapPi } from './angles.js';
import type { TurnSegment } from './types.js';
import type { Pose } from './types.js';
import { push } from './words.js';

const PI = Math.PI;
const HALF_PI = Math.PI / 2;
const ZERO = 10 * Number.EPSILON;

/** Letters of the 18 patterns (0 = none, 1 = L, 2 = S, 3 = R). */
const L = 1;
const S = 2;
const R = 3;
export const RS_PATTERNS: readonly (readonly number[])[] = [
  [L, R, L, 0, 0],
  [R, L, R, 0, 0],
  [L, R, L, R, 0],
  [R, L, R, L, 0],
  [L, R, S, L, 0],
  [R, L, S, R, 0],
  [L, S, R, L, 0],
  [R, S, L, R, 0],
  [L, R, S, R, 0],
  [R, L, S, L, 0],
  [R, S, R, L, 0],
  [L, S, L, R, 0],
  [L, S, R, 0, 0],
  [R, S, L, 0, 0],
  [L, S, L, 0, 0],
  [R, S, R, 0, 0],
  [L, R, S, L, R],
  [R, L, S, R, L],
];

/** Stride of a solution record in `out`. */
export const RS_STRIDE = 7;
/** Upper bound of solutions per query. */
export const RS_MAX_SOLUTIONS = 48;

// Results of the base formulas (module scratch: no allocation).
let T = 0;
let U = 0;
let V = 0;

let outBuf: Float64Array;
let count = 0;

function emit(pattern: number, a: number, b: number, c: number, d: number, e: number): void {
  const o = count * RS_STRIDE;
  outBuf[o] = pattern;
  outBuf[o + 1] = a;
  outBuf[o + 2] = b;
  outBuf[o + 3] = c;
  outBuf[o + 4] = d;
  outBuf[o + 5] = e;
  outBuf[o + 6] = Math.abs(a) + Math.abs(b) + Math.abs(c) + Math.abs(d) + Math.abs(e);
  count++;
}

function tauOmega(u: number, v: number, xi: number, eta: number, phi: number): void {
  const delta = wrapPi(u - v);
  const A = Math.sin(u) - Math.sin(delta);
  const B = Math.cos(u) - Math.cos(delta) - 1;
  const t1 = Math.atan2(eta * A - xi * B, xi * A + eta * B);
  const t2 = 2 * (Math.cos(delta) - Math.cos(v) - Math.cos(u)) + 3;
  T = t2 < 0 ? wrapPi(t1 + PI) : wrapPi(t1);
  V = wrapPi(T - u + v - phi);
}

// 8.1
function lpSpLp(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const a = x - sp;
  const b = y - 1 + cp;
  U = Math.sqrt(a * a + b * b);
  T = Math.atan2(b, a);
  if (T >= -ZERO) {
    V = wrapPi(phi - T);
    return V >= -ZERO;
  }
  return false;
}

// 8.2
function lpSpRp(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const a = x + sp;
  const b = y - 1 - cp;
  const u1 = a * a + b * b;
  if (u1 < 4) return false;
  U = Math.sqrt(u1 - 4);
  T = wrapPi(Math.atan2(b, a) + Math.atan2(2, U));
  V = wrapPi(T - phi);
  return T >= -ZERO && V >= -ZERO;
}

// 8.3 / 8.4
function lpRmL(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const xi = x - sp;
  const eta = y - 1 + cp;
  const u1 = Math.sqrt(xi * xi + eta * eta);
  if (u1 > 4) return false;
  const theta = Math.atan2(eta, xi);
  U = -2 * Math.asin(0.25 * u1);
  T = wrapPi(theta + 0.5 * U + PI);
  V = wrapPi(phi - T + U);
  return T >= -ZERO && U <= ZERO;
}

// 8.7
function lpRupLumRm(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const xi = x + sp;
  const eta = y - 1 - cp;
  const rho = 0.25 * (2 + Math.sqrt(xi * xi + eta * eta));
  if (rho > 1) return false;
  U = Math.acos(rho);
  tauOmega(U, -U, xi, eta, phi);
  return T >= -ZERO && V <= ZERO;
}

// 8.8
function lpRumLumRp(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const xi = x + sp;
  const eta = y - 1 - cp;
  const rho = (20 - xi * xi - eta * eta) / 16;
  if (rho < 0 || rho > 1) return false;
  U = -Math.acos(rho);
  if (U < -HALF_PI) return false;
  tauOmega(U, U, xi, eta, phi);
  return T >= -ZERO && V >= -ZERO;
}

// 8.9
function lpRmSmLm(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const xi = x - sp;
  const eta = y - 1 + cp;
  const rho = Math.sqrt(xi * xi + eta * eta);
  if (rho < 2) return false;
  const theta = Math.atan2(eta, xi);
  const r = Math.sqrt(rho * rho - 4);
  U = 2 - r;
  T = wrapPi(theta + Math.atan2(r, -2));
  V = wrapPi(phi - HALF_PI - T);
  return T >= -ZERO && U <= ZERO && V <= ZERO;
}

// 8.10
function lpRmSmRm(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const xi = x + sp;
  const eta = y - 1 - cp;
  const rho = Math.sqrt(-eta * -eta + xi * xi);
  if (rho < 2) return false;
  T = Math.atan2(xi, -eta);
  U = 2 - rho;
  V = wrapPi(T + HALF_PI - phi);
  return T >= -ZERO && U <= ZERO && V <= ZERO;
}

// 8.11
function lpRmSLmRp(x: number, y: number, phi: number, sp: number, cp: number): boolean {
  const xi = x + sp;
  const eta = y - 1 - cp;
  const rho = Math.sqrt(xi * xi + eta * eta);
  if (rho < 2) return false;
  U = 4 - Math.sqrt(rho * rho - 4);
  if (U > ZERO) return false;
  T = wrapPi(Math.atan2((4 - U) * xi - 2 * eta, -2 * xi + (U - 4) * eta));
  V = wrapPi(T - phi);
  return T >= -ZERO && V >= -ZERO;
}

/**
 * All Reeds-Shepp solutions from the origin (heading 0) to (x, y, phi) on the unit circle.
 * Writes records into `out` (length ≥ RS_MAX_SOLUTIONS·RS_STRIDE); returns their count.
 */
export function solveReedsShepp(x: number, y: number, phi: number, out: Float64Array): number {
  outBuf = out;
  count = 0;
  const sp = Math.sin(phi);
  const cp = Math.cos(phi);
  // CSC
  if (lpSpLp(x, y, phi, sp, cp)) emit(14, T, U, V, 0, 0);
  if (lpSpLp(-x, y, -phi, -sp, cp)) emit(14, -T, -U, -V, 0, 0);
  if (lpSpLp(x, -y, -phi, -sp, cp)) emit(15, T, U, V, 0, 0);
  if (lpSpLp(-x, -y, phi, sp, cp)) emit(15, -T, -U, -V, 0, 0);
  if (lpSpRp(x, y, phi, sp, cp)) emit(12, T, U, V, 0, 0);
  if (lpSpRp(-x, y, -phi, -sp, cp)) emit(12, -T, -U, -V, 0, 0);
  if (lpSpRp(x, -y, -phi, -sp, cp)) emit(13, T, U, V, 0, 0);
  if (lpSpRp(-x, -y, phi, sp, cp)) emit(13, -T, -U, -V, 0, 0);
  // CCC
  if (lpRmL(x, y, phi, sp, cp)) emit(0, T, U, V, 0, 0);
  if (lpRmL(-x, y, -phi, -sp, cp)) emit(0, -T, -U, -V, 0, 0);
  if (lpRmL(x, -y, -phi, -sp, cp)) emit(1, T, U, V, 0, 0);
  if (lpRmL(-x, -y, phi, sp, cp)) emit(1, -T, -U, -V, 0, 0);
  const c = cp;
  const s = sp;
  const xb = x * c + y * s;
  const yb = x * s - y * c;
  if (lpRmL(xb, yb, phi, sp, cp)) emit(0, V, U, T, 0, 0);
  if (lpRmL(-xb, yb, -phi, -sp, cp)) emit(0, -V, -U, -T, 0, 0);
  if (lpRmL(xb, -yb, -phi, -sp, cp)) emit(1, V, U, T, 0, 0);
  if (lpRmL(-xb, -yb, phi, sp, cp)) emit(1, -V, -U, -T, 0, 0);
  // CCCC
  if (lpRupLumRm(x, y, phi, sp, cp)) emit(2, T, U, -U, V, 0);
  if (lpRupLumRm(-x, y, -phi, -sp, cp)) emit(2, -T, -U, U, -V, 0);
  if (lpRupLumRm(x, -y, -phi, -sp, cp)) emit(3, T, U, -U, V, 0);
  if (lpRupLumRm(-x, -y, phi, sp, cp)) emit(3, -T, -U, U, -V, 0);
  if (lpRumLumRp(x, y, phi, sp, cp)) emit(2, T, U, U, V, 0);
  if (lpRumLumRp(-x, y, -phi, -sp, cp)) emit(2, -T, -U, -U, -V, 0);
  if (lpRumLumRp(x, -y, -phi, -sp, cp)) emit(3, T, U, U, V, 0);
  if (lpRumLumRp(-x, -y, phi, sp, cp)) emit(3, -T, -U, -U, -V, 0);
  // CCSC
  if (lpRmSmLm(x, y, phi, sp, cp)) emit(4, T, -HALF_PI, U, V, 0);
  if (lpRmSmLm(-x, y, -phi, -sp, cp)) emit(4, -T, HALF_PI, -U, -V, 0);
  if (lpRmSmLm(x, -y, -phi, -sp, cp)) emit(5, T, -HALF_PI, U, V, 0);
  if (lpRmSmLm(-x, -y, phi, sp, cp)) emit(5, -T, HALF_PI, -U, -V, 0);
  if (lpRmSmRm(x, y, phi, sp, cp)) emit(8, T, -HALF_PI, U, V, 0);
  if (lpRmSmRm(-x, y, -phi, -sp, cp)) emit(8, -T, HALF_PI, -U, -V, 0);
  if (lpRmSmRm(x, -y, -phi, -sp, cp)) emit(9, T, -HALF_PI, U, V, 0);
  if (lpRmSmRm(-x, -y, phi, sp, cp)) emit(9, -T, HALF_PI, -U, -V, 0);
  if (lpRmSmLm(xb, yb, phi, sp, cp)) emit(6, V, U, -HALF_PI, T, 0);
  if (lpRmSmLm(-xb, yb, -phi, -sp, cp)) emit(6, -V, -U, HALF_PI, -T, 0);
  if (lpRmSmLm(xb, -yb, -phi, -sp, cp)) emit(7, V, U, -HALF_PI, T, 0);
  if (lpRmSmLm(-xb, -yb, phi, sp, cp)) emit(7, -V, -U, HALF_PI, -T, 0);
  if (lpRmSmRm(xb, yb, phi, sp, cp)) emit(10, V, U, -HALF_PI, T, 0);
  if (lpRmSmRm(-xb, yb, -phi, -sp, cp)) emit(10, -V, -U, HALF_PI, -T, 0);
  if (lpRmSmRm(xb, -yb, -phi, -sp, cp)) emit(11, V, U, -HALF_PI, T, 0);
  if (lpRmSmRm(-xb, -yb, phi, sp, cp)) emit(11, -V, -U, HALF_PI, -T, 0);
  // CCSCC
  if (lpRmSLmRp(x, y, phi, sp, cp)) emit(16, T, -HALF_PI, U, -HALF_PI, V);
  if (lpRmSLmRp(-x, y, -phi, -sp, cp)) emit(16, -T, HALF_PI, -U, HALF_PI, -V);
  if (lpRmSLmRp(x, -y, -phi, -sp, cp)) emit(17, T, -HALF_PI, U, -HALF_PI, V);
  if (lpRmSLmRp(-x, -y, phi, sp, cp)) emit(17, -T, HALF_PI, -U, HALF_PI, -V);
  return count;
}

const scratch = new Float64Array(RS_MAX_SOLUTIONS * RS_STRIDE);

/** `to` in the frame of `from` (at the origin, heading 0), in radius units: [x, y, phi]. */
function toUnitFrame(from: Pose, to: Pose, radiusMeters: number): [number, number, number] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const c = Math.cos(from.headingRadians);
  const s = Math.sin(from.headingRadians);
  return [(c * dx + s * dy) / radiusMeters, (-s * dx + c * dy) / radiusMeters, to.headingRadians - from.headingRadians];
}

/** Length of the shortest Reeds-Shepp path, meters (no sampling). */
export function reedsSheppLengthMeters(from: Pose, to: Pose, radiusMeters: number): number {
  const [x, y, phi] = toUnitFrame(from, to, radiusMeters);
  const n = solveReedsShepp(x, y, phi, scratch);
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const len = scratch[i * RS_STRIDE + 6];
    if (len < best) best = len;
  }
  return best * radiusMeters;
}

export interface ReedsSheppSolution {
  /** e.g. 'L+R-L+' (+ forward, - reverse). */
  word: string;
  lengthMeters: number;
  segments: TurnSegment[];
}

/** Every Reeds-Shepp solution from `from` to `to` (unsorted, may repeat a path under two words). */
export function reedsSheppSolutions(from: Pose, to: Pose, radiusMeters: number): ReedsSheppSolution[] {
  const [x, y, phi] = toUnitFrame(from, to, radiusMeters);
  const n = solveReedsShepp(x, y, phi, scratch);
  const k = 1 / radiusMeters;
  const out: ReedsSheppSolution[] = [];
  for (let i = 0; i < n; i++) {
    const o = i * RS_STRIDE;
    const pattern = RS_PATTERNS[scratch[o]];
    const segs: TurnSegment[] = [];
    let word = '';
    for (let j = 0; j < 5; j++) {
      const letter = pattern[j];
      const p = scratch[o + 1 + j];
      if (letter === 0 || Math.abs(p) < 1e-10) continue;
      const kappa = letter === L ? k : letter === R ? -k : 0;
      push(segs, Math.abs(p) * radiusMeters, kappa, kappa, p < 0);
      word += (letter === L ? 'L' : letter === R ? 'R' : 'S') + (p < 0 ? '-' : '+');
    }
    out.push({ word, lengthMeters: scratch[o + 6] * radiusMeters, segments: segs });
  }
  return out;
}
