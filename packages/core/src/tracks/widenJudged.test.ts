/**
 * The widen-or-keep step judges the tracks as generated (one heading, ends not extended), before
 * cells are weighed: a planning it drops (made with the passes asked, only to be planned again
 * wider) is neither weighed nor extended, with or without the wall-clock cap. be-vlg-081 at W 3 m,
 * R 12 m needs 9 passes where 1 is asked.
 */
import { describe, expect, it } from 'vitest';
import { corpusField } from '../__fixtures__/corpusField.js';
import { planRoute } from '../plan.js';
import type { PathPlanRequest } from '../types.js';

const request: PathPlanRequest = {
  field: corpusField('be-vlg-081'),
  machine: { widthMeters: 3, turnRadiusMeters: 12 },
  headland: { passes: 1 },
  routeOptions: { maxOptimizerTime: 1 },
};
const message = (p: { warnings: { code: string; message: string }[] }, code: string): string | undefined =>
  p.warnings.find((w) => w.code === code)?.message;
const plannedWith = (m: string | undefined): string | undefined => /planned with (\d+)/.exec(m ?? '')?.[1];

describe('the widened headland', () => {
  it('is judged alike with and without the wall-clock cap, and planned with the passes the turns need', () => {
    const stages: string[] = [];
    const free = planRoute(request, { now: () => 0, onProgress: (p) => stages.push(p.stage) });
    expect(message(free, 'time-limit')).toBeUndefined();
    expect(plannedWith(message(free, 'headland-widened'))).toBe('9');
    // the dropped planning stops at its tracks: two plannings' tracks before the first route
    expect(stages.slice(0, stages.indexOf('order')).filter((s) => s === 'tracks')).toHaveLength(2);
    // a clock past the cap from its second reading on: every stage runs hurried
    let readings = 0;
    const hurried = planRoute(request, { now: () => (readings++ === 0 ? 0 : 1e9) });
    expect(message(hurried, 'time-limit')).toBeDefined();
    expect(message(hurried, 'headland-widened')).toBe(message(free, 'headland-widened'));
  });
});
