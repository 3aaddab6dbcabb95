/**
 * Past the call's wall-clock cap the widen-or-keep step judges the tracks as generated, before
 * their ends are extended: the planning it drops (made with the passes asked, only to be planned
 * again wider) is then not extended either. The `time-limit` warning says so, and the headland is
 * widened as it is without the cap. be-vlg-081 at W 3 m, R 12 m needs 9 passes where 1 is asked.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import type { FieldGeometry, PathPlanRequest } from '../types.js';
import { CUT_WIDEN_EARLY } from './planTracks.js';

const g = JSON.parse(readFileSync(new URL('../../../../test/fields/be-vlg-081.geojson', import.meta.url), 'utf8')) as { type: string; geometry?: FieldGeometry };
const request: PathPlanRequest = { field: (g.type === 'Feature' ? g.geometry : g) as FieldGeometry, machine: { widthMeters: 3, turnRadiusMeters: 12 }, headland: { passes: 1 }, routeOptions: { maxOptimizerTime: 1 } };
const message = (p: { warnings: { code: string; message: string }[] }, code: string): string | undefined => p.warnings.find((w) => w.code === code)?.message;
const plannedWith = (m: string | undefined): string | undefined => /planned with (\d+)/.exec(m ?? '')?.[1];

describe('the widened headland past the wall-clock cap', () => {
  it('is judged on the tracks before extension, says so, and widens as without the cap', () => {
    const free = planRoute(request, { now: () => 0 });
    expect(message(free, 'time-limit')).toBeUndefined();
    expect(plannedWith(message(free, 'headland-widened'))).toBe('9');
    // a clock past the cap from its second reading on: every stage runs hurried
    let readings = 0;
    const hurried = planRoute(request, { now: () => (readings++ === 0 ? 0 : 1e9) });
    expect(message(hurried, 'time-limit')).toContain(CUT_WIDEN_EARLY);
    expect(plannedWith(message(hurried, 'headland-widened'))).toBe('9');
  });
});
