/**
 * Hard fields (issue 5): input hygiene and invalid boundaries, exclusion zones, the
 * `options` features, guidance lines, cells, narrow corridors — on constructed fields and
 * on the corpus fields with holes and concave shapes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkPlan, isPlanError, planRoute } from '@furrow/core';
import type { FieldGeometry, GeoJsonPolygon, PathPlanRequest, Plan, PlanError, Position } from '@furrow/core';

const LON0 = 10, LAT0 = 50;
const M_PER_DEG_LAT = 111_320;
const M_PER_DEG_LON = 111_320 * Math.cos((LAT0 * Math.PI) / 180);

/** Local meters (x east, y north) around (LON0, LAT0) → [lon, lat]. */
function ll(x: number, y: number, lon0 = LON0, lat0 = LAT0): Position {
  return [lon0 + x / (111_320 * Math.cos((lat0 * Math.PI) / 180)), lat0 + y / M_PER_DEG_LAT];
}
function ring(pts: [number, number][], lon0 = LON0, lat0 = LAT0): Position[] {
  const r = pts.map(([x, y]) => ll(x, y, lon0, lat0));
  return [...r, r[0]];
}
function poly(...rings: [number, number][][]): GeoJsonPolygon {
  return { type: 'Polygon', coordinates: rings.map((r) => ring(r)) };
}
function rect(x0: number, y0: number, x1: number, y1: number): [number, number][] {
  return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
}
/** Clockwise copy (holes). */
function cw(r: [number, number][]): [number, number][] {
  return [...r].reverse();
}

const machine = { widthMeters: 6, turnRadiusMeters: 6 };

function planError(fn: () => unknown): PlanError {
  try {
    fn();
  } catch (e) {
    expect(isPlanError(e), String(e)).toBe(true);
    return e as PlanError;
  }
  throw new Error('expected a PlanError, the call succeeded');
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

describe('invalid boundaries fail cleanly and fast, naming where', () => {
  it('bow-tie → self-intersection at the crossing edges', () => {
    const field = poly([[0, 0], [200, 150], [200, 0], [0, 150]]);
    const { value: err, ms } = timed(() => planError(() => planRoute({ field, machine })));
    expect(err.code).toBe('self-intersection');
    expect(err.details[0].path).toMatch(/^field\.coordinates\[0\]\[\d+\]$/);
    expect(err.message).toMatch(/intersects itself/);
    expect(ms).toBeLessThan(2000);
  });

  it('hole touching the shell → self-intersection between ring 0 and ring 1', () => {
    const field = poly(rect(0, 0, 200, 150), cw([[0, 50], [60, 40], [60, 90]]));
    const err = planError(() => planRoute({ field, machine }));
    expect(err.code).toBe('self-intersection');
    expect(err.message).toMatch(/rings 0 and 1/);
  });

  it('hole outside the shell → hole-outside-shell naming the hole', () => {
    const field = poly(rect(0, 0, 200, 150), cw(rect(300, 20, 340, 60)));
    const err = planError(() => planRoute({ field, machine }));
    expect(err.code).toBe('hole-outside-shell');
    expect(err.details[0].path).toBe('field.coordinates[1]');
  });

  it('zero area (all corners on one line) → invalid-boundary or self-intersection, never a plan', () => {
    const field = poly([[0, 0], [100, 0], [200, 0], [50, 0]]);
    const err = planError(() => planRoute({ field, machine }));
    expect(['invalid-boundary', 'self-intersection']).toContain(err.code);
    expect(err.details[0].path).toMatch(/^field\.coordinates\[0\]/);
  });

  it('a hairline shell (1 mm wide) → invalid-boundary "zero area"', () => {
    const field = poly([[0, 0], [300, 0], [300, 0.001], [0, 0.001]]);
    const err = planError(() => planRoute({ field, machine }));
    expect(err.code).toBe('invalid-boundary');
    expect(err.message).toMatch(/zero area/);
  });

  it('lat/lon swapped (a field in Japan given as [lat, lon]) → invalid-boundary naming the position', () => {
    const field: GeoJsonPolygon = { type: 'Polygon', coordinates: [ring(rect(0, 0, 200, 150), 139.7, 35.6).map(([lon, lat]) => [lat, lon] as Position)] };
    const err = planError(() => planRoute({ field, machine }));
    expect(err.code).toBe('invalid-boundary');
    expect(err.details[0].path).toBe('field.coordinates[0][0]');
    expect(err.message).toMatch(/\[lon, lat\]/);
  });

  it('1e6 vertices → too-many-vertices in well under a second', () => {
    const n = 1_000_000;
    const coords: Position[] = new Array(n + 1);
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      coords[i] = ll(500 * Math.cos(a), 500 * Math.sin(a));
    }
    coords[n] = coords[0];
    const { value: err, ms } = timed(() => planError(() => planRoute({ field: { type: 'Polygon', coordinates: [coords] }, machine })));
    expect(err.code).toBe('too-many-vertices');
    expect(ms).toBeLessThan(3000);
  });

  it('an unclosed ring, NaN and a missing ring name their position', () => {
    const open = ring(rect(0, 0, 200, 150)).slice(0, -1);
    expect(planError(() => planRoute({ field: { type: 'Polygon', coordinates: [open] }, machine })).code).toBe('invalid-boundary');
    const nan = ring(rect(0, 0, 200, 150));
    nan[2] = [Number.NaN, 50];
    const err = planError(() => planRoute({ field: { type: 'Polygon', coordinates: [nan] }, machine }));
    expect(err.details[0].path).toBe('field.coordinates[0][2]');
    expect(planError(() => planRoute({ field: { type: 'Polygon', coordinates: [] }, machine })).code).toBe('invalid-boundary');
  });
});

