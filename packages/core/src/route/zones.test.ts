/**
 * Never off the field: parts the machine cannot join inside the field become zones of one plan,
 * joined by declared transit legs, each warned with its place; access points (gates) are where
 * the route starts and where transit legs leave and enter the zones.
 */
import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { routeOffField } from '../check/offField.js';
import { createLocalFrame } from '../geometry/projection.js';
import { PlanError } from '../errors.js';
import type { FieldGeometry, PathPlanRequest, Plan, Position } from '../types.js';

const frame = createLocalFrame([[9, 52]]);
const ll = (x: number, y: number): Position => frame.toLonLat(x, y);
const ring = (pts: [number, number][]): Position[] => [...pts.map(([x, y]) => ll(x, y)), ll(pts[0][0], pts[0][1])];
const meters = (a: Position, b: Position): number => {
  const [ax, ay] = frame.toLocal(a[0], a[1]),
    [bx, by] = frame.toLocal(b[0], b[1]);
  return Math.hypot(ax - bx, ay - by);
};

/** Two 100 × 80 m squares joined by a 2 m wide, 20 m long neck: narrower than the 6 m machine. */
const necked: FieldGeometry = {
  type: 'Polygon',
  coordinates: [
    ring([
      [0, 0],
      [100, 0],
      [100, 39],
      [120, 39],
      [120, 0],
      [220, 0],
      [220, 80],
      [120, 80],
      [120, 41],
      [100, 41],
      [100, 80],
      [0, 80],
    ]),
  ],
};
/** The same squares as two parts of a MultiPolygon, 20 m apart. */
const twoParts: FieldGeometry = {
  type: 'MultiPolygon',
  coordinates: [
    [
      ring([
        [0, 0],
        [100, 0],
        [100, 80],
        [0, 80],
      ]),
    ],
    [
      ring([
        [120, 0],
        [220, 0],
        [220, 80],
        [120, 80],
      ]),
    ],
  ],
};

const request = (field: FieldGeometry, extra: Partial<PathPlanRequest> = {}): PathPlanRequest => ({
  field,
  machine: { widthMeters: 6, turnRadiusMeters: 6 },
  headland: { passes: 2 },
  tracks: { preferredDirectionDegrees: 0 },
  ...extra,
});

const transitLegs = (plan: Plan) => plan.route.filter((s) => s.type === 'Connector' && s.connectorKind === 'transport');

/** What every plan of a field in parts must show. */
function expectZonedAndWarned(req: PathPlanRequest, plan: Plan): void {
  const legs = transitLegs(plan);
  expect(legs.length).toBeGreaterThan(0);
  // Zones: the route between transit legs, each with its own start and end, in driving order.
  const zones = plan.zones ?? [];
  expect(zones.length).toBe(legs.length + 1);
  for (const z of zones) {
    const first = plan.route[z.firstSequence],
      last = plan.route[z.lastSequence];
    expect(meters(z.start, first.coordinates[0])).toBeLessThan(0.01);
    expect(meters(z.end, last.coordinates[last.coordinates.length - 1])).toBeLessThan(0.01);
    for (let k = z.firstSequence; k <= z.lastSequence; k++) expect(plan.route[k].zone).toBe(z.index);
  }
  // Every transit leg is warned, with its sequence and its line.
  for (const leg of legs) {
    const w = plan.warnings.find((x) => x.code === 'transit-leg' && x.sequence === leg.sequence);
    expect(w, `transit leg ${leg.sequence} warned`).toBeDefined();
    expect(w!.geometry?.type).toBe('LineString');
    expect(w!.message).toMatch(/leaves the field/);
  }
  // Nothing else leaves the field; furrow's check is clean.
  const off = routeOffField(req, plan).filter((p) => p.connectorKind !== 'transport' && p.offFieldMeters > 0);
  expect(off).toEqual([]);
  expect(checkPlan(req, plan).violations).toEqual([]);
}

describe('zones joined by declared transit legs', () => {
  it(
    'two squares joined by a neck narrower than the machine: two zones and a warned transit leg, nothing else off ' +
      'the field',
    () => {
      const req = request(necked);
      const plan = planRoute(req);
      expectZonedAndWarned(req, plan);
      // Both squares are worked.
      expect(plan.metrics.uncoveredRatio).toBeLessThan(0.05);
    },
  );

  it('a multipolygon: its parts are zones, every crossing between them warned', () => {
    const req = request(twoParts);
    const plan = planRoute(req);
    expectZonedAndWarned(req, plan);
  });

  it('a field in one piece has one zone, no transit leg and no transit warning', () => {
    const plan = planRoute(
      request({
        type: 'Polygon',
        coordinates: [
          ring([
            [0, 0],
            [150, 0],
            [150, 90],
            [0, 90],
          ]),
        ],
      }),
    );
    expect(plan.zones).toHaveLength(1);
    expect(plan.zones![0]).toMatchObject({ index: 0, firstSequence: 0, lastSequence: plan.route.length - 1 });
    expect(transitLegs(plan)).toEqual([]);
    expect(plan.warnings.filter((w) => w.code === 'transit-leg')).toEqual([]);
  });
});

describe('access points', () => {
  const gates: Position[] = [ll(0, 0), ll(220, 80)];

  it('the route starts at the first gate, and each zone names the gates nearest its start and end', () => {
    const without = planRoute(request(twoParts));
    const withGates = planRoute(request(twoParts, { accessPoints: gates }));
    const startOf = (p: Plan): Position => p.route[0].coordinates[0];
    expect(meters(startOf(withGates), gates[0])).toBeLessThan(meters(startOf(without), gates[0]));
    expect(meters(startOf(withGates), gates[0])).toBeLessThan(20);
    const zones = withGates.zones ?? [];
    expect(zones[0].entryAccessPoint).toBe(0);
    for (const z of zones) {
      expect(z.entryAccessPointMeters).toBeCloseTo(Math.min(...gates.map((g) => meters(z.start, g))), 1);
      expect(z.exitAccessPointMeters).toBeCloseTo(Math.min(...gates.map((g) => meters(z.end, g))), 1);
    }
  });

  it('transit legs run through the gates nearest where they leave and enter, and stay warned', () => {
    const req = request(twoParts, { accessPoints: gates });
    const plan = planRoute(req);
    const legs = transitLegs(plan);
    expect(legs.length).toBeGreaterThan(0);
    for (const leg of legs) {
      const a = leg.coordinates[0],
        b = leg.coordinates[leg.coordinates.length - 1];
      const nearestGate = (p: Position): Position => gates.reduce((g, h) => (meters(p, h) < meters(p, g) ? h : g));
      for (const g of [nearestGate(a), nearestGate(b)])
        expect(Math.min(...leg.coordinates.map((c) => meters(c, g)))).toBeLessThan(0.01);
      expect(
        plan.warnings.some(
          (w) => w.code === 'transit-leg' && w.sequence === leg.sequence && /access points/.test(w.message),
        ),
      ).toBe(true);
    }
    expect(checkPlan(req, plan).violations).toEqual([]);
  });

  it('bad access points are refused, naming the one', () => {
    const bad = (accessPoints: unknown): unknown => {
      try {
        planRoute(request(twoParts, { accessPoints: accessPoints as Position[] }));
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const e = bad([ll(0, 0), [52, 300]]) as PlanError;
    expect(e).toBeInstanceOf(PlanError);
    expect(e.code).toBe('invalid-request');
    expect(e.details?.[0]?.path).toBe('accessPoints[1]');
    expect((bad('gate') as PlanError).details?.[0]?.path).toBe('accessPoints');
  });
});
