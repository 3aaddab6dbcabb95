/**
 * Sharing a route's working blocks out among machines as consecutive runs, with the longest share as
 * short as it can be: for a given order of the machines along the route, a binary search on the makespan
 * with a greedy fill (each machine takes blocks while its share stays within the bound) finds the exact
 * min–max cut; a pairwise exchange of machines in the order (they differ in speeds) keeps any improvement.
 * Times here leave out waits; the scheduler adds them (search.ts weighs both).
 */
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { BaseRoute } from './baseRoute.js';
import { cuspsPerPiece } from './timing.js';

/** Prefix sums over a base route's blocks: meters and cusps of the blocks and of the connector runs before them. */
export interface BlockSums {
  n: number;
  workMeters: Float64Array;
  gapMeters: Float64Array;
  workCusps: Float64Array;
  gapCusps: Float64Array;
  leadMeters: number;
  leadCusps: number;
  trailMeters: number;
  trailCusps: number;
}

export function blockSums(base: BaseRoute): BlockSums {
  const n = base.blocks.length;
  const cusps = cuspsPerPiece(base.pieces);
  const s: BlockSums = {
    n,
    workMeters: new Float64Array(n + 1),
    gapMeters: new Float64Array(n + 1),
    workCusps: new Float64Array(n + 1),
    gapCusps: new Float64Array(n + 1),
    leadMeters: 0,
    leadCusps: 0,
    trailMeters: 0,
    trailCusps: 0,
  };
  for (let b = 0; b < n; b++) {
    const pi = base.blocks[b];
    s.workMeters[b + 1] = s.workMeters[b] + base.pieces[pi].lengthMeters;
    s.workCusps[b + 1] = s.workCusps[b] + cusps[pi];
    let gm = 0,
      gc = 0;
    const from = b === 0 ? 0 : base.blocks[b - 1] + 1;
    for (let i = from; i < pi; i++) {
      gm += base.pieces[i].lengthMeters;
      gc += cusps[i];
    }
    if (b === 0) {
      s.leadMeters = gm;
      s.leadCusps = gc;
      gm = gc = 0;
    }
    s.gapMeters[b + 1] = s.gapMeters[b] + gm;
    s.gapCusps[b + 1] = s.gapCusps[b] + gc;
  }
  for (let i = n > 0 ? base.blocks[n - 1] + 1 : 0; i < base.pieces.length; i++) {
    s.trailMeters += base.pieces[i].lengthMeters;
    s.trailCusps += cusps[i];
  }
  return s;
}

/** Seconds machine `m` takes over blocks a..b (inclusive), waits left out. */
export function shareSeconds(s: BlockSums, m: ResolvedMachine, a: number, b: number): number {
  if (b < a) return 0;
  const work = s.workMeters[b + 1] - s.workMeters[a];
  let gap = s.gapMeters[b + 1] - s.gapMeters[a + 1];
  let cusps = s.workCusps[b + 1] - s.workCusps[a] + s.gapCusps[b + 1] - s.gapCusps[a + 1];
  if (a === 0) {
    gap += s.leadMeters;
    cusps += s.leadCusps;
  }
  if (b === s.n - 1) {
    gap += s.trailMeters;
    cusps += s.trailCusps;
  }
  return work / m.workingSpeedMetersPerSecond + gap / m.turningSpeedMetersPerSecond + cusps * m.cuspStopSeconds;
}

/** The first block of each machine's share (k + 1 entries, last = n), filled greedily within `limit`; or undefined. */
function greedyCuts(s: BlockSums, machines: readonly ResolvedMachine[], limit: number): number[] | undefined {
  const cuts = [0];
  let a = 0;
  for (let i = 0; i < machines.length; i++) {
    let b = a - 1;
    if (i === machines.length - 1) b = s.n - 1;
    else while (b + 1 < s.n && shareSeconds(s, machines[i], a, b + 1) <= limit) b++;
    if (shareSeconds(s, machines[i], a, b) > limit) return undefined;
    a = b + 1;
    cuts.push(a);
  }
  return a >= s.n ? cuts : undefined;
}

/** The min–max cut for machines in this order: cut positions and the makespan (waits left out). */
export function minMaxCuts(s: BlockSums, machines: readonly ResolvedMachine[]): { cuts: number[]; seconds: number } {
  let hi = Math.max(...machines.map((m) => shareSeconds(s, m, 0, s.n - 1)));
  let lo = 0;
  let best = greedyCuts(s, machines, hi) ?? allToLast(s, machines.length);
  for (let it = 0; it < 60 && hi - lo > 1e-3; it++) {
    const mid = (lo + hi) / 2;
    const cuts = greedyCuts(s, machines, mid);
    if (cuts) {
      hi = mid;
      best = cuts;
    } else lo = mid;
  }
  return { cuts: best, seconds: makespanOf(s, machines, best) };
}

function allToLast(s: BlockSums, k: number): number[] {
  return [...new Array<number>(k).fill(0), s.n];
}

export function makespanOf(s: BlockSums, machines: readonly ResolvedMachine[], cuts: readonly number[]): number {
  let worst = 0;
  for (let i = 0; i < machines.length; i++)
    worst = Math.max(worst, shareSeconds(s, machines[i], cuts[i], cuts[i + 1] - 1));
  return worst;
}

/** The machines' order along the route (indices into `machines`) and its min–max cuts, improved by exchanges. */
export function orderAndCut(
  s: BlockSums,
  machines: readonly ResolvedMachine[],
): { order: number[]; cuts: number[]; seconds: number } {
  const order = machines.map((_, i) => i);
  let best = minMaxCuts(
    s,
    order.map((i) => machines[i]),
  );
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < order.length; i++)
      for (let j = i + 1; j < order.length; j++) {
        [order[i], order[j]] = [order[j], order[i]];
        const r = minMaxCuts(
          s,
          order.map((x) => machines[x]),
        );
        if (r.seconds < best.seconds - 1e-6) {
          best = r;
          improved = true;
        } else [order[i], order[j]] = [order[j], order[i]];
      }
  }
  return { order, ...best };
}
