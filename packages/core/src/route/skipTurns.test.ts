/**
 * Skip turns on a machine whose turning circle is wider than its spacing (W 3 m, R 12 m, no
 * reversing): the tracks are joined by U turns to a track ⌈2R / w⌉ or more lines over, not by
 * loops at every track end, and the headland is as deep as those turns reach (widened, or the
 * figure reported when the request keeps its passes).
 */
import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import { predictFieldTurns } from '../turns/index.js';
import type { GeoJsonPolygon, Plan, PathPlanRequest } from '../types.js';

function rectangleAt(lon0: number, lat0: number, w: number, h: number): GeoJsonPolygon {
  const frame = createLocalFrame([[lon0, lat0]]);
  const ring = (
    [
      [-w / 2, -h / 2],
      [w / 2, -h / 2],
      [w / 2, h / 2],
      [-w / 2, h / 2],
      [-w / 2, -h / 2],
    ] as [number, number][]
  ).map(([x, y]) => frame.toLonLat(x, y));
  return { type: 'Polygon', coordinates: [ring] };
}

const W = 3,
  R = 12;
const field = rectangleAt(15, 48, 240, 150);
const request = (headland: PathPlanRequest['headland']): PathPlanRequest => ({
  field,
  machine: { widthMeters: W, turnRadiusMeters: R, reverseAllowed: false },
  headland,
  tracks: { preferredDirectionDegrees: 90 },
});

/** Joins from one track straight to the next (the manoeuvres at the track ends). */
function trackJoins(plan: Plan): Plan['route'] {
  const r = plan.route;
  return r.filter(
    (s, i) => (s.type === 'Turn' || s.type === 'Connector') && r[i - 1]?.type === 'Track' && r[i + 1]?.type === 'Track',
  );
}

describe('skip turns at W 3 m, R 12 m (no reversing)', () => {
  // the forward U the machine can drive: to the track `k` over, reaching `reach` past the track ends
  const k = Math.ceil((2 * R) / W);
  const u = predictFieldTurns(k * W, { turnRadiusMeters: R }).find(
    (t) => t.turnType === 'U' || t.turnType === 'PerfectU',
  )!;

  it('joins tracks by U turns to a track k ≥ 2R / w over, counted as turns, on a headland widened to reach', () => {
    const plan = planRoute(request({ passes: 3 }));
    const widened = plan.warnings.find((w) => w.code === 'headland-widened');
    expect(widened, JSON.stringify(plan.warnings)).toBeDefined();
    // as many passes as the U turns reach past the track ends, and the message gives the figure
    expect(plan.headlandPasses! * W).toBeGreaterThanOrEqual(u.extentMeters);
    expect(plan.headlandPasses!).toBeGreaterThan(3);
    expect(widened!.message).toContain(`${plan.headlandPasses} headland passes`);
    expect(checkPlan({ field, machine: { widthMeters: W, turnRadiusMeters: R } }, plan).violations).toEqual([]);
    const joins = trackJoins(plan);
    expect(joins.length).toBe(plan.route.filter((s) => s.type === 'Track').length - 1);
    expect(joins.length).toBeGreaterThan(30);
    // no loop at a track end (a bulb to the neighbour is R[π + 4·arccos((w + 2R)/4R)] ≈ 85 m here):
    // every join is about as long as a U to a track a few lines farther over
    const bulb = predictFieldTurns(W, { turnRadiusMeters: R })[0];
    expect(bulb.lengthMeters).toBeGreaterThan(1.5 * u.lengthMeters);
    for (const j of joins) expect(j.lengthMeters).toBeLessThan(1.5 * u.lengthMeters);
    const us = joins.filter((j) => j.turnType === 'U' || j.turnType === 'PerfectU').length;
    expect(us / joins.length).toBeGreaterThan(0.9);
    // the joins are turns
    expect(plan.metrics.turns).toBeGreaterThanOrEqual(joins.length);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.01);
    expect(plan.metrics.nonWorkingDistanceMeters / plan.metrics.workingDistanceMeters).toBeLessThan(0.35);
  });

  it('with the passes kept (fitTurns false) the plan says how many the turns need', () => {
    const plan = planRoute(request({ passes: 3, fitTurns: false }));
    expect(plan.headlandPasses).toBe(3);
    const narrow = plan.warnings.find((w) => w.code === 'headland-too-narrow');
    expect(narrow, JSON.stringify(plan.warnings)).toBeDefined();
    const needed = Math.ceil(u.extentMeters / W);
    const named = Number(/(\d+) headland passes/.exec(narrow!.message)?.[1]);
    expect(named).toBeGreaterThanOrEqual(needed);
    expect(named).toBeLessThanOrEqual(needed + 1);
    expect(plan.warnings.some((w) => w.code === 'headland-widened')).toBe(false);
  });

  it('a headland deep enough is kept as asked, without a warning', () => {
    const plan = planRoute(request({ passes: 6 }));
    expect(plan.headlandPasses).toBe(6);
    expect(plan.warnings.filter((w) => w.code.startsWith('headland-'))).toEqual([]);
  });
});

describe('strips narrower than the headland the turns need (W 3 m, R 12 m, no reversing)', () => {
  const strip = (width: number): PathPlanRequest => ({
    field: rectangleAt(15, 48, 200, width),
    machine: { widthMeters: W, turnRadiusMeters: R, reverseAllowed: false },
    headland: { passes: 3 },
  });
  const cost = (p: Plan): number =>
    p.metrics.uncoveredRatio + 0.05 * (p.metrics.nonWorkingDistanceMeters / p.metrics.workingDistanceMeters);

  it('a strip of few tracks is driven round in passes as deep as a U turn reaches, not in tracks and loops', () => {
    const request = strip(30);
    const plan = planRoute(request);
    const widened = plan.warnings.find((w) => w.code === 'headland-widened');
    expect(widened, JSON.stringify(plan.warnings)).toBeDefined();
    expect(widened!.message).toContain('fewer track lines');
    expect(plan.headlandPasses).toBeGreaterThan(3);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.02);
    expect(checkPlan(request, plan).violations).toEqual([]);
    const kept = planRoute({ ...request, headland: { passes: 3, fitTurns: false } });
    expect(kept.metrics.uncoveredRatio).toBeGreaterThan(plan.metrics.uncoveredRatio + 0.1);
  });

  it('a 20 m strip: the call does at least as well as the strip planned alone with the 3 passes asked or 5', () => {
    // 20 m: 5 passes a side fill the strip and their inner rings cannot be joined with strip passes in
    // the middle; without those strip passes the rings join. The call lists that variant too.
    const request = strip(20);
    const plan = planRoute(request, { now: () => 0 });
    const said = plan.warnings.find((w) => w.code.startsWith('headland-'))!.message;
    expect(Number(/(\d+) headland passes/.exec(said)?.[1])).toBeGreaterThan(3);
    for (const passes of [3, 5]) {
      const alone = planRoute({ ...request, headland: { passes, fitTurns: false } }, { now: () => 0 });
      expect(cost(plan), `alone with ${passes} passes`).toBeLessThanOrEqual(cost(alone) + 1e-9);
    }
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.15);
    expect(checkPlan(request, plan).violations).toEqual([]);
  }, 180_000);
});
