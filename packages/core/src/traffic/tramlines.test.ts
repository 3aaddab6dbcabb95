import { describe, expect, it } from 'vitest';
import { tramRhythm } from './tramlines.js';

/**
 * The lanes each pass carries, from geometry alone: pass n's swath (full first pass: [(n−1)w, nw];
 * half: the first [0, w/2], then [(n − 1.5)w, (n − 0.5)w]) against the sprayer's lanes at
 * k·w/2 + j·k·w ± gauge/2. Offsets from the pass centre.
 */
function lanesByGeometry(n: number, k: number, firstPass: 'full' | 'half', w: number, g: number): number[] {
  const lo = firstPass === 'full' ? (n - 1) * w : (n - 1.5) * w,
    hi = lo + w,
    centre = (lo + hi) / 2;
  const out: number[] = [];
  for (let j = -2; j < 20; j++)
    for (const lane of [(k * w) / 2 + j * k * w - g / 2, (k * w) / 2 + j * k * w + g / 2])
      if (lane > lo && lane < hi) out.push(Math.round((lane - centre) * 1e6) / 1e6);
  return out.sort((a, b) => a - b);
}

describe('tramRhythm', () => {
  for (const firstPass of ['full', 'half'] as const)
    for (const [w, k] of [
      [12, 1],
      [12, 2],
      [12, 3],
      [12, 4],
      [12, 5],
      [9, 3],
      [6, 6],
      [6, 7],
    ])
      it(`k = ${k}, ${w} m, ${firstPass} first pass: the lanes fall where the sprayer's wheels run`, () => {
        let marked = 0;
        for (let n = 2; n <= 3 * k + 2; n++) {
          const got = tramRhythm(n, k, firstPass, w, 3).map((x) => Math.round(x * 1e6) / 1e6);
          expect(got).toEqual(lanesByGeometry(n, k, firstPass, w, 3));
          marked += got.length;
        }
        expect(marked).toBeGreaterThan(0);
      });
});
