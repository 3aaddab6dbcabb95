/**
 * A connection's length budget (route/connectContext.ts `lengthBudget`, route/passesBetween.ts): a search stops
 * once every way it has left is longer than the budget, never before a way within it; a connection spends the
 * length of each turn and connector it makes, all of it at a join nothing fits, and stops where the budget is spent.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Region } from '../geometry/region.js';
import { polylineLength } from '../geometry/vec.js';
import type { Pose } from '../turns/types.js';
import type { Piece } from '../turns/path.js';
import { shotIn } from '../__fixtures__/shots.js';
import { PATH_BOUND_SLACK, searchConnector } from './connectSearch.js';
import { connectTracks } from './connectTracks.js';
import type { LengthBudget, RouteContext } from './connectContext.js';

const R = 6;

/** An L-shaped corridor 14 m wide: along +x from (0, 0) to (120, 0), then up +y to (120, 120). */
const corridor = new Region([
  [
    { x: -7, y: -7 },
    { x: 127, y: -7 },
    { x: 127, y: 120 },
    { x: 113, y: 120 },
    { x: 113, y: 7 },
    { x: -7, y: 7 },
  ],
]);

const shot = shotIn(corridor, R);

const from: Pose = { x: 10, y: 0, headingRadians: 0 };
const to: Pose = { x: 120, y: 100, headingRadians: Math.PI / 2 };

describe('a search under a length budget', () => {
  const free = searchConnector(from, to, corridor, shot, { turnRadiusMeters: R })!;
  const freeLength = polylineLength(free);

  it('finds the same way where the budget holds it (any budget from its length up)', () => {
    expect(free).toBeDefined();
    fc.assert(
      fc.property(fc.double({ min: 1, max: 3, noNaN: true }), (f) => {
        let tooLong = 0;
        const xy = searchConnector(from, to, corridor, shot, {
          turnRadiusMeters: R,
          maxPathMeters: f * freeLength,
          onPathTooLong: () => tooLong++,
        });
        expect(tooLong).toBe(0);
        expect(Array.from(xy!)).toEqual(Array.from(free));
      }),
      { numRuns: 8 },
    );
  });

  it('stops, says so and counts less work where every way is longer than the budget', () => {
    // the way round the bend is at least the two legs' straight distance: 110 + 100 m less the corner's cut
    const budget = 150 / PATH_BOUND_SLACK / 2;
    const workFree = (() => {
      const before = corridor.work;
      searchConnector(from, to, corridor, shot, { turnRadiusMeters: R });
      return corridor.work - before;
    })();
    let tooLong = 0;
    const before = corridor.work;
    const xy = searchConnector(from, to, corridor, shot, {
      turnRadiusMeters: R,
      maxPathMeters: budget,
      onPathTooLong: () => tooLong++,
    });
    expect(xy).toBeUndefined();
    expect(tooLong).toBe(1);
    expect(corridor.work - before).toBeLessThan(workFree / 2);
  });
});

describe('a connection under a length budget', () => {
  // Two tracks along the corridor's first leg (x 30 → 40: a short join), a connector round the bend onto the second
  // leg, and two tracks along it.
  const track = (trackIndex: number, sx: number, sy: number, ex: number, ey: number): Piece => ({
    kind: 'track',
    trackIndex,
    line: trackIndex,
    cell: trackIndex,
    sx,
    sy,
    ex,
    ey,
  });
  const pieces: Piece[] = [
    track(0, 0, 0, 30, 0),
    track(1, 40, 0, 60, 0),
    track(2, 120, 60, 120, 80),
    track(3, 120, 90, 120, 110),
  ];
  const ctx = (lengthBudget?: LengthBudget): RouteContext => ({
    region: corridor,
    loops: () => [],
    maxRingReachMeters: 20,
    turnOptions: { turnRadiusMeters: R, reverseAllowed: false },
    widthMeters: 6,
    warnings: [],
    ...(lengthBudget ? { lengthBudget, abort: () => lengthBudget.spent } : {}),
  });
  const joins = (segs: { type: string; xy: ArrayLike<number> }[]): number =>
    segs.filter((s) => s.type === 'Turn' || s.type === 'Connector').reduce((a, s) => a + polylineLength(s.xy), 0);

  const plain = connectTracks(pieces, ctx());
  const driven = joins(plain);

  it('spends the length of each turn and connector: the same route where the budget holds it', () => {
    expect(plain.filter((s) => s.type === 'Track')).toHaveLength(4);
    const budget = { leftMeters: driven + 1, spent: false };
    const c = ctx(budget);
    const segs = connectTracks(pieces, c);
    expect(c.aborted).toBeFalsy();
    expect(segs.map((s) => Array.from(s.xy))).toEqual(plain.map((s) => Array.from(s.xy)));
    expect(budget.leftMeters).toBeCloseTo(1, 6);
    expect(budget.spent).toBe(false);
  });

  it('stops where the budget is spent (aborted): the join that spends it is the last', () => {
    const first = joins(plain.slice(0, plain.findIndex((s, i) => i > 0 && s.type === 'Track') + 1));
    const budget = { leftMeters: first + (driven - first) / 20, spent: false };
    const c = ctx(budget);
    const segs = connectTracks(pieces, c);
    expect(budget.spent).toBe(true);
    expect(c.aborted).toBe(true);
    // spent in the way round the bend: the track after it is joined, the last one not
    expect(segs.filter((s) => s.type === 'Track')).toHaveLength(3);
  });

  it('spends it all at a join nothing fits: a U-turn in a dead end narrower than 2R', () => {
    // an 8 m corridor: the track back the other way cannot be reached
    const narrow = new Region([
      [
        { x: 0, y: -4 },
        { x: 200, y: -4 },
        { x: 200, y: 4 },
        { x: 0, y: 4 },
      ],
    ]);
    const budget = { leftMeters: Infinity, spent: false };
    const c: RouteContext = { ...ctx(budget), region: narrow, searchFailuresLeft: 4 };
    const there = track(0, 10, 0, 100, 0);
    const back = track(1, 150, 0, 110, 0);
    const unbudgeted = connectTracks([there, back], { ...ctx(), region: narrow, searchFailuresLeft: 4 });
    expect(unbudgeted.some((s) => (s as { connector?: string }).connector === 'unfitted')).toBe(true);
    connectTracks([there, back], c);
    expect(budget.spent).toBe(true);
  });
});
