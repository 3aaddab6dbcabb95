/**
 * The fleet's rules, judged by the independent checker (packages/cli/src/commands/fleet-check.ts, which
 * replays the output and knows nothing of core's scheduler): a real fleet plan keeps every rule, and a
 * schedule broken by hand — a track worked twice, one track shared at once, a stop nobody listed, two
 * machines too close — is caught, rule by rule.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkPlan,
  planFleet,
  planRoute,
  type FleetPlan,
  type FleetRequest,
  type TimedRouteSegment,
} from '@furrow/core';
import { checkFleet, type CheckedMachine } from '../../packages/cli/src/commands/fleet-check.js';

const field = JSON.parse(readFileSync(new URL('../fields/at-ref-003.geojson', import.meta.url), 'utf8'));
const geometry = field.type === 'FeatureCollection' ? field.features[0].geometry : (field.geometry ?? field);
const request: FleetRequest = {
  field: geometry,
  fleet: [
    { id: 'a', widthMeters: 6, turnRadiusMeters: 6 },
    { id: 'b', widthMeters: 6, turnRadiusMeters: 6 },
  ],
};

let plan: FleetPlan;
const copy = (p: FleetPlan): CheckedMachine[] => JSON.parse(JSON.stringify(p.machines)) as CheckedMachine[];
const rules = (ms: CheckedMachine[]): string[] =>
  checkFleet(ms, plan.fleet.safetyDistanceMeters).faults.map((f) => f.rule);

beforeAll(() => {
  plan = planFleet(request);
}, 120_000);

describe('a planned fleet', () => {
  it('keeps every rule of the independent checker', () => {
    const check = checkFleet(plan.machines, plan.fleet.safetyDistanceMeters);
    expect(check.faults).toEqual([]);
    expect(plan.machines.every((m) => m.route.length > 0)).toBe(true);
  });

  it('gives each machine a drivable route (checkPlan) and works every pass of the single plan once', () => {
    for (const m of plan.machines) {
      const machine = { widthMeters: 6, turnRadiusMeters: 6 };
      expect(checkPlan({ field: geometry, machine }, m).violations).toEqual([]);
    }
    const single = planRoute({ field: geometry, machine: { widthMeters: 6, turnRadiusMeters: 6 } });
    const meters = (segs: { type: string; lengthMeters: number }[]): number =>
      segs.filter((s) => s.type !== 'Turn' && s.type !== 'Connector').reduce((s, x) => s + x.lengthMeters, 0);
    const fleetMeters = plan.machines.reduce((s, m) => s + meters(m.route), 0);
    expect(Math.abs(fleetMeters - meters(single.route))).toBeLessThan(0.01 * meters(single.route));
  });

  it('reports a makespan no shorter than its lower bounds, the gap from them', () => {
    const f = plan.fleet;
    expect(f.makespanSeconds).toBeGreaterThanOrEqual(f.lowerBoundSeconds);
    expect(f.lowerBoundSeconds).toBeGreaterThanOrEqual(f.workLowerBoundSeconds);
    expect(f.makespanSeconds).toBe(Math.max(...plan.machines.map((m) => m.finishSeconds)));
    expect(f.gapRatio).toBeCloseTo(f.makespanSeconds / f.lowerBoundSeconds - 1, 3);
  });
});

describe('a schedule broken by hand is caught', () => {
  it('no track twice: a track copied into the other machine', () => {
    const ms = copy(plan);
    const track = ms[0].route.find((s) => s.type === 'Track')!;
    const last = ms[1].route[ms[1].route.length - 1];
    const d = track.endSeconds - track.startSeconds;
    ms[1].route.push({
      ...track,
      sequence: last.sequence + 1,
      startSeconds: last.endSeconds,
      endSeconds: last.endSeconds + d,
    });
    expect(rules(ms)).toContain('pass-twice');
    expect(rules(copy(plan))).not.toContain('pass-twice');
  });

  it('no two machines on one track at once: each drives half of one track at the same time', () => {
    const ms = copy(plan);
    const long = [...ms[0].route]
      .filter((s) => s.type === 'Track' && s.coordinates.length === 2)
      .sort((x, y) => y.lengthMeters - x.lengthMeters)[0] as CheckedMachine['route'][number] & { lengthMeters: number };
    const [p, q] = long.coordinates as [number, number][];
    const key = long.passId!.split(':').slice(0, 3).join(':');
    // A fifth of the track from each end, driven at the same time: far apart, two pieces of one track.
    const fifth = (from: [number, number], to: [number, number]): [number, number] => [
      from[0] + (to[0] - from[0]) * 0.2,
      from[1] + (to[1] - from[1]) * 0.2,
    ];
    const piece = (id: string, coordinates: [number, number][], occurrence: number): CheckedMachine => ({
      machineId: id,
      waits: [],
      route: [
        {
          sequence: 0,
          type: 'Track',
          coordinates,
          startSeconds: 0,
          endSeconds: 10,
          trackIndex: long.trackIndex,
          passId: `${key}:${occurrence}`,
        },
      ],
    });
    const pair = [piece('x', [p, fifth(p, q)], 7), piece('y', [q, fifth(q, p)], 8)];
    expect(long.lengthMeters).toBeGreaterThan(20);
    expect(rules(pair)).toEqual(['shared-track']);
    // One after the other is fine.
    pair[1].route[0].startSeconds = 10;
    pair[1].route[0].endSeconds = 20;
    pair[1].waits = [{ machineId: 'y', beforeSequence: 0, startSeconds: 0, durationSeconds: 10 }];
    expect(rules(pair)).toEqual([]);
  });

  it('waits listed: a machine that stands without a listed wait, or a listed wait it does not make', () => {
    const ms = copy(plan);
    const m = ms[1];
    const j = Math.floor(m.route.length / 2);
    for (const s of m.route.slice(j)) {
      s.startSeconds += 30;
      s.endSeconds += 30;
    }
    for (const w of m.waits) if (w.beforeSequence > j) w.startSeconds += 30;
    expect(rules(ms)).toContain('unlisted-wait');
    m.waits.push({
      machineId: m.machineId,
      beforeSequence: j,
      startSeconds: m.route[j - 1].endSeconds,
      durationSeconds: 30,
    });
    expect(rules(ms)).not.toContain('unlisted-wait');
    const listedOnly = copy(plan);
    listedOnly[0].waits.push({ machineId: 'a', beforeSequence: 1, startSeconds: 5, durationSeconds: 10 });
    expect(rules(listedOnly)).toContain('wait-mismatch');
  });

  it('the safety distance: one machine made to drive where the other is, at the same time', () => {
    const ms = copy(plan);
    const other = ms[0].route.find((s) => s.type === 'Track')!;
    ms[1].route = [{ ...other, sequence: 0, passId: 'elsewhere', trackIndex: -1 } as TimedRouteSegment];
    ms[1].waits =
      other.startSeconds > 0.011
        ? [{ machineId: 'b', beforeSequence: 0, startSeconds: 0, durationSeconds: other.startSeconds }]
        : [];
    const check = checkFleet(ms, plan.fleet.safetyDistanceMeters);
    expect(check.faults.map((f) => f.rule)).toEqual(['too-close']);
    expect(check.faults[0].distanceMeters).toBeLessThan(0.01);
  });
});
