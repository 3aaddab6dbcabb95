import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors.js';
import type { Plan, Position } from '../types.js';
import * as core from '../index.js';
import { readFileSync } from 'node:fs';
import type { FieldGeometry, PathPlanRequest } from '../types.js';
import {
  cornerStartNodes,
  haversineMeters,
  sequenceFields,
  visitsFromPlan,
  visitsFromPlans,
  type SequencingField,
  type SequencingRequest,
} from './index.js';

const METERS_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

/** Field i: an east-west strip from lon0 to lon1 on the equator, worked either way. */
function strip(id: string, lon0: number, lon1: number, workTimeSeconds = 600): SequencingField {
  const w: Position = [lon0, 0],
    e: Position = [lon1, 0];
  const work = { workTimeSeconds, workDistanceMeters: 1000 };
  return {
    id,
    visits: [
      { entry: w, exit: e, ...work },
      { entry: e, exit: w, ...work },
    ],
  };
}

describe('straight-line sequencing', () => {
  it('haversine: one degree of latitude is R·π/180', () => {
    expect(haversineMeters([5, 10], [5, 11])).toBeCloseTo(METERS_PER_DEGREE, 3);
    expect(haversineMeters([5, 10], [5, 10])).toBe(0);
  });

  it('strips in a row east of the depot: work them outwards, each entered from the depot side', () => {
    // Given in a scrambled order; the best day drives 0 → 0.01 → … → 0.05 and back.
    const fields = [strip('c', 0.04, 0.05), strip('a', 0.01, 0.02), strip('b', 0.025, 0.035)];
    const day = sequenceFields({ depot: [0, 0], fields, objective: 'distance' });
    expect(day.method).toBe('exact');
    expect(day.stops.map((s) => s.fieldId)).toEqual(['a', 'b', 'c']);
    for (const s of day.stops) expect(s.visit.entry[0]).toBeLessThan(s.visit.exit[0]);
    // Transport: 0→0.01, 0.02→0.025, 0.035→0.04, 0.05→0 = 0.01 + 0.005 + 0.005 + 0.05 degrees.
    expect(day.metrics.transportDistanceMeters).toBeCloseTo(0.07 * METERS_PER_DEGREE, 1);
    expect(day.legs).toHaveLength(4);
    expect(day.legs[0].from).toBe('depot');
    expect(day.legs[3].to).toBe('depot');
    expect(day.metrics.workTimeSeconds).toBe(1800);
    expect(day.metrics.timeSeconds).toBeCloseTo(1800 + (0.07 * METERS_PER_DEGREE) / 4, 6);
    expect(day.stops[1].arriveSeconds).toBeCloseTo(day.stops[0].leaveSeconds + (0.005 * METERS_PER_DEGREE) / 4, 6);
  });

  it('a separate end point changes the order and the last exit', () => {
    const fields = [strip('a', 0.01, 0.02), strip('b', 0.03, 0.04)];
    const day = sequenceFields({ depot: [0.05, 0], end: [0, 0], fields, objective: 'distance' });
    expect(day.stops.map((s) => s.fieldId)).toEqual(['b', 'a']);
    expect(day.stops[1].visit.exit).toEqual([0.01, 0]);
    expect(day.metrics.transportDistanceMeters).toBeCloseTo(0.03 * METERS_PER_DEGREE, 1);
  });

  it('day metrics: detour factor, workday overtime, fuel', () => {
    const fields = [strip('a', 0.01, 0.02)];
    const day = sequenceFields({
      depot: [0, 0],
      fields: [
        { ...fields[0], visits: fields[0].visits.map((v) => ({ ...v, workFuelLiters: 5 })), areaSquareMeters: 20_000 },
      ],
      transport: { mode: 'straightLine', detourFactor: 1.5 },
      transportSpeedMetersPerSecond: 10,
      transportFuelLitersPerHour: 36,
      workdaySeconds: 600,
    });
    const road = 1.5 * 0.03 * METERS_PER_DEGREE;
    expect(day.metrics.transportDistanceMeters).toBeCloseTo(road, 1);
    expect(day.metrics.fuelLiters).toBeCloseTo(5 + ((road / 10) * 36) / 3600, 6);
    expect(day.metrics.overtimeSeconds).toBeCloseTo(road / 10, 6);
    expect(day.metrics.areaSquareMeters).toBe(20_000);
  });
});

