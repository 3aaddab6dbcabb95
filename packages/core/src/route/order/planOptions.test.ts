/**
 * routeOptions through planRoute: each test compares against the same request without
 * the option (or with the opposite), so it fails if the option is ignored.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PlanError } from '../../errors.js';
import type { PathPlanRequest, Plan, Position, RouteSegment } from '../../types.js';
import { KICKS_PER_SECOND, SAFETY_CAP_FACTOR, workBudget } from '../../clock.js';
import { planRoute } from '../../plan.js';
import { checkPlan } from '../../check/checkPlan.js';

// 360 m (east-west) × 240 m field near 10° E, 50° N
const LON0 = 10;
const LAT0 = 50;
const M_PER_DEG_LAT = 111_200;
const M_PER_DEG_LON = 111_200 * Math.cos((LAT0 * Math.PI) / 180);
const at = (x: number, y: number): Position => [LON0 + x / M_PER_DEG_LON, LAT0 + y / M_PER_DEG_LAT];
const field = { type: 'Polygon' as const, coordinates: [[at(0, 0), at(360, 0), at(360, 240), at(0, 240), at(0, 0)]] };

function plan(
  routeOptions: PathPlanRequest['routeOptions'],
  extra: Partial<PathPlanRequest> = {},
  runtime?: { now?: () => number },
): Plan & Record<string, any> {
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 12, turnRadiusMeters: 6 },
    headland: { passes: 1 },
    tracks: { preferredDirectionDegrees: 0 },
    routeOptions,
    ...extra,
  };
  return planRoute(request, runtime) as Plan & Record<string, any>;
}

const tracks = (p: Plan): RouteSegment[] => p.route.filter((s) => s.type === 'Track');
const xOf = (pos: Position): number => (pos[0] - LON0) * M_PER_DEG_LON;
const yOf = (pos: Position): number => (pos[1] - LAT0) * M_PER_DEG_LAT;
const dist = (a: Position, b: Position): number => Math.hypot(xOf(a) - xOf(b), yOf(a) - yOf(b));

function expectValid(p: Plan): void {
  expect(checkPlan(field, p).violations).toEqual([]);
}

function expectContinuous(p: Plan): void {
  for (let i = 1; i < p.route.length; i++) {
    const prev = p.route[i - 1].coordinates;
    expect(dist(prev[prev.length - 1], p.route[i].coordinates[0])).toBeLessThan(0.05);
  }
}

describe('planRoute routeOptions', () => {
  it('algorithm picks the order of the tracks, and the plan reports it', () => {
    const b = plan({ algorithm: 'boustrophedon' });
    const s = plan({ algorithm: 'clusteredSpiral', skipCount: 1 });
    const lines = (p: Plan): number[] => tracks(p).map((t) => Math.round(xOf(t.coordinates[0]) / 12));
    const stepsB = lines(b)
      .slice(1)
      .map((l, i) => Math.abs(l - lines(b)[i]));
    const stepsS = lines(s)
      .slice(1)
      .map((l, i) => Math.abs(l - lines(s)[i]));
    expect(Math.max(...stepsB)).toBe(1);
    expect(Math.min(...stepsS)).toBeGreaterThanOrEqual(2);
    expect(b.optimizer.algorithm).toBe('boustrophedon');
    expect(s.optimizer.algorithm).toBe('clusteredSpiral');
    expectContinuous(s);
    expectValid(s);
    expectValid(b);
  });

  it('optimized (default) reports its search and is not worse than the fixed orders on the real route', () => {
    const o = plan({});
    expect(o.optimizer.algorithm).toBe('optimized');
    expect(o.optimizer.lowerBound).toBeLessThanOrEqual(o.optimizer.cost);
    for (const algorithm of ['boustrophedon', 'snake', 'spiral', 'clusteredSpiral'] as const) {
      expect(o.metrics.nonWorkingDistanceMeters).toBeLessThanOrEqual(
        plan({ algorithm }).metrics.nonWorkingDistanceMeters + 0.01,
      );
    }
  });

  it(
    "optimized costs routes connector by connector: the cost it chose on is the connected route's non-working " +
      'distance',
    () => {
      for (const ro of [
        {},
        { stagingArea: at(-100, -100) },
        { stagingArea: at(500, 120), headlandsFirst: true },
        { startPointNodeIndex: 3 },
      ]) {
        const p = plan(ro);
        expect(p.optimizer.connected.length).toBeGreaterThan(1);
        expect(p.optimizer.connectorsEvaluated).toBeGreaterThan(0);
        expect(p.optimizer.realNonWorkingCost).toBeCloseTo(p.metrics.nonWorkingDistanceMeters, 1);
        // put together from the connections made while costing, not connected a second time
        expect(p.optimizer.assembled).toBe(true);
        expectContinuous(p);
        expect(tracks(p)).toHaveLength(p.tracks.length);
        // every fixed order was costed the same way, in full or until it cost more than the chosen route
        for (const c of p.optimizer.connected)
          expect(c.nonWorkingCost).toBeGreaterThanOrEqual(p.optimizer.realNonWorkingCost - 1e-6);
      }
    },
  );

  it('a staging area far to the east moves the first track east; the route starts and ends there', () => {
    const east = plan({ stagingArea: at(3000, 120), headlandsFirst: false });
    const west = plan({ stagingArea: at(-3000, 120) });
    expect(xOf(tracks(east)[0].coordinates[0])).toBeGreaterThan(300);
    expect(xOf(tracks(west)[0].coordinates[0])).toBeLessThan(60);
    expect(dist(east.route[0].coordinates[0], at(3000, 120))).toBeLessThan(0.05);
    const last = east.route[east.route.length - 1].coordinates;
    expect(dist(last[last.length - 1], at(3000, 120))).toBeLessThan(0.05);
    expect(east.metrics.nonWorkingDistanceMeters).toBeGreaterThan(plan({}).metrics.nonWorkingDistanceMeters + 2 * 2600);
    expectContinuous(east);
    expectValid(east);
  });

  it('startPointNodeIndex / endPointNodeIndex: the route enters and leaves the tracks at the chosen nodes', () => {
    const base = plan({}, { headland: { passes: 0 } });
    expect(base.nodes.length).toBeGreaterThan(8);
    const p = plan({ startPointNodeIndex: 9, endPointNodeIndex: 4 }, { headland: { passes: 0 } });
    // node k = end k of the plan's tracks (as driven: turns may pull inner ends back, never the route's first start or
    // last end)
    const nodes = p.nodes as { index: number; trackIndex: number; position: Position }[];
    const startNode = nodes[9];
    const endNode = nodes[4];
    expect(startNode.trackIndex).toBe(4);
    expect(endNode.trackIndex).toBe(2);
    const t = tracks(p);
    expect(dist(t[0].coordinates[0], startNode.position)).toBeLessThan(1);
    const lastTrack = t[t.length - 1].coordinates;
    expect(dist(lastTrack[lastTrack.length - 1], endNode.position)).toBeLessThan(1);
    expect(tracks(base)[0].trackIndex).not.toBe(4);
  });

  it('rejects a node index the plan does not have', () => {
    expect(() => plan({ startPointNodeIndex: 100_000 })).toThrow(PlanError);
  });

  it('headlandsFirst works the exterior headland before the tracks (default: after)', () => {
    const first = plan({ headlandsFirst: true });
    const after = plan({});
    const working = (p: Plan): string[] =>
      p.route.filter((s) => s.type !== 'Turn' && s.type !== 'Connector').map((s) => s.type);
    expect(working(first)[0]).toBe('ExteriorHeadland');
    expect(working(after)[0]).toBe('Track');
    expect(working(after).at(-1)).toBe('ExteriorHeadland');
  });

  it('calculateRefillPoints adds refill points whose detours are counted in the metrics', () => {
    const machine = { widthMeters: 12, turnRadiusMeters: 6, tankCapacity: 300, applicationRatePerHectare: 200 };
    const without = plan({ stagingArea: at(-100, -100) }, { machine });
    for (const refillStrategyType of ['Exact', 'StartOfTrack', 'ClosestExternalHeadland'] as const) {
      const p = plan({ stagingArea: at(-100, -100), calculateRefillPoints: true, refillStrategyType }, { machine });
      // 8.64 ha worked at 200 l/ha with a 300 l tank: at least 5 refills
      expect(p.refillPoints.length).toBeGreaterThanOrEqual(5);
      expect(p.metrics.refillCount).toBe(p.refillPoints.length);
      // each detour is in the route: out to the staging area and back, continuous
      for (const r of p.refillPoints) {
        const out = p.route[r.routeSequence];
        const back = p.route[r.routeSequence + 1];
        expect([out.type, out.connectorKind, back.connectorKind]).toEqual(['Connector', 'refill', 'refill']);
        expect(dist(out.coordinates[0], r.position)).toBeLessThan(0.01);
        expect(dist(out.coordinates[out.coordinates.length - 1], at(-100, -100))).toBeLessThan(0.05);
      }
      expectContinuous(p);
      expectValid(p);
      const detour = p.refillPoints.reduce((a: number, r: { detourMeters: number }) => a + r.detourMeters, 0);
      expect(p.metrics.nonWorkingDistanceMeters).toBeCloseTo(without.metrics.nonWorkingDistanceMeters + detour, 0);
      if (refillStrategyType === 'StartOfTrack') {
        // refills at the start of a working pass (track or headland pass): the pass follows the detour
        const starts = p.refillPoints.filter((r: { alongMeters: number }) => r.alongMeters === 0);
        expect(starts.length).toBeGreaterThan(0);
        for (const r of starts) expect(['Track', 'ExteriorHeadland']).toContain(p.route[r.routeSequence + 2].type);
      }
    }
    expect(() => plan({ calculateRefillPoints: true })).toThrow(/tankCapacity/);
  });

  it('maxOptimizerTime buys a counted work budget: optimizer kicks and rounds on the real connectors', () => {
    for (const seconds of [0, 1, 10]) {
      const p = plan({ maxOptimizerTime: seconds });
      expect(p.optimizer.kicks).toBeLessThanOrEqual(workBudget(seconds).kicks);
      expect(p.optimizer.realCostRounds).toBeLessThanOrEqual(workBudget(seconds).rounds);
      if (seconds === 0) expect(p.optimizer.iterations).toBe(0);
    }
    expect(workBudget(10)).toEqual({ kicks: 10 * KICKS_PER_SECOND, rounds: 3 });
  });

  it('the costing on the real connectors is bounded by counted work, not by the clock', () => {
    // a clock that never moves: the work budget alone decides. A small maxOptimizerTime buys little
    // counted work (WORK_UNITS_PER_SECOND), so the costing stops short of what the default buys.
    const frozen = { now: () => 0 };
    const free = plan({ maxOptimizerTime: 10 }, {}, frozen);
    expect(free.optimizer.refineStoppedBy).not.toBe('work-limit');
    const small = plan({ maxOptimizerTime: 0.002 }, {}, frozen);
    expect(small.optimizer.refineStoppedBy).toBe('work-limit');
    expect(small.optimizer.connectorsEvaluated).toBeLessThan(free.optimizer.connectorsEvaluated);
    // not a wall-clock cut: no time-limit warning, and the same plan on a clock that runs without reaching the cap
    expect(small.warnings.map((w: { code: string }) => w.code)).not.toContain('time-limit');
    let t = 0;
    expect(JSON.stringify(plan({ maxOptimizerTime: 0.002 }, {}, { now: () => (t += 1e-6) }))).toBe(
      JSON.stringify(small),
    );
    expect(tracks(small)).toHaveLength(small.tracks.length);
    expectContinuous(small);
  });

  it('the wall clock caps the costing on the real connectors, and the plan says so', () => {
    // a wall clock that moves 1 ms each time it is read: the ordering reads it before every connector
    let t = 0;
    const free = plan({ maxOptimizerTime: 100 }, {}, { now: () => (t += 1) });
    expect(free.optimizer.refineStoppedBy).toBe('converged');
    expect(free.warnings.map((w: { code: string }) => w.code)).not.toContain('time-limit');
    // caps (SAFETY_CAP_FACTOR × limit) well below the reads the ordering makes when nothing stops it
    for (const limit of [t / 6000 / SAFETY_CAP_FACTOR, t / 3000 / SAFETY_CAP_FACTOR]) {
      let u = 0;
      const p = plan({ maxOptimizerTime: limit }, {}, { now: () => (u += 1) });
      expect(p.optimizer.refineStoppedBy).toBe('time-limit');
      expect(p.warnings.find((w: { code: string }) => w.code === 'time-limit')?.message).toMatch(
        /ordering on the real connectors stopped/,
      );
      // still a complete plan of every track
      expect(tracks(p)).toHaveLength(p.tracks.length);
      expectContinuous(p);
    }
  });

  it('a field planned twice (cells with headings of their own) is planned once when the cap has fired', () => {
    // at-ref-003 (concave, 1.2 ha): its cells get their own headings, so planRoute plans it twice
    // (own headings and one heading) and keeps the better; past the cap the first plan is kept.
    const corpusField = JSON.parse(
      readFileSync(new URL('../../../../../test/fields/at-ref-003.geojson', import.meta.url), 'utf8'),
    ).geometry;
    let t = 0;
    const p = planRoute(
      {
        field: corpusField,
        machine: { widthMeters: 6, turnRadiusMeters: 6 },
        headland: { passes: 2 },
        routeOptions: { maxOptimizerTime: 0.01 },
      },
      { now: () => (t += 1) },
    ) as Plan & Record<string, any>;
    expect(p.warnings.find((w: { code: string }) => w.code === 'time-limit')?.message).toMatch(
      /not planned a second time/,
    );
    expect(tracks(p)).toHaveLength(p.tracks.length);
  });

  it('the plan does not depend on the wall clock unless its cap fires', () => {
    // Two wall clocks, one 1,000 times slower than the other, neither reaching the cap: the same plan.
    const corpusField = JSON.parse(
      readFileSync(new URL('../../../../../test/fields/at-ref-003.geojson', import.meta.url), 'utf8'),
    ).geometry;
    const request = {
      field: corpusField,
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      routeOptions: { maxOptimizerTime: 1 },
    };
    let fast = 0,
      slow = 0;
    const a = JSON.stringify(planRoute(request, { now: () => (fast += 0.1) }));
    const b = JSON.stringify(planRoute(request, { now: () => (slow += 0.0001) }));
    expect(a).toBe(b);
    expect((JSON.parse(a) as Plan).warnings.map((w) => w.code)).not.toContain('time-limit');
    // A wall clock that has run out: the ordering stops where it is, and the plan says so.
    let late = 0;
    const cut = planRoute(request, { now: () => (late += 500) }) as Plan & Record<string, any>;
    expect(cut.warnings.map((w: { code: string }) => w.code)).toContain('time-limit');
    expect(cut.optimizer.refineStoppedBy).toBe('time-limit');
  });

  it('objective time costs seconds', () => {
    const d = plan({ objective: 'distance' });
    const t = plan({ objective: 'time' });
    // working at 2.5 m/s: the time cost is well below the distance cost
    expect(t.optimizer.cost).toBeLessThan(d.optimizer.cost * 0.7);
  });

  it('forcedDirection winds the headland passes and the spirals', () => {
    const signedArea = (c: Position[]): number => {
      let a = 0;
      for (let i = 1; i < c.length; i++) a += xOf(c[i - 1]) * yOf(c[i]) - xOf(c[i]) * yOf(c[i - 1]);
      return a;
    };
    for (const [dir, sign] of [
      ['CW', -1],
      ['CCW', 1],
    ] as const) {
      const p = plan({ forcedDirection: dir, algorithm: 'spiral' }, { headland: { passes: 2 } });
      const passes = p.route.filter((s) => s.type === 'ExteriorHeadland');
      expect(passes.length).toBe(2);
      for (const h of passes) expect(Math.sign(signedArea(h.coordinates))).toBe(sign);
      // first turn of the spiral: left (CCW) or right (CW) of the first track's direction
      const [t0, t1] = tracks(p);
      const a = t0.coordinates[0];
      const b = t0.coordinates[t0.coordinates.length - 1];
      const c = t1.coordinates[0];
      const cross = (xOf(b) - xOf(a)) * (yOf(c) - yOf(b)) - (yOf(b) - yOf(a)) * (xOf(c) - xOf(b));
      expect(Math.sign(cross)).toBe(sign);
    }
  });

  // enableHeadlandDrivethrough has no test here: the connect stage currently joins every pair of
  // tracks with a direct manoeuvre (it produces no headland traversals for the option to replace),
  // so the option changes nothing yet. Tracked in the issue notes, not hidden behind a skip.
});
