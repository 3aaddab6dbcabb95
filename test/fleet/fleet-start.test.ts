/**
 * A machine's `startPoint`: it comes from there (its way in, routed round what is in the way, at its transport
 * speed; the routing itself: packages/core/src/fleet/approach.test.ts) before it starts its
 * share, the search lets machines exchange shares so that each starts near its point, and the independent checker
 * takes the approach as time off the field, not as an unlisted wait.
 */
import { describe, expect, it } from 'vitest';
import {
  haversineMeters as meters,
  planFleet,
  type FleetMachineInput,
  type FleetPlan,
  type Position,
} from '@furrow/core';
import { checkFleet } from '../../packages/cli/src/commands/fleet-check.js';

const FROZEN = { now: (): number => 0 };
// About 300 m (east–west) by 110 m.
const field = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [8.54, 47.37],
      [8.544, 47.37],
      [8.544, 47.371],
      [8.54, 47.371],
      [8.54, 47.37],
    ] as Position[],
  ],
};
const WEST: Position = [8.537, 47.3705];
const EAST: Position = [8.547, 47.3705];
const TRANSPORT = 5;

const machine = (id: string, startPoint?: Position): FleetMachineInput => ({
  id,
  widthMeters: 6,
  turnRadiusMeters: 6,
  transportSpeedMetersPerSecond: TRANSPORT,
  ...(startPoint ? { startPoint } : {}),
});

function firstPoint(plan: FleetPlan, id: string): Position {
  return plan.machines.find((m) => m.machineId === id)!.route[0].coordinates[0] as Position;
}

describe('start points', () => {
  it.each([
    ['a west, b east', WEST, EAST],
    ['a east, b west', EAST, WEST],
  ])(
    '%s: each machine starts its share nearer its own point, after coming from it',
    (_, pa, pb) => {
      const plan = planFleet({ field, fleet: [machine('a', pa), machine('b', pb)] }, FROZEN);
      const points: Record<string, Position> = { a: pa, b: pb };
      for (const m of plan.machines) {
        const own = points[m.machineId],
          other = points[m.machineId === 'a' ? 'b' : 'a'];
        const first = firstPoint(plan, m.machineId);
        expect(meters(own, first)).toBeLessThan(meters(other, first));
        // The approach: its routed way in (here open ground: about the straight line) at the transport speed; the
        // route starts no earlier.
        expect(m.approachSeconds).toBeCloseTo(meters(own, first) / TRANSPORT, -0.5);
        expect(m.route[0].startSeconds).toBeGreaterThanOrEqual(m.approachSeconds! - 0.01);
        // The way in is drawn: from the start point to the route's first point, its time its length at the speed.
        const leg = m.approach!.coordinates;
        expect(meters(leg[0], own)).toBeLessThan(0.01);
        expect(meters(leg.at(-1)!, first)).toBeLessThan(0.01);
        const along = leg.slice(1).reduce((s, p, i) => s + meters(leg[i], p), 0);
        expect(m.approach!.endSeconds).toBeCloseTo(along / TRANSPORT, -0.5);
        expect(m.approach!.endSeconds).toBeCloseTo(m.approachSeconds!, 1);
      }
      expect(checkFleet(plan.machines, plan.fleet.safetyDistanceMeters).faults).toEqual([]);
    },
    120_000,
  );

  it('a machine without a start point starts at once and reports no approach', () => {
    const plan = planFleet({ field, fleet: [machine('a', WEST), machine('b')] }, FROZEN);
    const b = plan.machines.find((m) => m.machineId === 'b')!;
    expect(b.approachSeconds).toBeUndefined();
    expect(b.approach).toBeUndefined();
    const a = plan.machines.find((m) => m.machineId === 'a')!;
    expect(a.approachSeconds).toBeGreaterThan(0);
    expect(checkFleet(plan.machines, plan.fleet.safetyDistanceMeters).faults).toEqual([]);
  }, 120_000);

  it('the checker still flags a late start beyond the approach that no wait accounts for', () => {
    const plan = planFleet({ field, fleet: [machine('a', WEST), machine('b', EAST)] }, FROZEN);
    const machines = JSON.parse(JSON.stringify(plan.machines)) as FleetPlan['machines'];
    const a = machines.find((m) => m.machineId === 'a')!;
    for (const s of a.route) {
      s.startSeconds += 30;
      s.endSeconds += 30;
    }
    for (const w of a.waits) w.startSeconds += 30;
    const rules = checkFleet(machines, plan.fleet.safetyDistanceMeters).faults.map((f) => f.rule);
    expect(rules).toContain('unlisted-wait');
  }, 120_000);
});
