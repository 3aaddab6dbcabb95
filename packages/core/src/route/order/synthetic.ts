/**
 * A synthetic ordering problem for tests and benchmarks: parallel tracks with a realistic
 * connector cost (the field-turn formulas), no geometry pipeline needed.
 *
 * Track i runs along +y at x = i · spacing, from (x, y0) (end 2i) to (x, y1) (end 2i+1); the
 * field's bottom and top edges may be slanted and ragged. Between two ends on the same side at
 * lateral distance d: a flat U / headland traversal d + (π − 2)R when d ≥ 2R, else a bulb
 * R[π + 4·arccos((d + 2R) / 4R)], plus the difference in y. Between opposite sides: round the
 * field's nearer flank. Every cost is ≥ the straight distance (costPerMeterLowerBound = 1).
 */
import type { OrderingProblem } from './problem.js';
import { hypot } from '../../geometry/vec.js';

export interface SyntheticOptions {
  trackCount: number;
  spacingMeters: number;
  turnRadiusMeters: number;
  lengthMeters?: number;
  /** Slope of the bottom and top edges (dy per dx). */
  slope?: number;
  /** Seed for ragged edges (0 = straight edges). */
  seed?: number;
  raggedMeters?: number;
  /** Staging area in the local frame: entry and exit legs are straight lines to it. */
  staging?: [number, number];
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Length of a forward turn between parallel tracks d apart: flat U or bulb. */
export function parallelTurnLengthMeters(d: number, r: number): number {
  if (d >= 2 * r) return d + (Math.PI - 2) * r;
  return r * (Math.PI + 4 * Math.acos((d + 2 * r) / (4 * r)));
}

export function syntheticTrackProblem(options: SyntheticOptions): OrderingProblem {
  const n = options.trackCount;
  const w = options.spacingMeters;
  const r = options.turnRadiusMeters;
  const len = options.lengthMeters ?? 200;
  const slope = options.slope ?? 0;
  const rand = rng(options.seed ?? 0);
  const ragged = options.seed ? (options.raggedMeters ?? w) : 0;
  const endXY = new Float64Array(4 * n);
  const workCost = new Float64Array(n);
  const rank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = i * w;
    const y0 = slope * x + ragged * rand();
    const y1 = len + slope * x - ragged * rand();
    endXY[4 * i] = x;
    endXY[4 * i + 1] = y0;
    endXY[4 * i + 2] = x;
    endXY[4 * i + 3] = y1;
    workCost[i] = y1 - y0;
    rank[i] = x;
  }
  const width = (n - 1) * w;
  const transitionCost = (a: number, b: number): number => {
    const xa = endXY[2 * a];
    const ya = endXY[2 * a + 1];
    const xb = endXY[2 * b];
    const yb = endXY[2 * b + 1];
    if ((a & 1) === (b & 1)) return parallelTurnLengthMeters(Math.abs(xa - xb), r) + Math.abs(ya - yb);
    const flank = Math.min(xa + xb, 2 * width - xa - xb) + 2 * r;
    return flank + Math.abs(ya - yb) + Math.PI * r;
  };
  const problem: OrderingProblem = { itemCount: n, endXY, workCost, transitionCost, rank, costPerMeterLowerBound: 1 };
  const staging = options.staging;
  if (staging) {
    const leg = (e: number): number => hypot(endXY[2 * e] - staging[0], endXY[2 * e + 1] - staging[1]);
    problem.entryCost = leg;
    problem.exitCost = leg;
  }
  return problem;
}
