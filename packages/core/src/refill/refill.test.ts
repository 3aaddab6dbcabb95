import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RefillStrategyType } from '../types.js';
import { planRefills, type RefillRoutePiece } from './refill.js';

/** Boustrophedon over n tracks of 100 m, 10 m apart, with straight connectors at the ends. */
function route(n: number, width = 10): RefillRoutePiece[] {
  const pieces: RefillRoutePiece[] = [];
  for (let i = 0; i < n; i++) {
    const x = i * width;
    const up = i % 2 === 0;
    pieces.push({ points: up ? [x, 0, x, 100] : [x, 100, x, 0], working: true, widthMeters: width });
    if (i + 1 < n)
      pieces.push({ points: up ? [x, 100, x + width, 100] : [x, 0, x + width, 0], working: false, widthMeters: width });
  }
  return pieces;
}

// each track: 100 m × 10 m = 0.1 ha; at 200 L/ha that is 20 L
describe('planRefills', () => {
  it('Exact refills where the tank runs out', () => {
    const r = planRefills({
      pieces: route(5),
      tankCapacity: 50,
      applicationRatePerHectare: 200,
      strategy: 'Exact',
      staging: [0, -100],
    });
    // 100 L in all: empty after 50 L (middle of track 2, piece 4) and at 100 L (end of track 4: nothing left to do)
    expect(r.appliedTotal).toBeCloseTo(100, 9);
    expect(r.points).toHaveLength(1);
    expect(r.points[0].pieceIndex).toBe(4);
    expect(r.points[0].alongMeters).toBeCloseTo(50, 9);
    expect(r.points[0].at[0]).toBeCloseTo(20, 9);
    expect(r.points[0].at[1]).toBeCloseTo(50, 9);
    expect(r.points[0].detourMeters).toBeCloseTo(2 * Math.hypot(20, 150), 9);
    expect(r.detourMeters).toBeCloseTo(r.points[0].detourMeters, 9);
  });

  it('StartOfTrack refills before a track that cannot be finished', () => {
    const r = planRefills({
      pieces: route(5),
      tankCapacity: 50,
      applicationRatePerHectare: 200,
      strategy: 'StartOfTrack',
      staging: [0, -100],
    });
    // after two tracks 10 L remain, track 2 needs 20 L: refill at its start (20, 0); then 60 L left to do with 50 L:
    // refill before track 4
    expect(r.points.map((p) => p.pieceIndex)).toEqual([4, 8]);
    expect(r.points[0].at).toEqual([20, 0]);
    expect(r.points[0].remainingBefore).toBeCloseTo(10, 9);
    expect(r.points.every((p) => p.alongMeters === 0)).toBe(true);
  });

  it('ClosestExternalHeadland leaves through the nearest headland point', () => {
    const nearest = (at: [number, number]): [number, number] => [at[0], at[1] < 50 ? -5 : 105];
    const r = planRefills({
      pieces: route(5),
      tankCapacity: 30,
      applicationRatePerHectare: 200,
      strategy: 'ClosestExternalHeadland',
      staging: [0, -100],
      nearestExteriorHeadlandPoint: nearest,
    });
    expect(r.points.length).toBeGreaterThan(0);
    for (const p of r.points) {
      expect(p.exitAt).toEqual(nearest(p.at));
      expect(p.detourMeters).toBeCloseTo(
        2 * (Math.hypot(p.at[0] - p.exitAt[0], p.at[1] - p.exitAt[1]) + Math.hypot(p.exitAt[0], p.exitAt[1] + 100)),
        9,
      );
    }
  });

  it('a track longer than a full tank gets refills inside it', () => {
    const r = planRefills({
      pieces: route(1),
      tankCapacity: 6,
      applicationRatePerHectare: 200,
      strategy: 'StartOfTrack',
      staging: [0, 0],
    });
    // 20 L with 6 L tanks: empty at 30 m, 60 m, 90 m
    expect(r.points.map((p) => Math.round(p.alongMeters))).toEqual([30, 60, 90]);
  });

  it('no capacity model, no refills', () => {
    expect(
      planRefills({
        pieces: route(3),
        tankCapacity: 0,
        applicationRatePerHectare: 200,
        strategy: 'Exact',
        staging: [0, 0],
      }).points,
    ).toEqual([]);
  });

  it('never lets the tank go below zero: refills ≥ ⌈total / capacity⌉ − 1 for every strategy', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 3, max: 200, noNaN: true }),
        fc.constantFrom<RefillStrategyType>('Exact', 'StartOfTrack', 'ClosestExternalHeadland'),
        (n, cap, strategy) => {
          const r = planRefills({
            pieces: route(n),
            tankCapacity: cap,
            applicationRatePerHectare: 200,
            strategy,
            staging: [0, -10],
          });
          expect(r.points.length).toBeGreaterThanOrEqual(Math.ceil(r.appliedTotal / cap - 1e-9) - 1);
          // between two refills no more than a tank is used
          let used = 0;
          let pointIdx = 0;
          const pieces = route(n);
          for (let k = 0; k < pieces.length; k++) {
            if (!pieces[k].working) continue;
            const len = 100;
            const cuts = r.points.filter((p) => p.pieceIndex === k).map((p) => p.alongMeters);
            let last = 0;
            for (const c of cuts) {
              used += (c - last) * 0.2;
              expect(used).toBeLessThanOrEqual(cap + 1e-6);
              used = 0;
              last = c;
              pointIdx++;
            }
            used += (len - last) * 0.2;
            expect(used).toBeLessThanOrEqual(cap + 1e-6);
          }
          expect(pointIdx).toBe(r.points.length);
        },
      ),
      { seed: 51, numRuns: 100 },
    );
  });
});
