import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '../index.js';
import { PlanError } from '../errors.js';
import type { FieldGeometry, PathPlanRequest, Plan } from '../types.js';
import {
  compareScenarios,
  compareScenariosAsync,
  rankScenarios,
  scenarioRequest,
  type EquipmentScenario,
} from './index.js';

/**
 * A stand-in planner with known closed-form results: a 400 m × 400 m square worked in straight
 * passes, one semicircle turn (π R) between passes.
 */
function modelPlanner(req: PathPlanRequest): Plan {
  const m = req.machine ?? req.equipment;
  if (!m || !(m.widthMeters > 0)) throw new PlanError('width-not-positive', 'machine.widthMeters must be > 0');
  if (m.widthMeters > 100) throw new PlanError('infeasible', 'too wide for this field');
  const passes = Math.ceil(400 / m.widthMeters);
  const working = passes * 400;
  const R = m.turnRadiusMeters ?? 6;
  const nonWorking = (passes - 1) * Math.PI * R;
  const v = m.workingSpeedMetersPerSecond ?? 2.5,
    vt = m.turningSpeedMetersPerSecond ?? 1.5;
  const time = working / v + nonWorking / vt;
  const metrics: Plan['metrics'] = {
    fieldAreaSquareMeters: 160_000,
    workableAreaSquareMeters: 160_000,
    distanceMeters: working + nonWorking,
    workingDistanceMeters: working,
    nonWorkingDistanceMeters: nonWorking,
    timeSeconds: time,
    overlapSquareMeters: 0,
    overlapRatio: (passes * m.widthMeters - 400) / 400,
    uncoveredSquareMeters: 0,
    uncoveredRatio: 0,
    turns: passes - 1,
  };
  if (m.workingFuelLitersPerHour !== undefined) metrics.fuelLiters = (m.workingFuelLitersPerHour * working) / v / 3600;
  return {
    version: 'model',
    metrics,
    heading: { degrees: 0, source: 'search' },
    route: [],
    boundary: { type: 'Polygon', coordinates: [] },
    warnings: [],
  };
}

const base: PathPlanRequest = {
  field: {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [0.004, 0],
        [0.004, 0.004],
        [0, 0.004],
        [0, 0],
      ],
    ],
  },
  machine: { widthMeters: 6, turnRadiusMeters: 6, workingSpeedMetersPerSecond: 2.5 },
  headland: { passes: 2 },
};

describe('scenario requests', () => {
  it('merge equipment over shape A and shape B, keeping what the scenario does not set', () => {
    const a = scenarioRequest(base, {
      name: 'x',
      equipment: { widthMeters: 12 },
      headlandPasses: 1,
      routeOptions: { algorithm: 'snake' },
    });
    expect(a.machine).toEqual({ widthMeters: 12, turnRadiusMeters: 6, workingSpeedMetersPerSecond: 2.5 });
    expect(a.headland).toEqual({ passes: 1 });
    expect(a.routeOptions).toEqual({ algorithm: 'snake' });
    expect(base.machine?.widthMeters).toBe(6); // base untouched
    const shapeB: PathPlanRequest = { boundary: base.field, equipment: { widthMeters: 3 }, exteriorHeadlandPasses: 3 };
    const b = scenarioRequest(shapeB, { name: 'y', equipment: { turnRadiusMeters: 9 }, headlandPasses: 2 });
    expect(b.equipment).toEqual({ widthMeters: 3, turnRadiusMeters: 9 });
    expect(b.exteriorHeadlandPasses).toBe(2);
    expect(b.machine).toBeUndefined();
  });
});

