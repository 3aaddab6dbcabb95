import { describe, expect, it } from 'vitest';
import { candidateInside, turnCandidates } from './index.js';
import type { Pose, TurnOptions } from './index.js';

/** Pose pairs: a U-turn to the next track, a long one, a skew join, with a rate limit and reversing. */
const cases: { from: Pose; to: Pose; opts: TurnOptions }[] = [
  {
    from: { x: 0, y: 0, headingRadians: Math.PI / 2 },
    to: { x: 6, y: 0, headingRadians: -Math.PI / 2 },
    opts: { turnRadiusMeters: 6 },
  },
  {
    from: { x: 0, y: 0, headingRadians: Math.PI / 2 },
    to: { x: 3, y: -2, headingRadians: -Math.PI / 2 },
    opts: { turnRadiusMeters: 12, reverseAllowed: true },
  },
  {
    from: { x: 10, y: 5, headingRadians: 0.3 },
    to: { x: -40, y: 70, headingRadians: 2.9 },
    opts: { turnRadiusMeters: 8, maxCurvatureRatePerSquareMeter: 0.05 },
  },
];

describe('candidateInside', () => {
  it(
    'shows the region test the points the candidate samples, keeps them only where it passes, and leaves every ' +
      'candidate with its own points',
    () => {
      for (const { from, to, opts } of cases) {
        const tested = turnCandidates(from, to, opts);
        const fresh = turnCandidates(from, to, opts);
        expect(tested.length).toBeGreaterThan(2);
        const seen: number[][] = [];
        // every other candidate rejected; the seen points copied (the buffer is shared)
        const verdicts = tested.map((c, i) =>
          candidateInside(c, {
            containsPolyline: (xy) => {
              seen.push(Array.from(xy));
              return i % 2 === 0;
            },
          }),
        );
        expect(verdicts).toEqual(tested.map((_, i) => i % 2 === 0));
        for (let i = 0; i < tested.length; i++) {
          const expected = Array.from(fresh[i].points);
          expect(seen[i]).toEqual(expected);
          // a passed candidate keeps the points it was shown; a rejected one samples them anew when read
          expect(Array.from(tested[i].points)).toEqual(expected);
        }
        // read once sampled: the test sees those points, not the buffer's
        const again: number[][] = [];
        candidateInside(tested[0], {
          containsPolyline: (xy) => {
            again.push(Array.from(xy));
            return true;
          },
        });
        expect(again[0]).toEqual(Array.from(fresh[0].points));
      }
    },
  );
});
