import { describe, expect, it } from 'vitest';
import { areaOf, bufferPolylines, flatToPath } from './clipper.js';
import { CHUNK_SEGMENTS, mainPassDirection, passSwath, sweepAngle, turnedSwaths } from './swaths.js';
import { plannedPasses } from '../tracks/strips.js';
import { seededRandom } from './random.js';

/**
 * A closed ring round a w × h rectangle turned by `turn`, a vertex every `step` m, each off the side by up to
 * ±`jitter`
 * m; first point repeated.
 */
function jitteryRing(w: number, h: number, step: number, jitter: number, turn = 0, seed = 3): Float64Array {
  const rnd = seededRandom(seed);
  const corners = [
    [0, 0],
    [w, 0],
    [w, h],
    [0, h],
  ];
  const pts: number[] = [];
  for (let k = 0; k < 4; k++) {
    const [x0, y0] = corners[k],
      [x1, y1] = corners[(k + 1) % 4];
    const l = Math.hypot(x1 - x0, y1 - y0),
      n = Math.round(l / step);
    for (let i = 0; i < n; i++) {
      const t = i / n,
        d = i === 0 ? 0 : (2 * rnd() - 1) * jitter;
      const x = x0 + (x1 - x0) * t - ((y1 - y0) / l) * d,
        y = y0 + (y1 - y0) * t + ((x1 - x0) / l) * d;
      pts.push(x * Math.cos(turn) - y * Math.sin(turn), x * Math.sin(turn) + y * Math.cos(turn));
    }
  }
  pts.push(pts[0], pts[1]);
  return Float64Array.from(pts);
}

describe('swaths', () => {
  it('buffers a long kinked pass in pieces to the same swath as in one (closed and open, flat ends kept)', () => {
    const ring = jitteryRing(300, 200, 0.5, 0.15);
    expect(ring.length / 2).toBeGreaterThan(4 * CHUNK_SEGMENTS);
    const whole = bufferPolylines([flatToPath(ring.subarray(0, ring.length - 2))], 3, true);
    expect(Math.abs(areaOf(passSwath(ring, 6)) - areaOf(whole))).toBeLessThan(1e-4 * areaOf(whole));
    const open = ring.subarray(0, 2 * 700);
    const wholeOpen = bufferPolylines([flatToPath(open)], 3);
    expect(Math.abs(areaOf(passSwath(open, 6)) - areaOf(wholeOpen))).toBeLessThan(1e-4 * areaOf(wholeOpen));
  });

  it('tilts the sweep off the tracks where a long jittery side lies along them, and not otherwise', () => {
    const tracks = Array.from({ length: 20 }, (_, k) => ({ xy: [10, 10 + 6 * k, 290, 10 + 6 * k], widthMeters: 6 }));
    const along = [...tracks, { xy: jitteryRing(300, 200, 0.5, 0.15), widthMeters: 6 }];
    expect(mainPassDirection(along)).toBeCloseTo(0, 6);
    expect(Math.abs(sweepAngle(along, []))).toBeGreaterThan(0.01);
    // the field's sides at 30° to the tracks: nothing lies flat, the sweep follows the tracks
    const across = [...tracks, { xy: jitteryRing(300, 200, 0.5, 0.15, Math.PI / 6), widthMeters: 6 }];
    expect(sweepAngle(across, [])).toBeCloseTo(0, 6);
  });

  it(
    'sweeps a headland pass of the same ring once per call: the plannings share its swath, equal to one drawn ' +
      'afresh',
    () => {
      const ring = Array.from({ length: 300 }, (_, i) => ({
        x: 200 * Math.cos((2 * Math.PI * i) / 300),
        y: 120 * Math.sin((2 * Math.PI * i) / 300),
      }));
      const tracks = [{ line: 0, u0: -50, u1: 50, v: 0, x0: -50, y0: 0, x1: 50, y1: 0 }];
      const first = plannedPasses([ring], tracks, 6),
        second = plannedPasses([ring], tracks, 6);
      expect(second[0].xy).toBe(first[0].xy);
      const a = turnedSwaths(first, []),
        b = turnedSwaths(second, []);
      // the pass's swath rings are the same objects; the track's are drawn again
      expect(b.curved[0]).toBe(a.curved[0]);
      expect(b.areaSum).toBe(a.areaSum);
      const fresh = turnedSwaths([{ xy: Float64Array.from(first[0].xy), widthMeters: 6 }, second[1]], []);
      expect(fresh.curved[0]).not.toBe(a.curved[0]);
      expect([...fresh.curved, ...fresh.straight]).toEqual([...a.curved, ...a.straight]);
      expect(fresh.areaSum).toBe(a.areaSum);
    },
  );
});
