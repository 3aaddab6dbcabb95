/**
 * Dubins paths (Dubins 1957) and their continuous-curvature counterpart CC-Dubins
 * (Fraichard & Scheuer 2004) from one solver: every turn is a CC turn of the given
 * TurnShape (a plain arc when σ = ∞), straights are tangent to the shape's inner circles.
 *
 * Hot path: `solveWords` allocates nothing; it writes, per word, the length and the three
 * parameters (turn deflections in radians, straight length in meters) into `out`.
 */
import { mod2pi, TWO_PI } from './angles.js';
import type { TurnSegment } from './types.js';
import type { TurnShape } from './shape.js';

/** Six Dubins words; CCC words come twice (middle circle on either side of the centre line). */
export type DubinsWord = 'LSL' | 'RSR' | 'LSR' | 'RSL' | 'RLR' | 'LRL';
export const WORD_SLOTS = 8;
export const SLOT_WORDS: readonly DubinsWord[] = ['LSL', 'RSR', 'LSR', 'RSL', 'RLR', 'RLR', 'LRL', 'LRL'];
/** Stride of `out` per slot: length, p1, p2, p3. */
export const SLOT_STRIDE = 4;

const EPS = 1e-9;

/** Deflection of a turn; a full turn minus rounding noise counts as no turn. */
function defl(a: number): number {
  const m = mod2pi(a);
  return m > TWO_PI - EPS ? 0 : m;
}

/** Length of a CC turn of deflection δ, or NaN when δ is below the shape's minimum (and not zero on plain arcs). */
function turnLen(shape: TurnShape, d: number): number {
  const dmin = shape.minDeflectionRadians;
  if (d < dmin - EPS) return NaN;
  return 2 * shape.clothoidLengthMeters + (d > dmin ? d - dmin : 0) * shape.radiusMeters;
}

/**
 * A word turning one way at both ends (LSL when `left`, RSR): the circles' outer tangent from the
 * start circle's centre (ax, ay) to the end circle's (bx, by). Writes the slot.
 */
function outerTangent(
  out: Float64Array,
  slot: number,
  shape: TurnShape,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  h0: number,
  h1: number,
  left: boolean,
): void {
  const dx = bx - ax;
  const dy = by - ay;
  const D = Math.sqrt(dx * dx + dy * dy);
  const u = D < 1e-12 ? h0 : Math.atan2(dy, dx);
  const st = D - 2 * shape.tangentOffsetMeters;
  const d1 = defl(left ? u - h0 : h0 - u);
  const d3 = defl(left ? h1 - u : u - h1);
  const len = st > -EPS ? turnLen(shape, d1) + Math.max(st, 0) + turnLen(shape, d3) : NaN;
  const o = slot * SLOT_STRIDE;
  out[o] = len;
  out[o + 1] = d1;
  out[o + 2] = Math.max(st, 0);
  out[o + 3] = d3;
}

/**
 * A word turning both ways (LSR when `left`, RSL): the circles' inner tangent, where the circles
 * are far enough apart. Writes the slot (its length NaN when infeasible).
 */
function innerTangent(
  out: Float64Array,
  slot: number,
  shape: TurnShape,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  h0: number,
  h1: number,
  left: boolean,
): void {
  const rho = shape.innerRadiusMeters;
  const dx = bx - ax;
  const dy = by - ay;
  const D = Math.sqrt(dx * dx + dy * dy);
  const o = slot * SLOT_STRIDE;
  let len = NaN;
  if (D >= 2 * rho) {
    const lt = Math.sqrt(D * D - 4 * rho * rho);
    const u = left ? Math.atan2(dy, dx) + Math.atan2(2 * rho, lt) : Math.atan2(dy, dx) - Math.atan2(2 * rho, lt);
    const st = lt - 2 * shape.tangentOffsetMeters;
    const d1 = defl(left ? u - h0 : h0 - u);
    const d3 = defl(left ? u - h1 : h1 - u);
    if (st > -EPS) len = turnLen(shape, d1) + Math.max(st, 0) + turnLen(shape, d3);
    out[o + 1] = d1;
    out[o + 2] = Math.max(st, 0);
    out[o + 3] = d3;
  }
  out[o] = len;
}

/**
 * Fills out[slot*4 .. slot*4+3] = [length, p1, p2, p3] for every slot (NaN length = infeasible).
 * Returns the index of the shortest feasible slot, or -1.
 */
