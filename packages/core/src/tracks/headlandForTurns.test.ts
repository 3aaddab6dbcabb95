import { describe, expect, it } from 'vitest';
import {
  headlandNeedForTurns,
  HEADLAND_NEED_MARGIN_METERS,
  HEADLAND_SHORTFALL_TOLERANCE_METERS,
} from './headlandForTurns.js';
import { turnHeadlandPasses } from './widenHeadland.js';
import { turnCandidates } from '../turns/index.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import type { Track } from './generateTracks.js';

/**
 * Tracks along +x (u = x, v = y), spaced w, their start ends on the line x = −tan α · y, their far ends at x
 * = 200.
 */
function slantedTracks(count: number, w: number, tanAlpha: number): Track[] {
  return Array.from({ length: count }, (_, i) => {
    const v = i * w;
    const u0 = -tanAlpha * v;
    return { line: i, u0, u1: 200, v, x0: u0, y0: v, x1: 200, y1: v };
  });
}

/**
 * How far the real U turn between the start ends of tracks a and b (b entered from its start) reaches past their end
 * line.
 */
function reachPastEndLine(a: Track, b: Track, tanAlpha: number, R: number): number {
  const from = { x: a.x0, y: a.y0, headingRadians: Math.PI };
  const to = { x: b.x0, y: b.y0, headingRadians: 0 };
  const u = turnCandidates(from, to, { turnRadiusMeters: R, reverseAllowed: false }).find(
    (c) => c.turnType === 'U' || c.turnType === 'PerfectU',
  );
  expect(u).toBeDefined();
  // the end line x + tan α · y = 0; its outward unit normal is −(1, tan α) / √(1 + tan²α)
  const n = Math.hypot(1, tanAlpha);
  let reach = 0;
  const p = u!.points;
  for (let i = 0; i < p.length; i += 2) reach = Math.max(reach, -(p[i] + tanAlpha * p[i + 1]) / n);
  return reach;
}

describe('headlandNeedForTurns: the headland the skip turns reach into', () => {
  const w = 3,
    R = 12;

  it('ends level: a U to the track ⌈2R / w⌉ over, reaching R past the ends', () => {
    const tracks = slantedTracks(30, w, 0);
    const need = headlandNeedForTurns(tracks, w, { turnRadiusMeters: R })!;
    expect(need.skipLines * w).toBeGreaterThanOrEqual(2 * R);
    expect((need.skipLines - 1) * w).toBeLessThan(2 * R);
    const real = reachPastEndLine(tracks[0], tracks[need.skipLines], 0, R);
    expect(real).toBeCloseTo(R, 1);
    expect(need.depthMeters).toBeGreaterThanOrEqual(real);
    expect(need.depthMeters).toBeLessThanOrEqual(real + HEADLAND_NEED_MARGIN_METERS + 0.05);
    expect(need.passes * w).toBeGreaterThanOrEqual(need.depthMeters);
    expect((need.passes - 1) * w).toBeLessThan(need.depthMeters);
  });

  it.each([0.2, 0.5, 1])(
    'ends on an edge slanted by tan α = %s: as deep as the real U turn reaches past that edge',
    (tanAlpha) => {
      const tracks = slantedTracks(30, w, tanAlpha);
      const need = headlandNeedForTurns(tracks, w, { turnRadiusMeters: R })!;
      const real = reachPastEndLine(tracks[0], tracks[need.skipLines], tanAlpha, R);
      // a slanted edge needs more than R
      expect(real).toBeGreaterThan(R + 1);
      expect(need.depthMeters).toBeGreaterThanOrEqual(real);
      expect(need.depthMeters).toBeLessThanOrEqual(real + HEADLAND_NEED_MARGIN_METERS + 0.05);
    },
  );

  it('a field of fewer tracks than a U turn spans: the depth of a U between level ends, no join measured', () => {
    const need = headlandNeedForTurns(slantedTracks(5, w, 0), w, { turnRadiusMeters: R })!;
    expect(need.joins).toBe(0);
    expect(5).toBeLessThanOrEqual(need.skipLines);
    const level = headlandNeedForTurns(slantedTracks(30, w, 0), w, { turnRadiusMeters: R })!;
    expect(need.depthMeters).toBeCloseTo(level.depthMeters, 6);
    expect(headlandNeedForTurns([], w, { turnRadiusMeters: R })).toBeUndefined();
  });
});

describe('turnHeadlandPasses: widened only for more than a few decimetres', () => {
  const square = [
    [
      { x: -300, y: -300 },
      { x: 300, y: -300 },
      { x: 300, y: 300 },
      { x: -300, y: 300 },
    ],
  ];
  const settings = (w: number, R: number, passes: number) =>
    normalizeRequest({
      field: {
        type: 'Polygon',
        coordinates: [
          [
            [15, 48],
            [15.01, 48],
            [15.01, 48.01],
            [15, 48],
          ],
        ],
      },
      machine: { widthMeters: w, turnRadiusMeters: R },
      headland: { passes },
    });

  it('W 6 m, R 6 m, 2 passes: U turns reaching a few decimetres into the clearance keep the 2 passes', () => {
    // ends on an edge slanted by tan α = 3: the U to the track 2 over needs 12–12.5 m with the clearance
    const tracks = slantedTracks(30, 6, 3);
    const need = headlandNeedForTurns(tracks, 6, { turnRadiusMeters: 6 })!;
    expect(need.depthMeters).toBeGreaterThan(12);
    expect(need.depthMeters).toBeLessThanOrEqual(12 + HEADLAND_SHORTFALL_TOLERANCE_METERS);
    expect(turnHeadlandPasses(settings(6, 6, 2), tracks, square)).toBeNull();
  });

  it('a shortfall of more than that widens the headland to the passes the turns need', () => {
    const tracks = slantedTracks(30, 6, 3);
    const t = turnHeadlandPasses(settings(6, 6, 1), tracks, square)!;
    expect(t.widened).toBe(true);
    expect(t.passes).toBe(3);
    // W 3 m, R 12 m, 3 passes (9 m): the U to the track 8 over reaches 12 m
    const wide = turnHeadlandPasses(settings(3, 12, 3), slantedTracks(60, 3, 0), square)!;
    expect(wide.widened).toBe(true);
    expect(wide.passes * 3).toBeGreaterThanOrEqual(12);
  });
});
