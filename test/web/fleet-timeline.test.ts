/**
 * The web app's fleet timeline (packages/web/src/app/fleet-timeline.ts) on real fleet plans: corpus fields
 * planned for 2 machines by core's `planFleet`, written by `fleetToFeatureCollection` as the API sends them.
 * At many moments each machine's position is checked against an independent reading of the core's timed
 * route (its segments in the local frame it came from, not the GeoJSON the app reads): on the segment the
 * machine drives then, at the share of the segment's length given by the share of its time; standing at
 * the segment's end while it waits.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { planFleet, type FleetPlan } from '@furrow/core';
import { fleetToFeatureCollection } from '@furrow/format-geojson';
import type { FeatureCollection, Position } from '../../packages/web/src/app/geo.js';
import { machineAt, machineTimeline, readFleet } from '../../packages/web/src/app/fleet-timeline.js';
import { alongLine, haversineMeters } from '../../packages/web/src/__fixtures__/geodesy.js';

const FIELDS = ['at-ref-057', 'be-vlg-038'];
const plans = new Map<string, FleetPlan>();

beforeAll(() => {
  for (const id of FIELDS) {
    const f = JSON.parse(readFileSync(new URL(`../fields/${id}.geojson`, import.meta.url), 'utf8'));
    const machine = { widthMeters: 6, turnRadiusMeters: 6 };
    plans.set(
      id,
      planFleet({
        field: f.geometry,
        headland: { passes: 2 },
        fleet: [
          { id: 'm1', ...machine },
          { id: 'm2', ...machine },
        ],
      }),
    );
  }
}, 120_000);

describe.each(FIELDS)('fleet timeline on corpus field %s (2 machines)', (id) => {
  it('places each machine where its timed route puts it, at 400 moments', () => {
    const plan = plans.get(id)!;
    const view = readFleet(fleetToFeatureCollection(plan) as unknown as FeatureCollection);
    expect(view.machines.map((m) => m.machineId)).toEqual(plan.machines.map((m) => m.machineId));
    expect(plan.machines.some((m) => m.waits.length > 0)).toBe(true); // both fields have a wait
    let waiting = 0;
    plan.machines.forEach((m, i) => {
      const tl = machineTimeline(view.machines[i]);
      const segments = m.route.slice().sort((a, b) => a.startSeconds - b.startSeconds);
      for (let k = 0; k <= 400; k++) {
        const t = (plan.fleet.makespanSeconds * k) / 400;
        const at = machineAt(tl, t)!;
        const driving = segments.find((s) => s.startSeconds < t && t < s.endSeconds);
        let expected: Position;
        if (t < m.startSeconds) expected = segments[0].coordinates[0];
        else if (driving) {
          const share = (t - driving.startSeconds) / (driving.endSeconds - driving.startSeconds);
          expected = alongLine(driving.coordinates, share);
        } else {
          const done = segments.filter((s) => s.endSeconds <= t);
          const last = done[done.length - 1];
          expected = last ? last.coordinates[last.coordinates.length - 1] : segments[0].coordinates[0];
          if (t < m.finishSeconds && at.state === 'waiting') waiting++;
        }
        expect(haversineMeters(at.position, expected), `${m.machineId} at ${t} s`).toBeLessThan(0.02);
        expect(at.state).toBe(
          t < m.startSeconds ? 'not-started' : t > m.finishSeconds ? 'finished' : driving ? 'driving' : at.state,
        );
      }
    });
    expect(waiting).toBeGreaterThan(0);
  });
});

describe('a machine with a start point', () => {
  it('reads its way in as its first timed piece and moves it along that before its route', () => {
    // About 300 m (east–west) by 110 m; each machine comes from 230 m outside one end.
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
    const machine = { widthMeters: 6, turnRadiusMeters: 6, transportSpeedMetersPerSecond: 5 };
    const plan = planFleet(
      {
        field,
        fleet: [
          { id: 'a', ...machine, startPoint: [8.537, 47.3705] },
          { id: 'b', ...machine, startPoint: [8.547, 47.3705] },
        ],
      },
      { now: () => 0 },
    );
    const view = readFleet(fleetToFeatureCollection(plan) as unknown as FeatureCollection);
    plan.machines.forEach((m, i) => {
      const approach = m.approach!;
      expect(approach.endSeconds).toBeGreaterThan(10);
      const tl = machineTimeline(view.machines[i]);
      for (const share of [0, 0.25, 0.5, 0.75]) {
        const at = machineAt(tl, approach.endSeconds * share)!;
        expect(at.state).toBe('driving');
        expect(haversineMeters(at.position, alongLine(approach.coordinates, share))).toBeLessThan(0.05);
      }
      // Then on its route: at its first segment's start when the approach ends.
      expect(haversineMeters(machineAt(tl, approach.endSeconds)!.position, m.route[0].coordinates[0])).toBeLessThan(
        0.05,
      );
    });
  }, 120_000);
});
