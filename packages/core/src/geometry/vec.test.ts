import { describe, expect, it } from 'vitest';
import { sortAscending } from './vec.js';
import { seededRandom } from './random.js';

describe('sortAscending', () => {
  it('sorts as the built-in numeric sort does, short arrays and long, in place', () => {
    const rnd = seededRandom(11);
    for (let n = 0; n <= 40; n++) {
      for (let trial = 0; trial < 5; trial++) {
        // few distinct values among many, so ties and signed zeros come up
        const xs = Array.from({ length: n }, () =>
          rnd() < 0.2 ? (rnd() < 0.5 ? 0 : -0) : Math.round((rnd() - 0.5) * 20) / 4,
        );
        const expected = xs.slice().sort((p, q) => p - q);
        const out = sortAscending(xs);
        expect(out).toBe(xs);
        expect(out.map((x) => (Object.is(x, -0) ? '-0' : String(x)))).toEqual(
          expected.map((x) => (Object.is(x, -0) ? '-0' : String(x))),
        );
      }
    }
  });
});
