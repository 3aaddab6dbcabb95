import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { checkPlan } from '../check/checkPlan.js';
import { isPlanError } from '../errors.js';
import { bearingToDirectionRadians } from '../tracks/planTracks.js';
import type { PathPlanRequest, Plan, Position } from '../types.js';
import { planTrafficSystem } from './planTrafficSystem.js';
import type { TrafficSystemRequest, TrafficSystemResult } from './types.js';

const LAT0 = 48.2,
  LON0 = 11.3;
const M_PER_DEG_LAT = 111_132.954,
  M_PER_DEG_LON = 111_319.49 * Math.cos((LAT0 * Math.PI) / 180);

/** A rectangle W × H meters, turned `turnDegrees` about its corner, as a GeoJSON Polygon. */
function rectangle(widthMeters: number, heightMeters: number, turnDegrees = 0): TrafficSystemRequest['field'] {
  const a = (turnDegrees * Math.PI) / 180;
  const ring = [
    [0, 0],
    [widthMeters, 0],
    [widthMeters, heightMeters],
    [0, heightMeters],
    [0, 0],
  ].map(([x, y]): Position => {
    const X = x * Math.cos(a) - y * Math.sin(a),
      Y = x * Math.sin(a) + y * Math.cos(a);
    return [LON0 + X / M_PER_DEG_LON, LAT0 + Y / M_PER_DEG_LAT];
  });
  return { type: 'Polygon', coordinates: [ring] };
}

function system(
  drillMeters: number,
  sprayerMeters: number,
  firstPass: 'full' | 'half',
  turn = 0,
): TrafficSystemRequest {
  return {
    field: rectangle(400, 300, turn),
    traffic: { gaugeMeters: 3, tyreWidthMeters: 0.6, firstPass, compareIndependent: false },
    operations: [
      { kind: 'drill', machine: { widthMeters: drillMeters, turnRadiusMeters: 6 } },
      { kind: 'sprayer', machine: { widthMeters: sprayerMeters, turnRadiusMeters: 8 } },
    ],
  };
}

/** Across-track coordinate (v, left of the lanes' direction) of a lon/lat point, in the plan's own frame. */
function acrossIn(plan: Plan, headingDegrees: number): (p: Position) => number {
  const frame = (plan.frame as { definition: string }).definition;
  const th = bearingToDirectionRadians(headingDegrees);
  return (p) => {
    const [x, y] = proj4('WGS84', frame, p);
    return -Math.sin(th) * x + Math.cos(th) * y;
  };
}

/** v of every tramline centre the drill marked: its lanes paired a gauge apart. */
function tramCentres(result: TrafficSystemResult, gaugeMeters: number): number[] {
  const drill = result.operations[0];
  const across = acrossIn(drill.plan, result.referenceLine.headingDegrees);
  const th = bearingToDirectionRadians(result.referenceLine.headingDegrees);
  const lanes: number[] = [];
  for (const pass of drill.tramlinePasses ?? []) {
    if (pass.along !== 'lanes') continue;
    const a = pass.coordinates[0],
      b = pass.coordinates[pass.coordinates.length - 1];
    const v = (across(a) + across(b)) / 2;
    // Lane offsets are right of travel: right is −v driving along the lanes' direction, +v driving back.
    const frame = (drill.plan.frame as { definition: string }).definition;
    const [xa, ya] = proj4('WGS84', frame, a),
      [xb, yb] = proj4('WGS84', frame, b);
    const forward = Math.cos(th) * (xb - xa) + Math.sin(th) * (yb - ya) >= 0;
    for (const lane of pass.lanes) lanes.push(v + (forward ? -1 : 1) * lane.offsetMeters);
  }
  lanes.sort((x, y) => x - y);
  const centres: number[] = [];
  for (const l of lanes)
    if (lanes.some((m) => Math.abs(m - l - gaugeMeters) < 0.005)) centres.push(l + gaugeMeters / 2);
  return centres;
}

