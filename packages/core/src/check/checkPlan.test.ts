/**
 * checkPlan's kinematic checks: curvature and curvature rate along every turn and
 * connector, heading continuity at every junction, reversing only where allowed — split at cusps.
 * Plans are made by the planner, then damaged on purpose to show each check can fail.
 */
import fc from 'fast-check';
import { turnCase } from '../__fixtures__/turnCases.js';
import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from './checkPlan.js';
import { checkRouteKinematics } from './routeKinematics.js';
import type { RoutePieceXY } from './routeKinematics.js';
import { createLocalFrame } from '../geometry/projection.js';
import { turnCandidates } from '../turns/index.js';
import type { GeoJsonPolygon, PathPlanRequest, Plan, Position } from '../types.js';

const frame = createLocalFrame([[15, 48]]);

/** A rectangle in local meters around (15°, 48°), as GeoJSON lon/lat. */
function rectField(w: number, h: number): GeoJsonPolygon {
  const ring = (
    [
      [-w / 2, -h / 2],
      [w / 2, -h / 2],
      [w / 2, h / 2],
      [-w / 2, h / 2],
    ] as [number, number][]
  ).map(([x, y]) => frame.toLonLat(x, y));
  return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
}

const field = rectField(200, 120);
const codes = (plan: Plan, request: PathPlanRequest): string[] =>
  checkPlan(request, plan).violations.map((v) => v.code);

/** Rotates the lon/lat points of a route segment about its first point by `radians` (in a local frame). */
function rotateSegment(coords: Position[], radians: number): Position[] {
  const f = createLocalFrame([coords[0] as [number, number]]);
  const xy = coords.map((c) => f.toLocal(c[0], c[1]));
  const [ox, oy] = xy[0];
  const c = Math.cos(radians),
    s = Math.sin(radians);
  return xy.map(([x, y]) => f.toLonLat(ox + c * (x - ox) - s * (y - oy), oy + s * (x - ox) + c * (y - oy)) as Position);
}

describe('checkPlan: kinematics of turns, connectors and junctions', () => {
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 6, turnRadiusMeters: 6, maxCurvatureRatePerSquareMeter: 0.3 },
    headland: { passes: 2 },
    routeOptions: { algorithm: 'snake' },
  };
  const plan = planRoute(request);

  it('a clothoid plan on a rectangle has no violation', () => {
    expect(plan.route.some((s) => s.type === 'Turn')).toBe(true);
    expect(checkPlan(request, plan).violations).toEqual([]);
  });

  it('a turn turned by 2° at its start is a heading jump where it leaves the track', () => {
    const damaged: Plan = JSON.parse(JSON.stringify(plan));
    const i = damaged.route.findIndex((s) => s.type === 'Turn');
    damaged.route[i].coordinates = rotateSegment(damaged.route[i].coordinates, (2 * Math.PI) / 180);
    // The rotation moves the end by ~0.5 m: a gap there too, but the kink is what matters here.
    const v = checkPlan(request, damaged).violations.filter((x) => x.sequence === damaged.route[i].sequence);
    const jump = v.find((x) => x.code === 'heading-jump');
    expect(jump, JSON.stringify(v)).toBeDefined();
    expect(jump!.message).toMatch(/where it leaves Track/);
  });

  it('a curvature-rate limit tighter than the turns were built for is reported; none is not', () => {
    const tight = { ...request, machine: { ...request.machine!, maxCurvatureRatePerSquareMeter: 0.05 } };
    expect(codes(plan, tight)).toContain('curvature-rate');
    const none = { ...request, machine: { widthMeters: 6, turnRadiusMeters: 6 } };
    expect(codes(plan, none)).toEqual([]);
    // A larger minimum radius than planned: the turns are too sharp.
    const wide = { ...request, machine: { ...request.machine!, turnRadiusMeters: 8 } };
    expect(codes(plan, wide)).toContain('curvature');
  });
});

