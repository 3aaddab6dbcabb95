/**
 * Past the call's wall-clock cap the narrow corridors are not looked for (an opening of the whole
 * field: on the 1,000 ha scale field about 0.3 s of CPU after the cap had fired); the `time-limit`
 * warning says so. be-vlg-081 has one corridor narrower than a 6 m machine.
 */
import { describe, expect, it } from 'vitest';
import { corpusField } from '../__fixtures__/corpusField.js';
import { planRoute } from '../plan.js';
import type { PathPlanRequest } from '../types.js';
import { CUT_CORRIDORS } from './planExtras.js';

const request: PathPlanRequest = {
  field: corpusField('be-vlg-081'),
  machine: { widthMeters: 6, turnRadiusMeters: 6 },
  routeOptions: { maxOptimizerTime: 1 },
};
const codes = (p: { warnings: { code: string }[] }): string[] => p.warnings.map((w) => w.code);

describe('plan extras past the wall-clock cap', () => {
  it('reports narrow corridors when the cap has not passed, and skips them, saying so, when it has', () => {
    const free = planRoute(request, { now: () => 0 });
    expect(codes(free)).toContain('narrow-corridor');
    expect(codes(free)).not.toContain('time-limit');
    let late = 0;
    const cut = planRoute(request, { now: () => (late += 500) });
    expect(codes(cut)).not.toContain('narrow-corridor');
    expect(cut.warnings.find((w) => w.code === 'time-limit')?.message).toContain(CUT_CORRIDORS);
    // the route itself is still whole: every track driven
    expect(cut.route.filter((s) => s.type === 'Track').length).toBe(cut.tracks.length);
  });
});