function sprayerTracks(result: TrafficSystemResult): number[] {
  const sprayer = result.operations[1];
  const across = acrossIn(sprayer.plan, result.referenceLine.headingDegrees);
  // Strip passes (narrower than the sprayer, off the grid) are no tramline passes.
  return sprayer.plan.route
    .filter((s) => s.type === 'Track' && s.widthMeters === sprayer.widthMeters)
    .map((s) => (across(s.coordinates[0]) + across(s.coordinates[s.coordinates.length - 1])) / 2);
}

const CASES: [number, number, 'full' | 'half'][] = [
  [12, 24, 'full'],
  [12, 36, 'full'],
  [12, 48, 'full'],
  [12, 60, 'full'],
  [9, 27, 'full'],
  [12, 24, 'half'],
  [12, 36, 'half'],
];

describe('planTrafficSystem: the sprayer drives the drill tramlines', () => {
  for (const [w, kw, firstPass] of CASES)
    it(`k = ${kw / w} over a ${w} m drill (${kw} m sprayer), ${firstPass} first pass`, () => {
      const result = planTrafficSystem(system(w, kw, firstPass, 17));
      expect(result.tramlineMultiple).toBe(kw / w);
      const centres = tramCentres(result, 3);
      const tracks = sprayerTracks(result);
      expect(tracks.length).toBeGreaterThanOrEqual(3);
      expect(centres.length).toBeGreaterThanOrEqual(3);
      for (const v of tracks) {
        const nearest = Math.min(...centres.map((c) => Math.abs(c - v)));
        expect(nearest).toBeLessThanOrEqual(0.01);
      }
      // The tramlines are a sprayer width apart: consecutive distinct centres differ by k·w.
      const distinct = [...new Set(centres.map((c) => Math.round(c * 100) / 100))].sort((a, b) => a - b);
      for (let i = 1; i < distinct.length; i++) expect(distinct[i] - distinct[i - 1]).toBeCloseTo(kw, 1);
      for (const op of result.operations)
        expect(checkPlan(op.request as PathPlanRequest, op.plan).violations).toEqual([]);
    });

  it('puts the drill and a harvester of the same width on the same lines, 0 cm apart', () => {
    const req = system(12, 36, 'full');
    req.operations.push({ kind: 'harvester', machine: { widthMeters: 12, turnRadiusMeters: 7 } });
    const result = planTrafficSystem(req);
    const acrossD = acrossIn(result.operations[0].plan, result.referenceLine.headingDegrees);
    const v = (p: Plan): number[] =>
      p.route
        .filter((s) => s.type === 'Track')
        .map((s) => Math.round(acrossD(s.coordinates[0]) * 1000) / 1000)
        .sort((a, b) => a - b);
    expect(v(result.operations[2].plan)).toEqual(v(result.operations[0].plan));
  });
});

describe('planTrafficSystem: bad input names the field and what fits', () => {
  const errorOf = (req: TrafficSystemRequest): { path: string; message: string } => {
    try {
      planTrafficSystem(req);
    } catch (e) {
      expect(isPlanError(e)).toBe(true);
      return (e as { details: { path: string; message: string }[] }).details[0];
    }
    throw new Error('no error');
  };

  it('a sprayer width that is no multiple of the drill width', () => {
    const d = errorOf(system(12, 30, 'full'));
    expect(d.path).toBe('operations[1].machine.widthMeters');
    expect(d.message).toContain('24 or 36 m');
  });

  it('a gauge wider than a machine', () => {
    const req = system(12, 36, 'full');
    req.traffic.gaugeMeters = 14;
    const d = errorOf(req);
    expect(d.path).toBe('traffic.gaugeMeters');
    expect(d.message).toContain('at most 12 m');
  });

  it('tyres wider than the gauge', () => {
    const req = system(12, 36, 'full');
    req.operations[1].machine.tyreWidthMeters = 3.2;
    const d = errorOf(req);
    expect(d.path).toBe('operations[1].machine.tyreWidthMeters');
    expect(d.message).toContain('at most 2.89 m');
  });
});