describe('input hygiene: duplicates, spikes, collinear runs and sliver holes are cleaned', () => {
  const clean = poly(rect(0, 0, 240, 150));
  const reference = planRoute({ field: clean, machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } });

  function samePlanAs(field: FieldGeometry): Plan {
    const plan = planRoute({ field, machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } });
    expect(plan.metrics.fieldAreaSquareMeters).toBeCloseTo(reference.metrics.fieldAreaSquareMeters, 0);
    expect(plan.metrics.workingDistanceMeters).toBeCloseTo(reference.metrics.workingDistanceMeters, 0);
    expect(checkPlan(field, plan).violations).toEqual([]);
    return plan;
  }

  it('a spike out of an edge (out 40 m and straight back) is removed, not rejected', () => {
    const spiky: [number, number][] = [[0, 0], [120, 0], [120, -40], [120.000001, 0], [240, 0], [240, 150], [0, 150]];
    samePlanAs(poly(spiky));
    // Folding back exactly onto itself: without cleaning, a ring folding back is a self-intersection.
    samePlanAs(poly([[0, 0], [120, 0], [120, -40], [120, 0], [240, 0], [240, 150], [0, 150]]));
  });

  it('near-duplicate points (5 mm apart) and collinear runs (3 mm off the line) are merged', () => {
    const messy: [number, number][] = [[0, 0], [0.005, 0], [60, 0.003], [120, -0.002], [180, 0.001], [240, 0], [240, 75], [240.004, 75], [240, 150], [120, 150], [0, 150]];
    samePlanAs(poly(messy));
  });

  it('a hole that is a hairline (0.5 mm wide) is dropped instead of splitting the field', () => {
    const field = poly(rect(0, 0, 240, 150), cw([[60, 70], [180, 70], [180, 70.0005], [60, 70.0005]]));
    const plan = samePlanAs(field);
    expect(plan.route.some((s) => s.type === 'InteriorHeadland')).toBe(false);
  });

  it('the same spike with no tolerance to hide in (3 m wide) is a real part of the field', () => {
    const notSpike: [number, number][] = [[0, 0], [120, 0], [121.5, -40], [123, 0], [240, 0], [240, 150], [0, 150]];
    const plan = planRoute({ field: poly(notSpike), machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } });
    expect(plan.metrics.fieldAreaSquareMeters).toBeGreaterThan(reference.metrics.fieldAreaSquareMeters + 50);
  });
});