describe('matrix sequencing', () => {
  /** n fields, each with two visits at their own points; point 0 is the depot. Random asymmetric matrix. */
  function randomInstance(n: number, seed: number): { req: SequencingRequest; points: Position[]; matrix: number[][] } {
    let s = seed;
    const rnd = (): number => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const points: Position[] = [[0, 0]];
    const fields: SequencingField[] = [];
    for (let f = 0; f < n; f++) {
      const a: Position = [0.01 * (f + 1), 0.001],
        b: Position = [0.01 * (f + 1), 0.002];
      points.push(a, b);
      const work = 300 + Math.floor(rnd() * 300);
      fields.push({
        id: `f${f}`,
        visits: [
          { entry: a, exit: b, workTimeSeconds: work, workDistanceMeters: 1 },
          { entry: b, exit: a, workTimeSeconds: work + 50, workDistanceMeters: 1 },
        ],
      });
    }
    const matrix = points.map((_, i) => points.map((__, j) => (i === j ? 0 : Math.floor(500 + rnd() * 5000))));
    return {
      req: {
        depot: [0, 0],
        fields,
        transport: { mode: 'matrix', points, distancesMeters: matrix },
        transportSpeedMetersPerSecond: 5,
        objective: 'time',
      },
      points,
      matrix,
    };
  }

  /** Brute force over all orders and visit choices. */
  function bruteForceTime(req: SequencingRequest, points: Position[], matrix: number[][]): number {
    const idx = (p: Position): number => points.findIndex((q) => q[0] === p[0] && q[1] === p[1]);
    const n = req.fields.length;
    let best = Infinity;
    const perm = (order: number[], rest: number[]): void => {
      if (rest.length === 0) {
        for (let mask = 0; mask < 1 << n; mask++) {
          let t = 0,
            at = 0;
          order.forEach((f, k) => {
            const v = req.fields[f].visits[(mask >> k) & 1];
            t += matrix[at][idx(v.entry)] / 5 + v.workTimeSeconds;
            at = idx(v.exit);
          });
          t += matrix[at][0] / 5;
          best = Math.min(best, t);
        }
        return;
      }
      rest.forEach((f, i) => perm([...order, f], [...rest.slice(0, i), ...rest.slice(i + 1)]));
    };
    perm([], [...Array(n).keys()]);
    return best;
  }

  it('property: the exact search equals brute force on random asymmetric matrices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 6 }), (seed, n) => {
        const { req, points, matrix } = randomInstance(n, seed);
        const day = sequenceFields(req);
        expect(day.method).toBe('exact');
        expect(day.metrics.timeSeconds).toBeCloseTo(bruteForceTime(req, points, matrix), 6);
        expect(new Set(day.stops.map((s) => s.fieldId)).size).toBe(n);
      }),
      { seed: 7, numRuns: 25 },
    );
  });

  it(
    'the heuristic is within 5 % of the exact transport on every one of ten 10-field instances, 1 % on average, ' +
      'never below',
    () => {
      const gaps: number[] = [];
      for (let seed = 1; seed <= 10; seed++) {
        const { req } = randomInstance(10, seed * 7919);
        const r = { ...req, objective: 'distance' as const };
        const exact = sequenceFields(r);
        const heuristic = sequenceFields({ ...r, exactMaxFields: 0 });
        expect(heuristic.method).toBe('heuristic');
        const gap = heuristic.metrics.transportDistanceMeters / exact.metrics.transportDistanceMeters - 1;
        expect(gap).toBeGreaterThanOrEqual(-1e-12);
        expect(gap).toBeLessThanOrEqual(0.05);
        gaps.push(gap);
      }
      expect(gaps.reduce((a, b) => a + b, 0) / gaps.length).toBeLessThanOrEqual(0.01);
    },
  );

  it('60 fields finish quickly with every field once', () => {
    const { req } = randomInstance(60, 5);
    const t0 = performance.now();
    const day = sequenceFields(req);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(day.stops.map((s) => s.fieldId).sort()).toEqual(req.fields.map((f) => f.id).sort());
  });

  it('durations from the matrix are used when given', () => {
    const { req, points } = randomInstance(2, 1);
    const durations = points.map(() => points.map(() => 100));
    const day = sequenceFields({
      ...req,
      transport: { ...(req.transport as object), durationsSeconds: durations } as SequencingRequest['transport'],
    });
    expect(day.metrics.transportTimeSeconds).toBe(300);
  });
});

describe('bad input', () => {
  const base: SequencingRequest = { depot: [0, 0], fields: [strip('a', 0.01, 0.02)] };
  const cases: [string, SequencingRequest, RegExp][] = [
    ['no fields', { ...base, fields: [] }, /at least one field/],
    ['duplicate ids', { ...base, fields: [strip('a', 0.01, 0.02), strip('a', 0.03, 0.04)] }, /used twice/],
    ['bad depot', { ...base, depot: [200, 0] }, /depot/],
    ['fuel objective without rate', { ...base, objective: 'fuel' }, /transportFuelLitersPerHour/],
    [
      'point missing from the matrix',
      { ...base, transport: { mode: 'matrix', points: [[0, 0]], distancesMeters: [[0]] } },
      /no place within 10 m of field "a" entry/,
    ],
    [
      'ragged matrix',
      {
        ...base,
        transport: {
          mode: 'matrix',
          points: [
            [0, 0],
            [1, 1],
          ],
          distancesMeters: [[0, 1], [1]],
        },
      },
      /distancesMeters\[1\]/,
    ],
    [
      'negative work time',
      {
        ...base,
        fields: [{ id: 'x', visits: [{ entry: [0, 0], exit: [0, 0], workTimeSeconds: -1, workDistanceMeters: 0 }] }],
      },
      /workTimeSeconds/,
    ],
  ];
  for (const [name, req, message] of cases) {
    it(`rejects ${name}`, () => {
      expect(() => sequenceFields(req)).toThrowError(PlanError);
      expect(() => sequenceFields(req)).toThrowError(message);
    });
  }
});

