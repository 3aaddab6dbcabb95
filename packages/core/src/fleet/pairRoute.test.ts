import { describe, expect, it } from 'vitest';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import { balancedBand } from './pairRoute.js';
import type { LaneLines } from './pairRoute.js';

const machine = (widthMeters: number): ResolvedMachine =>
  ({ widthMeters, workingSpeedMetersPerSecond: 2 }) as ResolvedMachine;

/** n lines of `lengthMeters` each, on a 6 m grid. */
const lines = (n: number, lengthMeters: number, headlandMeters: number): LaneLines => ({
  headingDegrees: 0,
  s0: 0,
  widthMeters: 6,
  lengthMeters: new Array<number>(n).fill(lengthMeters),
  headlandMeters,
  offGridMeters: 0,
  headlandPasses: 2,
});

describe('balancedBand', () => {
  const rates = { narrow: [machine(6)], wide: [machine(12)], turnSecondsPerTrack: 0 };

  it('gives the wide machine twice the narrow one’s lines when neither works the headland’s time', () => {
    // 30 lines of 100 m, no headland, no turns: 10 pairs (20 lines) for the wide machine, 10 lines for the narrow.
    const band = balancedBand(lines(30, 100, 0), 2, rates)!;
    expect(band.to - band.from + 1).toBe(20);
    expect(band.wideSeconds).toBeCloseTo(500, 6);
    expect(band.narrowSeconds).toBeCloseTo(500, 6);
  });

  it('takes groups of m whole lines from one side, and gives the headland to the class it balances', () => {
    const band = balancedBand(lines(30, 100, 4000), 2, rates)!;
    expect((band.to - band.from + 1) % 2).toBe(0);
    expect(band.from === 0 || band.to === 29).toBe(true);
    // 4,000 m of 6 m headland: 2,000 s for the 6 m machine alone, more than everything else at 2 m/s; as 2,000 m
    // for the 12 m machine (1,000 s) with 3 or 4 pairs, the classes finish within 1,200 s.
    expect(band.wideHeadland).toBe(true);
    expect(Math.max(band.wideSeconds, band.narrowSeconds)).toBeLessThanOrEqual(1200 + 1e-6);
  });

  it('keeps the side and headland asked, the estimates scaled', () => {
    const keep = balancedBand(lines(30, 100, 0), 2, rates)!;
    const again = balancedBand(lines(30, 100, 0), 2, rates, { wide: 2, narrow: 1, keep })!;
    expect(again.low).toBe(keep.low);
    expect(again.wideHeadland).toBe(keep.wideHeadland);
    expect(again.to - again.from + 1).toBeLessThan(20);
  });
});
