/**
 * The lanes' phase (where the sprayer's tramlines fall among the drill's passes), the field work the
 * system's plannings share, and the comparison's plans alone with their own headland.
 */
import { readFileSync } from 'node:fs';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { createFieldMemo, type FieldWork } from '../choice/fieldMemo.js';
import { planRoute } from '../plan.js';
import type { FieldGeometry, PathPlanRequest, Plan } from '../types.js';
import { acrossOf } from './laneGrid.js';
import { bestPhase, phaseShifts, planTrafficSystem, shiftedSetup, trafficSetup } from './planTrafficSystem.js';
import type { TrafficSystemRequest } from './types.js';

function corpusField(id: string): FieldGeometry {
  const g = JSON.parse(readFileSync(new URL(`../../../../test/fields/${id}.geojson`, import.meta.url), 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
  };
  return (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
}

const OPERATIONS: TrafficSystemRequest['operations'] = [
  { kind: 'drill', machine: { widthMeters: 12, turnRadiusMeters: 6 } },
  { kind: 'sprayer', machine: { widthMeters: 36, turnRadiusMeters: 9 } },
  { kind: 'harvester', machine: { widthMeters: 12, turnRadiusMeters: 8 } },
];

function request(id: string, compareIndependent = false): TrafficSystemRequest {
  return {
    field: corpusField(id),
    traffic: { gaugeMeters: 3, tyreWidthMeters: 0.6, compareIndependent },
    operations: OPERATIONS,
  };
}

const now = (): number => 0;
/** v of a request's reference line plus its offset, in the setup's track frame. */
function lineAcross(setup: ReturnType<typeof trafficSetup>, r: PathPlanRequest): number {
  const ref = r.tracks!.referenceLine!;
  const [x, y] = setup.prepared.frame.toLocal(ref.point[0], ref.point[1]);
  // offsetMeters is right of the heading: −v along the lanes' direction (laneGrid.ts referenceLineOption)
  const th = setup.grid.directionRadians,
    b = (setup.grid.headingDegrees * Math.PI) / 180;
  const perMeter = -Math.sin(th) * Math.cos(b) - Math.cos(th) * Math.sin(b);
  return acrossOf(setup.grid, x, y) + ref.offsetMeters! * perMeter;
}

describe('traffic: the lanes’ phase', () => {
  it('a shift moves the sprayer by whole drill widths and leaves the drill and the harvester alone', () => {
    const setup = trafficSetup(request('fi-041'));
    for (const shift of [1, 2]) {
      const moved = shiftedSetup(setup, shift);
      expect(moved.plannings[0].onGrid).toBe(setup.plannings[0].onGrid);
      expect(moved.plannings[2].onGrid).toBe(setup.plannings[2].onGrid);
      const d = lineAcross(moved, moved.plannings[1].onGrid) - lineAcross(setup, setup.plannings[1].onGrid);
      expect(d).toBeCloseTo(12 * shift, 6);
      // still on a drill centre: a whole number of drill widths from the drill's line
      const fromDrill = lineAcross(moved, moved.plannings[1].onGrid) - lineAcross(setup, setup.plannings[0].onGrid);
      expect(Math.abs(fromDrill / 12 - Math.round(fromDrill / 12))).toBeLessThan(1e-6);
    }
  });

  it('other phases are tried only where a wider operation leaves over 2 points more unworked than the drill', () => {
    const setup = trafficSetup(request('es-cat-093'));
    const plan = (u: number): Plan => ({ metrics: { uncoveredRatio: u } }) as unknown as Plan;
    expect(phaseShifts(setup, [plan(0.01), plan(0.029), plan(0.01)])).toEqual([]);
    expect(phaseShifts(setup, [plan(0.01), plan(0.031), plan(0.01)])).toEqual([1, 2]);
  });

  it('ch-037: no phase is tried where every phase gives the sprayer the same grid tracks (none)', () => {
    const setup = trafficSetup(request('ch-037'));
    const plan = (u: number): Plan => ({ metrics: { uncoveredRatio: u } }) as unknown as Plan;
    expect(phaseShifts(setup, [plan(0.003), plan(0.067), plan(0.003)])).toEqual([]);
  });

  it('the phase with the least objective (faults priced) wins; a tie keeps the first', () => {
    const setup = trafficSetup(request('fi-041'));
    const plan = (s: number): Plan =>
      ({ choice: { variants: [{ status: 'kept', objectiveSeconds: s }] } }) as unknown as Plan;
    const a = { setup, onGrid: [plan(1), plan(100), plan(1)] };
    const b = { setup: shiftedSetup(setup, 1), onGrid: [plan(1), plan(90), plan(1)] };
    const c = { setup: shiftedSetup(setup, 2), onGrid: [plan(0), plan(100), plan(0)] };
    const none = (): number => 0;
    expect(bestPhase([a, b], none)).toBe(b);
    expect(bestPhase([a, c], none)).toBe(a);
    // a checkPlan fault costs an undrivable join (objective.ts): the faulty phase loses
    const faultyB = (r: PathPlanRequest): number => (r === b.setup.plannings[1].onGrid ? 1 : 0);
    expect(bestPhase([a, b], faultyB)).toBe(a);
  });

  it('es-cat-093: the sprayer on the lanes leaves at most 2 points more unworked than alone with its headland', () => {
    const result = planTrafficSystem(request('es-cat-093'), { now });
    const sprayer = result.operations[1];
    const setup = trafficSetup(request('es-cat-093'));
    const alone = planRoute({ ...setup.plannings[1].alone, headland: { passes: sprayer.headlandPasses } }, { now });
    expect(sprayer.plan.metrics.uncoveredRatio).toBeLessThanOrEqual(alone.metrics.uncoveredRatio + 0.02);
  }, 300_000);
});

describe('traffic: the lanes’ reference line', () => {
  /** The drill's full-width track lines, v modulo its width (cm), in the lanes' frame. */
  const linesOf = (setup: ReturnType<typeof trafficSetup>, plan: Plan): string[] => {
    const th = setup.grid.directionRadians,
      def = (plan.frame as { definition: string }).definition;
    const v = (p: [number, number]): number => {
      const [x, y] = proj4('WGS84', def, p);
      return (((-Math.sin(th) * x + Math.cos(th) * y) % 12) + 12) % 12;
    };
    const tracks = plan.route.filter((s) => s.type === 'Track' && s.widthMeters === 12);
    return [...new Set(tracks.map((s) => v(s.coordinates[0] as [number, number]).toFixed(2)))];
  };

  for (const id of ['be-wal-001', 'de-bb-080'])
    it(`${id}: the drill drives the lines it drives alone at the lanes' heading`, () => {
      const setup = trafficSetup(request(id));
      const onGrid = setup.plannings[0].onGrid;
      const alone = { ...onGrid, tracks: { preferredDirectionDegrees: onGrid.tracks!.preferredDirectionDegrees } };
      const a = planRoute(alone, { now }),
        g = planRoute(onGrid, { now });
      expect(linesOf(setup, g)).toEqual(linesOf(setup, a));
      expect(g.metrics.uncoveredRatio).toBeCloseTo(a.metrics.uncoveredRatio, 6);
    }, 120_000);
});

describe('traffic: the plannings share the field’s work', () => {
  it('a memo gives the very same plans and keeps the prepared field', () => {
    const r = request('fi-041');
    const shared = planTrafficSystem(r, { now });
    const own = planTrafficSystem(r, { now }, (q) => planRoute(q, { now }));
    expect(JSON.stringify(shared)).toBe(JSON.stringify(own));
    const memo = createFieldMemo() as FieldWork;
    const setup = trafficSetup(r);
    planRoute(setup.plannings[0].onGrid, { now, fieldMemo: memo });
    const prepared = memo.prepared;
    expect(prepared?.field.length).toBeGreaterThan(0);
    planRoute(setup.plannings[2].onGrid, { now, fieldMemo: memo });
    expect(memo.prepared).toBe(prepared);
  }, 120_000);

  it('a call on another field plans its own and leaves the memo alone', () => {
    const memo = createFieldMemo() as FieldWork;
    const a = trafficSetup(request('fi-041')).plannings[0].onGrid;
    const b = trafficSetup(request('pt-025')).plannings[0].alone;
    planRoute(a, { now, fieldMemo: memo });
    const key = memo.key;
    const withMemo = planRoute(b, { now, fieldMemo: memo });
    expect(memo.key).toBe(key);
    expect(JSON.stringify(withMemo)).toBe(JSON.stringify(planRoute(b, { now })));
  }, 120_000);
});

describe('traffic: the comparison plans each operation as it would be planned alone', () => {
  it('with the request’s own headland passes, not the system’s', () => {
    const result = planTrafficSystem(request('fi-041', true), { now });
    // The request asks nothing: two passes each alone (the default), the sprayer one 36 m pass on the lanes.
    expect(result.operations.map((o) => o.headlandPasses)).toEqual([2, 1, 2]);
    expect(result.independent!.operations.map((o) => o.headlandPasses)).toEqual([2, 2, 2]);
    expect(result.independent!.operations[1].request).not.toHaveProperty('tracks');
  }, 120_000);
});
