import { describe, expect, it } from 'vitest';
import { minMaxCuts, shareSeconds } from './partition.js';
import type { BlockSums } from './partition.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';

const machine = (working: number): ResolvedMachine =>
  ({
    widthMeters: 6,
    workingSpeedMetersPerSecond: working,
    turningSpeedMetersPerSecond: 1.5,
    cuspStopSeconds: 3,
  }) as ResolvedMachine;

/** Blocks of these working meters, each with `gap` meters of connector before it. */
function sums(work: number[], gap: number): BlockSums {
  const n = work.length;
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
  for (let i = 0; i < n; i++) {
    s.workMeters[i + 1] = s.workMeters[i] + work[i];
    s.gapMeters[i + 1] = s.gapMeters[i] + (i === 0 ? 0 : gap);
  }
  return s;
}

/** Every way to cut n blocks into k runs (each possibly empty), the best makespan. */
function bruteForce(s: BlockSums, ms: ResolvedMachine[]): number {
  let best = Infinity;
  const rec = (i: number, from: number, worst: number): void => {
    if (i === ms.length - 1) {
      best = Math.min(best, Math.max(worst, shareSeconds(s, ms[i], from, s.n - 1)));
      return;
    }
    for (let to = from - 1; to < s.n; to++) rec(i + 1, to + 1, Math.max(worst, shareSeconds(s, ms[i], from, to)));
  };
  rec(0, 0, 0);
  return best;
}

describe('minMaxCuts', () => {
  it('finds the best cut of a route into consecutive shares (against every cut)', () => {
    let seed = 7;
    const rand = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 30; trial++) {
      const work = Array.from({ length: 4 + (trial % 7) }, () => 20 + Math.floor(rand() * 300));
      const s = sums(work, 20 + Math.floor(rand() * 30));
      const ms = [machine(2.5), machine(1 + rand() * 3), machine(2)].slice(0, 2 + (trial % 2));
      const got = minMaxCuts(s, ms);
      expect(got.seconds).toBeCloseTo(bruteForce(s, ms), 1);
      expect(got.cuts[0]).toBe(0);
      expect(got.cuts.at(-1)).toBe(s.n);
    }
  });
});