describe('visits from a plan', () => {
  it('offers the route as planned and driven backwards, with the plan’s metrics', () => {
    const plan = {
      version: 't',
      metrics: { timeSeconds: 1234, distanceMeters: 5678, fuelLiters: 9 },
      heading: { degrees: 0, source: 'search' },
      boundary: { type: 'Polygon', coordinates: [] },
      warnings: [],
      route: [
        {
          sequence: 0,
          type: 'Track',
          coordinates: [
            [1, 2],
            [1, 3],
          ],
          lengthMeters: 1,
        },
        {
          sequence: 1,
          type: 'Turn',
          coordinates: [
            [1, 3],
            [2, 3],
          ],
          lengthMeters: 1,
        },
      ],
    } as unknown as Plan;
    const [fwd, rev] = visitsFromPlan(plan);
    expect(fwd).toMatchObject({
      entry: [1, 2],
      exit: [2, 3],
      workTimeSeconds: 1234,
      workDistanceMeters: 5678,
      workFuelLiters: 9,
      reversed: false,
    });
    expect(rev).toMatchObject({ entry: [2, 3], exit: [1, 2], reversed: true });
    expect(() => visitsFromPlan({ ...plan, route: [] })).toThrowError(PlanError);
  });
});

describe('visits from several plans of a field', () => {
  const mk = (entry: [number, number], exit: [number, number], t: number) =>
    ({
      version: 't',
      metrics: { timeSeconds: t, distanceMeters: 1 },
      heading: { degrees: 0, source: 'search' },
      boundary: { type: 'Polygon', coordinates: [] },
      warnings: [],
      route: [{ sequence: 0, type: 'Track', coordinates: [entry, exit], lengthMeters: 1 }],
      nodes: [
        { index: 0, trackIndex: 0 },
        { index: 1, trackIndex: 0 },
        { index: 2, trackIndex: 1 },
        { index: 3, trackIndex: 1 },
        { index: 4, trackIndex: 2 },
        { index: 5, trackIndex: 2 },
      ],
    }) as unknown as Plan;

  it('merges, tags the start node and plan, keeps the cheaper of duplicates', () => {
    const v = visitsFromPlans([
      { plan: mk([0, 0], [1, 1], 100) },
      { plan: mk([1, 1], [0, 0], 90), startPointNodeIndex: 5 },
      { plan: mk([2, 2], [3, 3], 80), startPointNodeIndex: 0 },
    ]);
    expect(v).toHaveLength(4); // (0→1, 1→0) twice collapse to two, plus 2→3 and 3→2
    const back = v.find((x) => x.entry[0] === 1 && x.exit[0] === 0)!;
    expect(back).toMatchObject({ workTimeSeconds: 90, startPointNodeIndex: 5, planIndex: 1, reversed: false });
    expect(v.find((x) => x.entry[0] === 3)).toMatchObject({ planIndex: 2, reversed: true, startPointNodeIndex: 0 });
  });

  it('corner start nodes are the ends of the first and last tracks', () => {
    expect(cornerStartNodes(mk([0, 0], [1, 1], 1))).toEqual([0, 1, 4, 5]);
    expect(cornerStartNodes({ ...mk([0, 0], [1, 1], 1), nodes: undefined } as unknown as Plan)).toEqual([]);
  });

  const planRoute = core.planRoute as (r: PathPlanRequest) => Plan;
  it('with planRoute: re-planning from the corner nodes offers entries at those nodes', () => {
    const field = (
      JSON.parse(readFileSync(new URL('../../../../test/fields/at-033.geojson', import.meta.url), 'utf8')) as {
        geometry: FieldGeometry;
      }
    ).geometry;
    const req: PathPlanRequest = {
      field,
      machine: { widthMeters: 6 },
      headland: { passes: 0 },
      routeOptions: { maxOptimizerTime: 1 },
    };
    const base = planRoute!(req);
    const corners = cornerStartNodes(base);
    expect(corners.length).toBe(4);
    const variants = [
      { plan: base },
      ...[corners[0], corners[3]].map((n) => ({
        plan: planRoute!({ ...req, routeOptions: { ...req.routeOptions, startPointNodeIndex: n } }),
        startPointNodeIndex: n,
      })),
    ];
    const visits = visitsFromPlans(variants);
    expect(visits.length).toBeGreaterThan(2);
    // Each variant planned from node n enters (as planned) at that node's position.
    for (const v of visits.filter((x) => x.startPointNodeIndex !== undefined && !x.reversed)) {
      const node = (base.nodes as { index: number; position: [number, number] }[])[v.startPointNodeIndex!];
      expect(haversineMeters(v.entry, node.position)).toBeLessThan(0.05);
    }
  });
});
