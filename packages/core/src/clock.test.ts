/**
 * The call's wall-clock cap keeps time for what every plan needs after it, more on a larger field:
 * FINISH_MILLISECONDS_PER_TRACK_KILOMETER per kilometre of tracks, not before MIN_CAP_SHARE of the
 * limit; a frozen clock never reaches it.
 */
import { describe, expect, it } from 'vitest';
import {
  FINISH_MAX_MILLISECONDS,
  FINISH_MILLISECONDS_PER_TRACK_KILOMETER,
  FINISH_SHARE,
  LATE_RESERVE_SHARE,
  MIN_CAP_SHARE,
  capCall,
  trackKilometres,
} from './clock.js';

/** When (ms on a clock stepped by 1 ms from 0) the cap of a call with this limit and field first answers over. */
function firesAt(maxOptimizerTimeSeconds: number, trackKm: number): number {
  let t = 0;
  const cap = capCall(() => t, maxOptimizerTimeSeconds, trackKm)!;
  for (; t < 1e6; t++) if (cap.over()) return t;
  return Infinity;
}

/** When the cap's late moment (`hurry(what, true)`) first answers true. */
function lateAt(maxOptimizerTimeSeconds: number, trackKm: number): number {
  let t = 0;
  const cap = capCall(() => t, maxOptimizerTimeSeconds, trackKm)!;
  for (; t < 1e6; t++) if (cap.hurry('late work', true)) return t;
  return Infinity;
}

describe('the call cap', () => {
  it('has a late moment after the cap, inside max(2 × limit, limit + 1 s), that records what it cut', () => {
    for (const [s, km] of [
      [0.5, 10],
      [1, 10],
      [10, 10],
      [10, 2000],
    ]) {
      const most = Math.max(2000 * s, 1000 * s + 1000);
      expect(lateAt(s, km)).toBeGreaterThanOrEqual(firesAt(s, km));
      expect(lateAt(s, km)).toBeLessThanOrEqual((1 - LATE_RESERVE_SHARE) * most);
    }
    let t = 0;
    const cap = capCall(() => t, 0.5, 10)!;
    t = 400;
    expect(cap.hurry('cheap work')).toBe(true);
    expect(cap.hurry('late work', true)).toBe(false);
    expect(cap.cut).toEqual(['cheap work']);
    t = 1500;
    expect(cap.hurry('late work', true)).toBe(true);
    expect(cap.cut).toEqual(['cheap work', 'late work']);
  });

  it('fires the fixed reserve before the limit on a small field', () => {
    expect(firesAt(2, 10)).toBe(2000 - Math.min(FINISH_SHARE * 2000, FINISH_MAX_MILLISECONDS));
    expect(firesAt(10, 10)).toBe(10_000 - FINISH_MAX_MILLISECONDS);
  });

  it('keeps more for a large field, never firing before its least share of the limit', () => {
    const km = 2000;
    expect(firesAt(10, km)).toBe(10_000 - FINISH_MILLISECONDS_PER_TRACK_KILOMETER * km);
    expect(firesAt(10, km)).toBeLessThan(firesAt(10, 10));
    expect(firesAt(2, 1e6)).toBe(MIN_CAP_SHARE * 2000);
  });

  it('never fires on a frozen clock, however large the field', () => {
    const cap = capCall(() => 0, 2, 1e6)!;
    expect(cap.over()).toBe(false);
  });

  it('sizes a field by its area over the width', () => {
    // a 1 km × 1 km square at 52° N with a 100 m × 100 m hole, worked 10 m wide: 99 km of tracks
    const lat = 52,
      dLat = 1000 / 111_320,
      dLon = dLat / Math.cos((lat * Math.PI) / 180);
    const sq = (x0: number, y0: number, s: number, cw: boolean): number[][] => {
      const r = [
        [10 + x0 * dLon, lat + y0 * dLat],
        [10 + (x0 + s) * dLon, lat + y0 * dLat],
        [10 + (x0 + s) * dLon, lat + (y0 + s) * dLat],
        [10 + x0 * dLon, lat + (y0 + s) * dLat],
      ];
      return cw ? r.reverse() : r;
    };
    expect(trackKilometres([[sq(0, 0, 1, false), sq(0.45, 0.45, 0.1, true)]], 10)).toBeCloseTo(99, 0);
  });
});