describe('comparing equipment sets', () => {
  const sets: EquipmentScenario[] = [
    { name: 'narrow', equipment: { widthMeters: 6 } },
    { name: 'wide', equipment: { widthMeters: 24, turnRadiusMeters: 9 } },
    { name: 'medium fast', equipment: { widthMeters: 12, workingSpeedMetersPerSecond: 4 } },
    { name: 'impossible', equipment: { widthMeters: 150 } },
  ];

  it('returns KPIs side by side, errors per scenario, and the best by time', () => {
    const cmp = compareScenarios(base, sets, modelPlanner);
    expect(cmp.results.map((r) => r.name)).toEqual(['narrow', 'wide', 'medium fast', 'impossible']);
    const wide = cmp.results[1];
    expect(wide.ok).toBe(true);
    if (!wide.ok) return;
    // 24 m: 17 passes × 400 m; 16 turns of π·9 m.
    expect(wide.kpis.workingDistanceMeters).toBe(17 * 400);
    expect(wide.kpis.nonWorkingDistanceMeters).toBeCloseTo(16 * Math.PI * 9, 9);
    expect(wide.kpis.hectaresPerHour).toBeCloseTo(16 / (wide.kpis.timeSeconds / 3600), 9);
    expect(cmp.results[3]).toMatchObject({ ok: false, error: { code: 'infeasible' } });
    // Times: narrow 67·400/2.5 + 66π6/1.5; wide 17·400/2.5 + 16π9/1.5; medium 34·400/4 + 33π6/1.5.
    const t = {
      narrow: 67 * 160 + (66 * Math.PI * 6) / 1.5,
      wide: 17 * 160 + (16 * Math.PI * 9) / 1.5,
      medium: 34 * 100 + (33 * Math.PI * 6) / 1.5,
    };
    expect(t.wide).toBeLessThan(t.medium);
    expect(cmp.ranking).toEqual(['wide', 'medium fast', 'narrow']);
    expect(cmp.best).toBe('wide');
    expect(cmp.results[0].ok && cmp.results[0].kpis.timeSeconds).toBeCloseTo(t.narrow, 6);
    expect('plan' in cmp.results[0]).toBe(false);
    expect(compareScenarios(base, sets, modelPlanner, { includePlans: true }).results[0]).toHaveProperty('plan');
  });

  it('ranks by distance and by fuel; fuel needs rates everywhere', () => {
    const fuelSets: EquipmentScenario[] = [
      { name: 'small engine', equipment: { widthMeters: 6, workingFuelLitersPerHour: 8 } },
      { name: 'big engine', equipment: { widthMeters: 24, workingFuelLitersPerHour: 60 } },
    ];
    // small: 26,800 m at 2.5 m/s × 8 l/h = 23.8 l; big: 6,800 m at 2.5 m/s × 60 l/h = 45.3 l.
    const byFuel = compareScenarios(base, fuelSets, modelPlanner, { objective: 'fuel' });
    expect(byFuel.best).toBe('small engine');
    expect(compareScenarios(base, fuelSets, modelPlanner, { objective: 'distance' }).best).toBe('big engine');
    expect(() => compareScenarios(base, sets, modelPlanner, { objective: 'fuel' })).toThrowError(
      /fuel objective needs/,
    );
  });

  it('the asynchronous variant gives the same comparison, planning one scenario at a time', async () => {
    let running = 0,
      maxRunning = 0;
    const slow = async (r: PathPlanRequest): Promise<Plan> => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((res) => setTimeout(res, 5));
      running--;
      return modelPlanner(r);
    };
    const cmp = await compareScenariosAsync(base, sets, slow);
    expect(cmp).toEqual(compareScenarios(base, sets, modelPlanner));
    expect(maxRunning).toBe(1);
  });

  it('an objective in routeOptions is the default', () => {
    const cmp = compareScenarios({ ...base, routeOptions: { objective: 'distance' } }, sets.slice(0, 3), modelPlanner);
    expect(cmp.objective).toBe('distance');
  });

  it('none planned: best is null', () => {
    const cmp = compareScenarios(base, [{ name: 'a', equipment: { widthMeters: 0 } }], modelPlanner);
    expect(cmp.best).toBeNull();
    expect(cmp.results[0]).toMatchObject({ ok: false, error: { code: 'width-not-positive' } });
    expect(rankScenarios(cmp.results, 'time')).toEqual([]);
  });

  it('rejects bad scenario lists', () => {
    expect(() => compareScenarios(base, [], modelPlanner)).toThrowError(/at least one/);
    expect(() => compareScenarios(base, [sets[0], sets[0]], modelPlanner)).toThrowError(/used twice/);
    expect(() => compareScenarios(base, [{ name: 'x' } as EquipmentScenario], modelPlanner)).toThrowError(
      /equipment must be an object/,
    );
    expect(() => compareScenarios(base, sets, modelPlanner, { objective: 'cost' as never })).toThrowError(PlanError);
  });
});

// With the real pipeline.
const planRoute = core.planRoute as (r: PathPlanRequest) => Plan;
describe('with planRoute on a corpus field', () => {
  it('a wider implement needs fewer turns and less time on the same field', () => {
    const feature = JSON.parse(
      readFileSync(new URL('../../../../test/fields/at-ref-003.geojson', import.meta.url), 'utf8'),
    ) as { geometry: FieldGeometry };
    const request: PathPlanRequest = {
      field: feature.geometry,
      machine: { widthMeters: 6, turnRadiusMeters: 5 },
      headland: { passes: 2 },
    };
    const cmp = compareScenarios(
      request,
      [
        { name: '6 m', equipment: { widthMeters: 6 } },
        { name: '12 m', equipment: { widthMeters: 12 }, headlandPasses: 1 },
      ],
      planRoute!,
    );
    const [six, twelve] = cmp.results;
    expect(six.ok && twelve.ok).toBe(true);
    if (!six.ok || !twelve.ok) return;
    expect(twelve.kpis.workingDistanceMeters).toBeLessThan(six.kpis.workingDistanceMeters);
    expect(twelve.kpis.timeSeconds).toBeLessThan(six.kpis.timeSeconds);
    expect(cmp.best).toBe('12 m');
  });
});
