/**
 * A mixed fleet at full rate (issue 41, the pair route): a 12 m machine works pairs of the 6 m plan's
 * neighbouring tracks, one pass along each pair's middle, while the 6 m machine works the rest and the headland.
 * Judged on the routes' geometry (measured here in a frame of the test's own), checkPlan and the independent
 * checker (packages/cli/src/commands/fleet-check.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkPlan, planFleet, planRoute, type FleetMachineInput, type PathPlanRequest, type Plan } from '@furrow/core';
import { checkFleet } from '../../packages/cli/src/commands/fleet-check.js';

const FROZEN = { now: (): number => 0 };
const LAT0 = 47.37,
  LON0 = 8.54,
  M_PER_DEG = 111_320;
const COS0 = Math.cos((LAT0 * Math.PI) / 180);

/** A w × h m rectangle, lon/lat. */
function rectangle(w: number, h: number): PathPlanRequest['field'] {
  const dLon = w / (M_PER_DEG * COS0),
    dLat = h / M_PER_DEG;
  const ring = [
    [LON0, LAT0],
    [LON0 + dLon, LAT0],
    [LON0 + dLon, LAT0 + dLat],
    [LON0, LAT0 + dLat],
    [LON0, LAT0],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

/** The across-track coordinate (right of the heading) of each Track segment's middle, m; undefined if bent. */
function trackLines(route: Plan['route'], headingDegrees: number): number[] {
  const b = (headingDegrees * Math.PI) / 180;
  return route
    .filter((s) => s.type === 'Track')
    .map((s) => {
      const ss = s.coordinates.map(([lon, lat]) => {
        const x = (lon - LON0) * M_PER_DEG * COS0,
          y = (lat - LAT0) * M_PER_DEG;
        return x * Math.cos(b) - y * Math.sin(b);
      });
      expect(Math.max(...ss) - Math.min(...ss)).toBeLessThan(0.1);
      return (Math.max(...ss) + Math.min(...ss)) / 2;
    });
}

/** Distinct values (within 0.1 m), ascending: a track cut in parts is one line. */
function distinct(values: number[]): number[] {
  const out: number[] = [];
  for (const v of [...values].sort((a, b) => a - b)) if (out.length === 0 || v - out[out.length - 1] > 0.1) out.push(v);
  return out;
}

const fleet: FleetMachineInput[] = [
  { id: 'wide', widthMeters: 12, turnRadiusMeters: 6 },
  { id: 'narrow', widthMeters: 6, turnRadiusMeters: 6 },
];

describe('a 12 m + 6 m fleet on a rectangle: the pair route', () => {
  const field = rectangle(200, 150);
  const single = planRoute({ field, machine: { widthMeters: 6, turnRadiusMeters: 6 } }, FROZEN);
  const plan = planFleet({ field, fleet }, FROZEN);
  const byId = (id: string) => plan.machines.find((m) => m.machineId === id)!;

  it('is kept: the wide machine at its full width, faster than the narrow route', () => {
    expect(plan.fleet.search.chosen).toBe('pair-route');
    const narrowRoute = plan.fleet.search.candidates.find((c) => c.algorithm === 'narrow-route')!;
    expect(plan.fleet.makespanSeconds).toBeLessThan(0.75 * narrowRoute.makespanSeconds);
    // Well before one 6 m machine alone, and the lower bound stays under the makespan.
    expect(plan.fleet.makespanSeconds).toBeLessThan(0.4 * single.metrics.timeSeconds);
    expect(plan.fleet.workLowerBoundSeconds).toBeLessThanOrEqual(plan.fleet.makespanSeconds);
    expect(plan.fleet.lowerBoundSeconds).toBeLessThanOrEqual(plan.fleet.makespanSeconds);
  });

  it('covers every 6 m track exactly once, the 12 m passes on the middles of neighbouring pairs', () => {
    const lines = distinct(trackLines(single.route, single.heading.degrees));
    const narrow = distinct(trackLines(byId('narrow').route, plan.heading.degrees));
    const wide = distinct(trackLines(byId('wide').route, plan.heading.degrees));
    expect(wide.length).toBeGreaterThan(0);
    expect(narrow.length).toBeGreaterThan(0);
    const covered = [...narrow, ...wide.flatMap((s) => [s - 3, s + 3])].sort((a, b) => a - b);
    expect(covered.length).toBe(lines.length);
    covered.forEach((s, i) => expect(Math.abs(s - lines[i])).toBeLessThan(0.1));
    // The wide machine's tracks are 12 m wide (its full boom); the headland is one machine's.
    for (const s of byId('wide').route) if (s.type === 'Track') expect(s.widthMeters ?? 12).toBe(12);
    const headland = plan.machines.filter((m) => m.route.some((s) => s.type === 'ExteriorHeadland'));
    expect(headland.length).toBe(1);
  });

  it('keeps the single plan’s coverage, every route drivable, no two machines too close', () => {
    expect(plan.fleet.uncoveredRatio).toBeLessThanOrEqual(single.metrics.uncoveredRatio + 0.002);
    for (const m of plan.machines) {
      const spec = fleet.find((f) => f.id === m.machineId)!;
      const machine = { widthMeters: spec.widthMeters, turnRadiusMeters: spec.turnRadiusMeters };
      expect(checkPlan({ field, machine }, m).violations).toEqual([]);
    }
    expect(checkFleet(plan.machines, plan.fleet.safetyDistanceMeters).faults).toEqual([]);
  });
});
