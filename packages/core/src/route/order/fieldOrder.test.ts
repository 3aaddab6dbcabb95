import { describe, expect, it } from 'vitest';
import { PlanError } from '../../errors.js';
import { objectiveRates } from '../optimize/objective.js';
import { DEFAULTS, resolveRouteOptions } from '../../request/normalizeRequest.js';
import { orderInput } from '../../__fixtures__/orderInput.js';
import { defaultSkipCount, orderFieldTracks } from './fieldOrder.js';

const input = orderInput;

describe('orderFieldTracks', () => {
  it('derives the skip that keeps neighbouring passes 2R apart', () => {
    expect(defaultSkipCount(6, 6)).toBe(1);
    expect(defaultSkipCount(12, 6)).toBe(0);
    expect(defaultSkipCount(3, 6)).toBe(3);
    expect(defaultSkipCount(5, 6)).toBe(2);
  });

  it('visits every track once for every algorithm, alternating driving directions on turns', () => {
    for (const algorithm of ['optimized', 'boustrophedon', 'snake', 'spiral', 'clusteredSpiral'] as const) {
      const { visits, report } = orderFieldTracks(input(21, { routeOptions: { algorithm } }));
      expect(new Set(visits.map((v) => v.trackIndex)).size).toBe(21);
      expect(report.algorithm).toBe(algorithm);
      for (let k = 1; k < visits.length; k++) expect(visits[k].forward).toBe(!visits[k - 1].forward);
    }
  });

  it('a staging area far to the east moves the first track east', () => {
    const east = orderFieldTracks(
      input(30, {
        startPoint: { x: 5000, y: 150 },
        startIsStaging: true,
        endPoint: { x: 5000, y: 150 },
        endIsStaging: true,
      }),
    );
    const west = orderFieldTracks(
      input(30, {
        startPoint: { x: -5000, y: 150 },
        startIsStaging: true,
        endPoint: { x: -5000, y: 150 },
        endIsStaging: true,
      }),
    );
    expect(east.visits[0].trackIndex).toBeGreaterThanOrEqual(27);
    expect(west.visits[0].trackIndex).toBeLessThanOrEqual(2);
  });

  it('starts and ends at the chosen nodes (node 2i = start of track i, 2i + 1 = its end)', () => {
    const { visits } = orderFieldTracks(
      input(16, { routeOptions: { startPointNodeIndex: 15, endPointNodeIndex: 20 } }),
    );
    expect(visits[0]).toEqual({ trackIndex: 7, forward: false });
    expect(visits.at(-1)).toEqual({ trackIndex: 10, forward: false });
    const fixed = orderFieldTracks(input(16, { routeOptions: { algorithm: 'snake', startPointNodeIndex: 15 } }));
    expect(fixed.visits[0]).toEqual({ trackIndex: 7, forward: false });
  });

  it('rejects node indices that are not in the plan with a typed error', () => {
    expect(() => orderFieldTracks(input(4, { routeOptions: { startPointNodeIndex: 8 } }))).toThrow(PlanError);
    try {
      orderFieldTracks(input(4, { routeOptions: { endPointNodeIndex: 99 } }));
    } catch (e) {
      expect((e as PlanError).code).toBe('invalid-option');
      expect((e as PlanError).details[0].path).toBe('routeOptions.endPointNodeIndex');
    }
  });

  it('optimized needs no more estimated non-working cost than any fixed order', () => {
    const base = input(40, { startPoint: { x: -20, y: -20 }, startIsStaging: true });
    const cost = (algorithm: 'optimized' | 'boustrophedon' | 'snake' | 'spiral' | 'clusteredSpiral'): number =>
      orderFieldTracks({ ...base, routeOptions: resolveRouteOptions({ algorithm }, 6, 6) }).report.cost;
    const opt = cost('optimized');
    for (const alg of ['boustrophedon', 'snake', 'spiral', 'clusteredSpiral'] as const)
      expect(opt).toBeLessThanOrEqual(cost(alg) + 1e-6);
  });

  it('respects maxOptimizerTime with an injected clock', () => {
    let t = 0;
    const { report } = orderFieldTracks(input(200, { routeOptions: { maxOptimizerTime: 0 }, now: () => (t += 1) }));
    expect(report.stoppedBy).toBe('time-limit');
    expect(report.iterations).toBe(0);
  });

  it('the time objective values the transport legs at transport speed', () => {
    const rates = objectiveRates(
      { ...DEFAULTS, turningSpeedMetersPerSecond: 1, transportSpeedMetersPerSecond: 10 },
      'time',
    );
    const r = orderFieldTracks(input(10, { rates, startPoint: { x: -100, y: 0 }, startIsStaging: true }));
    const d = orderFieldTracks(input(10, { startPoint: { x: -100, y: 0 }, startIsStaging: true }));
    // working 10 × 300 m at 2.5 m/s = 1200 s; the distance run costs meters, the time run seconds
    expect(r.report.cost).toBeGreaterThan(1200);
    expect(d.report.cost).toBeGreaterThan(3000);
    expect(r.report.cost).toBeLessThan(d.report.cost);
  });
});

describe('alternatives', () => {
  it('optimized offers its own order first and every distinct fixed order after it', () => {
    const { alternatives } = orderFieldTracks(input(25));
    expect(alternatives[0].algorithm).toBe('optimized');
    const keys = alternatives.map((a) => JSON.stringify(a.visits));
    expect(new Set(keys).size).toBe(keys.length);
    for (const a of alternatives) expect(new Set(a.visits.map((v) => v.trackIndex)).size).toBe(25);
    expect(orderFieldTracks(input(25, { routeOptions: { algorithm: 'snake' } })).alternatives).toHaveLength(1);
  });

  it("without a clock, a large field keeps two alternatives: the optimizer's order and the cheapest fixed one", () => {
    const many = orderFieldTracks(input(450, { routeOptions: { maxOptimizerTime: 0 } }));
    expect(many.alternatives).toHaveLength(2);
    expect(many.alternatives[0].algorithm).toBe('optimized');
    let t = 0;
    const timed = orderFieldTracks(input(450, { routeOptions: { maxOptimizerTime: 0 }, now: () => (t += 1) }));
    expect(timed.alternatives.length).toBeGreaterThan(2);
  });
});