describe('checkPlan: reversing', () => {
  // R 12 m, w 6 m, 2 passes: no forward turn fits the 12 m headland, so the
  // planner reverses when allowed.
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 6, turnRadiusMeters: 12, maxCurvatureRatePerSquareMeter: 0.3, reverseAllowed: true },
    headland: { passes: 2 },
    routeOptions: { algorithm: 'snake' },
  };
  const plan = planRoute(request);
  const reversing = plan.route.filter((s) => s.reverse);

  it('reverse turns pass when reversing is allowed (cusps split the curvature check)', () => {
    expect(reversing.length).toBeGreaterThan(0);
    const v = checkPlan(request, plan).violations;
    expect(v.filter((x) => ['curvature', 'curvature-rate', 'heading-jump', 'reverse'].includes(x.code))).toEqual([]);
  });

  it('the same plan checked against a machine that may not reverse fails with reverse', () => {
    const noReverse = { ...request, machine: { ...request.machine!, reverseAllowed: false } };
    const v = checkPlan(noReverse, plan).violations.filter((x) => x.code === 'reverse');
    expect(v.length).toBeGreaterThanOrEqual(reversing.length);
    expect(new Set(v.map((x) => x.sequence))).toEqual(new Set(reversing.map((s) => s.sequence)));
  });
});