export function solveWords(
  x0: number,
  y0: number,
  h0: number,
  x1: number,
  y1: number,
  h1: number,
  shape: TurnShape,
  out: Float64Array,
): number {
  const cx = shape.centerForwardMeters;
  const cy = shape.centerLeftMeters;
  const r = shape.outerRadiusMeters;
  const mu = shape.muRadians;
  const c0 = Math.cos(h0);
  const s0 = Math.sin(h0);
  const c1 = Math.cos(h1);
  const s1 = Math.sin(h1);
  // Circle centres: start left/right, end left/right.
  const slx = x0 + c0 * cx - s0 * cy;
  const sly = y0 + s0 * cx + c0 * cy;
  const srx = x0 + c0 * cx + s0 * cy;
  const sry = y0 + s0 * cx - c0 * cy;
  const elx = x1 - c1 * cx - s1 * cy;
  const ely = y1 - s1 * cx + c1 * cy;
  const erx = x1 - c1 * cx + s1 * cy;
  const ery = y1 - s1 * cx - c1 * cy;

  // CSC: LSL, RSR on the circles' outer tangents, LSR, RSL on their inner ones.
  outerTangent(out, 0, shape, slx, sly, elx, ely, h0, h1, true);
  outerTangent(out, 1, shape, srx, sry, erx, ery, h0, h1, false);
  innerTangent(out, 2, shape, slx, sly, erx, ery, h0, h1, true);
  innerTangent(out, 3, shape, srx, sry, elx, ely, h0, h1, false);
  let dx: number, dy: number, D: number, len: number, d1: number, d2: number, d3: number;

  // RLR (two middle circles), then LRL.
  for (let w = 0; w < 2; w++) {
    const ax = w === 0 ? srx : slx;
    const ay = w === 0 ? sry : sly;
    const bx = w === 0 ? erx : elx;
    const by = w === 0 ? ery : ely;
    dx = bx - ax;
    dy = by - ay;
    D = Math.sqrt(dx * dx + dy * dy);
    for (let side = 0; side < 2; side++) {
      const slot = 4 + 2 * w + side;
      const o = slot * SLOT_STRIDE;
      len = NaN;
      if (D <= 4 * r) {
        let ex: number;
        let ey: number;
        if (D > 1e-12) {
          ex = dx / D;
          ey = dy / D;
        } else {
          ex = c0;
          ey = s0;
        }
        const hgt = Math.sqrt(Math.max(0, 4 * r * r - 0.25 * D * D)) * (side === 0 ? 1 : -1);
        const mx = ax + 0.5 * D * ex - hgt * ey;
        const my = ay + 0.5 * D * ey + hgt * ex;
        const p12 = Math.atan2(my - ay, mx - ax);
        const p23 = Math.atan2(by - my, bx - mx);
        if (w === 0) {
          // R L R
          const hm1 = p12 - Math.PI / 2 + mu;
          const hm2 = p23 + Math.PI / 2 - mu;
          d1 = defl(h0 - hm1);
          d2 = defl(hm2 - hm1);
          d3 = defl(hm2 - h1);
        } else {
          // L R L
          const hm1 = p12 + Math.PI / 2 - mu;
          const hm2 = p23 - Math.PI / 2 + mu;
          d1 = defl(hm1 - h0);
          d2 = defl(hm1 - hm2);
          d3 = defl(h1 - hm2);
        }
        len = turnLen(shape, d1) + turnLen(shape, d2) + turnLen(shape, d3);
        out[o + 1] = d1;
        out[o + 2] = d2;
        out[o + 3] = d3;
      }
      out[o] = len;
    }
  }
  // The shortest feasible slot (NaN compares false), the first of equals.
  let best = -1;
  let bestLen = Infinity;
  for (let slot = 0; slot < WORD_SLOTS; slot++) {
    if (out[slot * SLOT_STRIDE] < bestLen) {
      bestLen = out[slot * SLOT_STRIDE];
      best = slot;
    }
  }
  return best;
}

/** Appends the pieces of one CC turn (or arc) of deflection δ, direction +1 left / -1 right. */
export function pushTurn(
  segs: TurnSegment[],
  shape: TurnShape,
  side: number,
  deflectionRadians: number,
  reverse = false,
): void {
  if (!(deflectionRadians > 0)) return;
  if (deflectionRadians < shape.minDeflectionRadians) {
    // Elementary turn: two clothoids of sharpness σ meeting at κ' = √(δσ).
    const sigma = shape.curvatureRatePerSquareMeter;
    const kp = side * Math.sqrt(deflectionRadians * sigma);
    const l = Math.sqrt(deflectionRadians / sigma);
    push(segs, l, 0, kp, reverse);
    push(segs, l, kp, 0, reverse);
    return;
  }
  const k = side * shape.curvaturePerMeter;
  const lc = shape.clothoidLengthMeters;
  const arc = Math.max(0, deflectionRadians - shape.minDeflectionRadians) * shape.radiusMeters;
  if (lc > 0) push(segs, lc, 0, k, reverse);
  if (arc > 1e-12) push(segs, arc, k, k, reverse);
  if (lc > 0) push(segs, lc, k, 0, reverse);
}

/** Appends a piece, merging it into the previous one when both have the same constant curvature and direction. */
export function push(segs: TurnSegment[], lengthMeters: number, k0: number, k1: number, reverse: boolean): void {
  const last = segs.length > 0 ? segs[segs.length - 1] : undefined;
  if (
    last &&
    last.reverse === reverse &&
    k0 === k1 &&
    last.startCurvaturePerMeter === k0 &&
    last.endCurvaturePerMeter === k0
  ) {
    last.lengthMeters += lengthMeters;
    return;
  }
  segs.push({ lengthMeters, startCurvaturePerMeter: k0, endCurvaturePerMeter: k1, reverse });
}

export function pushStraight(segs: TurnSegment[], lengthMeters: number, reverse = false): void {
  if (lengthMeters > 1e-12) push(segs, lengthMeters, 0, 0, reverse);
}

/** Pieces of a solved slot. */
export function slotSegments(slot: number, out: Float64Array, shape: TurnShape): TurnSegment[] {
  const word = SLOT_WORDS[slot];
  const o = slot * SLOT_STRIDE;
  const segs: TurnSegment[] = [];
  for (let i = 0; i < 3; i++) {
    const ch = word[i];
    const p = out[o + 1 + i];
    if (ch === 'S') pushStraight(segs, p);
    else pushTurn(segs, shape, ch === 'L' ? 1 : -1, p);
  }
  return segs;
}
