/**
 * A machine shut in (issue 39): at the closed end of a corridor narrower than 2R, no forward path inside the field
 * leaves it, so no headland pass can be joined from there and no connector search is run for it. Before, each
 * pass entry from such a place ran the whole cascade of connectors, the searches included, and they all failed
 * (be-vlg-081 and ch-059: most of their planning time).
 */
import { describe, expect, it } from 'vitest';
import { Region } from '../geometry/region.js';
import { makeLoop } from '../turns/connectorRings.js';
import type { Pose } from '../turns/types.js';
import { shutIn } from './connectSearch.js';
import { enterHeadland } from './headlandEntry.js';
import type { RouteContext } from './connectContext.js';

const R = 6;
/** A 100 × 100 m square with an 8 m wide, 80 m long dead-end corridor off its east side. */
const region = new Region([
  [
    [-100, -50],
    [0, -50],
    [0, -4],
    [80, -4],
    [80, 4],
    [0, 4],
    [0, 50],
    [-100, 50],
  ].map(([x, y]) => ({ x, y })),
]);
const intoTheEnd: Pose = { x: 64, y: 0, headingRadians: 0 };
const outOfIt: Pose = { x: 64, y: 0, headingRadians: Math.PI };

describe('shutIn', () => {
  it('finds a machine facing the closed end of a narrow corridor shut in, and facing the way out not', () => {
    expect(shutIn(intoTheEnd, region, R, 150, 600)).toBe(true);
    expect(shutIn(outOfIt, region, R, 150, 600)).toBe(false);
  });

  it('proves nothing from a search cut short: the expansions spent is not shut in', () => {
    expect(shutIn(intoTheEnd, region, R, 150, 3)).toBe(false);
  });

  it('sees open ground: with room for a circle of R ahead, a machine is not shut in', () => {
    const bay = new Region([
      [
        [0, -4],
        [60, -4],
        [60, -20],
        [100, -20],
        [100, 20],
        [60, 20],
        [60, 4],
        [0, 4],
      ].map(([x, y]) => ({ x, y })),
    ]);
    expect(shutIn({ x: 10, y: 0, headingRadians: 0 }, bay, R, 150, 600)).toBe(false);
  });
});

describe('a headland pass entered from where the machine is shut in', () => {
  // A pass round the square part, 3 m inside its edges (the corridor is not part of it).
  const loop = makeLoop([-97, -47, -3, -47, -3, 47, -97, 47, -97, -47]);
  const pass = { kind: 'headland' as const, type: 'ExteriorHeadland' as const, headlandIndex: 0, loop };
  const ctx = (): RouteContext => ({
    region,
    loops: () => [loop],
    maxRingReachMeters: 20,
    turnOptions: { turnRadiusMeters: R, reverseAllowed: false },
    widthMeters: 6,
    warnings: [],
    searchFailuresLeft: 12,
  });

  it('is not joined, and costs no failed search and little field work', () => {
    const c = ctx();
    const workBefore = region.work;
    expect(enterHeadland(intoTheEnd, pass, c)).toBeUndefined();
    // no connector search ran to its end and failed
    expect(c.searchFailuresLeft).toBe(12);
    // the pocket's own search (≤ 600 expansions of 3 moves, a few points each), no connector search
    expect(region.work - workBefore).toBeLessThan(600 * 3 * 8);
  });

  it('is joined from the same place facing the way out', () => {
    expect(enterHeadland(outOfIt, pass, ctx())).toBeDefined();
  });
});