describe('checkRouteKinematics', () => {
  const R = 6;
  const sigma = 0.3;
  /** Track (0,0)→(0,50), a CC turn to (-12, 50) heading down, track back to (-12, 0). */
  function route(turnRotationRadians = 0): RoutePieceXY[] {
    const turn = turnCandidates(
      { x: 0, y: 50, headingRadians: Math.PI / 2 },
      { x: -12, y: 50, headingRadians: -Math.PI / 2 },
      { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma },
    )[0];
    const xy = Float64Array.from(turn.points);
    const c = Math.cos(turnRotationRadians),
      s = Math.sin(turnRotationRadians);
    for (let i = 0; i < xy.length; i += 2) {
      const x = xy[i],
        y = xy[i + 1] - 50;
      xy[i] = c * x - s * y;
      xy[i + 1] = 50 + s * x + c * y;
    }
    const n = xy.length;
    return [
      { sequence: 0, type: 'Track', xy: Float64Array.from([0, 0, 0, 50]) },
      { sequence: 1, type: 'Turn', turnType: turn.turnType, xy },
      // Leaves along the turn's end heading (−90° + the rotation): only the start is kinked.
      {
        sequence: 2,
        type: 'Track',
        xy: Float64Array.from([xy[n - 2], xy[n - 1], xy[n - 2] + 50 * s, xy[n - 1] - 50 * c]),
      },
    ];
  }

  it('a CC U-turn between two tracks passes', () => {
    expect(checkRouteKinematics(route(), { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma })).toEqual([]);
  });

  it('a kink of 3° where the turn leaves a 50 m track is found at the start, measured on short chords', () => {
    const v = checkRouteKinematics(route((3 * Math.PI) / 180), {
      turnRadiusMeters: R,
      maxCurvatureRatePerSquareMeter: sigma,
    });
    const jump = v.find((x) => x.kind === 'heading-jump' && x.where === 'start');
    expect(jump, JSON.stringify(v)).toBeDefined();
    expect((jump!.value * 180) / Math.PI).toBeGreaterThan(2.9);
    expect(Math.hypot(jump!.x, jump!.y - 50)).toBeLessThan(0.3);
  });

  it('a turn drawn with plain arcs breaks a rate limit of 0.1 where it meets the tracks (R 3 m)', () => {
    const turn = turnCandidates(
      { x: 0, y: 50, headingRadians: Math.PI / 2 },
      { x: -6, y: 50, headingRadians: -Math.PI / 2 },
      { turnRadiusMeters: 3, smoothing: 'Arcs' },
    )[0];
    const xy = Float64Array.from(turn.points);
    const pieces: RoutePieceXY[] = [
      { sequence: 0, type: 'Track', xy: Float64Array.from([0, 0, 0, 50]) },
      { sequence: 1, type: 'Turn', xy },
      { sequence: 2, type: 'Track', xy: Float64Array.from([-6, 50, -6, 0]) },
    ];
    const v = checkRouteKinematics(pieces, { turnRadiusMeters: 3, maxCurvatureRatePerSquareMeter: 0.1 });
    expect(v.map((x) => x.kind)).toContain('curvature-rate');
    expect(checkRouteKinematics(pieces, { turnRadiusMeters: 3 })).toEqual([]);
  });

  it(
    'staging legs (straight, to a depot) are not checked; a reversed piece is reported when reversing is not ' +
      'allowed',
    () => {
      const r = route();
      const staging: RoutePieceXY = {
        sequence: -1,
        type: 'Connector',
        connectorKind: 'staging',
        xy: Float64Array.from([30, -30, 0, 0]),
      };
      expect(checkRouteKinematics([staging, ...r], { turnRadiusMeters: R })).toEqual([]);
      // The same leg as an ordinary connector makes a 45° corner at the track start.
      const plain: RoutePieceXY = { ...staging, connectorKind: 'direct' };
      expect(checkRouteKinematics([plain, ...r], { turnRadiusMeters: R }).map((x) => x.kind)).toContain('heading-jump');
      r[1].reverse = true;
      expect(checkRouteKinematics(r, { turnRadiusMeters: R }).map((x) => x.kind)).toEqual(['reverse']);
      expect(checkRouteKinematics(r, { turnRadiusMeters: R, reverseAllowed: true })).toEqual([]);
    },
  );

  it(
    "property: track → every turn candidate → track passes with the turn options' own limits (no false alarm at " +
      'junctions)',
    () => {
      fc.assert(
        fc.property(
          ...turnCase,
          fc.double({ min: 0.3, max: 80, noNaN: true }),
          (from, to, R, sigma, reverseAllowed, trackMeters) => {
            const opts = { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma, reverseAllowed };
            const cf = Math.cos(from.headingRadians),
              sf = Math.sin(from.headingRadians);
            const ct = Math.cos(to.headingRadians),
              st = Math.sin(to.headingRadians);
            const before: RoutePieceXY = {
              sequence: 0,
              type: 'Track',
              xy: Float64Array.from([from.x - trackMeters * cf, from.y - trackMeters * sf, from.x, from.y]),
            };
            const after: RoutePieceXY = {
              sequence: 2,
              type: 'Track',
              xy: Float64Array.from([to.x, to.y, to.x + trackMeters * ct, to.y + trackMeters * st]),
            };
            for (const p of turnCandidates(from, to, opts)) {
              const turn: RoutePieceXY = {
                sequence: 1,
                type: 'Turn',
                turnType: p.turnType,
                xy: Float64Array.from(p.points),
                ...(p.cusps.length > 0 || p.startsReversed ? { reverse: true } : {}),
              };
              const v = checkRouteKinematics([before, turn, after], opts);
              expect(v, `${p.word} ${p.turnType}`).toEqual([]);
            }
          },
        ),
        { seed: 4, numRuns: 60, endOnFailure: true },
      );
    },
  );

  it('a polygonal arc of radius 1.15 R cut a few millimetres past a vertex is not a kink', () => {
    // Vertices every 0.235 m on a circle of radius 6.9 m, then one 3 cm chord (a cut chord), then on.
    const r = 6.9;
    const pts: number[] = [];
    const step = 0.235 / r;
    for (let k = 0; k <= 8; k++) pts.push(r * Math.sin(k * step), r - r * Math.cos(k * step));
    const a8 = 8 * step,
      cut = 0.03 / 0.235;
    const ax = r * Math.sin(a8),
      ay = r - r * Math.cos(a8),
      bx = r * Math.sin(a8 + step),
      by = r - r * Math.cos(a8 + step);
    pts.push(ax + (bx - ax) * cut, ay + (by - ay) * cut);
    for (let k = 9; k <= 16; k++) pts.push(r * Math.sin(k * step), r - r * Math.cos(k * step));
    const piece: RoutePieceXY = { sequence: 0, type: 'Connector', xy: Float64Array.from(pts) };
    expect(checkRouteKinematics([piece], { turnRadiusMeters: 6 })).toEqual([]);
    // At 7 m minimum radius the same arc is too tight.
    expect(checkRouteKinematics([piece], { turnRadiusMeters: 7.5 }).map((x) => x.kind)).toContain('curvature');
  });
});
