import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '../index.js';
import type { FieldGeometry, PathPlanRequest, Plan } from '../types.js';
import { frameForPositions, planWithTerrain, terrainRequest, type ElevationGrid } from './index.js';

const feature = JSON.parse(
  readFileSync(new URL('../../../../test/fields/at-ref-003.geojson', import.meta.url), 'utf8'),
) as { geometry: FieldGeometry };
const field = feature.geometry;
const ring = field.type === 'Polygon' ? field.coordinates[0] : field.coordinates[0][0];

/** A plane in the field's local frame rising 6 % towards bearing 30°: contours run along 120°. */
function plane(): ElevationGrid {
  const n = 120,
    cell = 4,
    half = (n * cell) / 2;
  const ux = Math.sin((30 * Math.PI) / 180),
    uy = Math.cos((30 * Math.PI) / 180);
  const z: number[] = [];
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) z.push(300 + 0.06 * (ux * (-half + (c + 0.5) * cell) + uy * (half - (r + 0.5) * cell)));
  return {
    crs: 'local',
    originX: -half,
    originY: half,
    cellSizeX: cell,
    cellSizeY: cell,
    columns: n,
    rows: n,
    elevationsMeters: z,
  };
}

const gap = (a: number, b: number): number => {
  const d = Math.abs((((a - b) % 180) + 180) % 180);
  return Math.min(d, 180 - d);
};

describe('planning with terrain', () => {
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 6 },
    headland: { passes: 1 },
    routeOptions: { maxOptimizerTime: 1 },
  };

  it('sets the contour heading as preferred direction unless the request fixes one', () => {
    const t = terrainRequest(request, { grid: plane() });
    expect(t.headingSource).toBe('terrain');
    expect(gap(t.request.tracks!.preferredDirectionDegrees!, 120)).toBeLessThan(0.05);
    const fixed = terrainRequest({ ...request, tracks: { preferredDirectionDegrees: 10 } }, { grid: plane() });
    expect(fixed.headingSource).toBe('preferred');
    expect(fixed.request.tracks!.preferredDirectionDegrees).toBe(10);
    expect(gap(fixed.analysis.best.headingDegrees, 120)).toBeLessThan(0.05);
  });

  it('attaches slope statistics of the planned route (stand-in planner driving the chosen heading)', () => {
    // The stand-in drives one 100 m track from the field's first vertex along the requested heading.
    const frame = frameForPositions(ring);
    const stub = (r: PathPlanRequest): Plan => {
      const h = ((r.tracks?.preferredDirectionDegrees ?? 0) * Math.PI) / 180;
      const [x0, y0] = frame.toLocal(ring[0][0], ring[0][1]);
      return {
        version: 'stub',
        metrics: {} as Plan['metrics'],
        heading: { degrees: r.tracks?.preferredDirectionDegrees ?? 0, source: 'preferred' },
        boundary: field,
        warnings: [],
        route: [
          {
            sequence: 0,
            type: 'Track',
            coordinates: [frame.toLonLat(x0, y0), frame.toLonLat(x0 + 100 * Math.sin(h), y0 + 100 * Math.cos(h))],
            lengthMeters: 100,
          },
        ],
      };
    };
    const along = planWithTerrain(request, { grid: plane() }, stub);
    expect(along.terrain.headingSource).toBe('terrain');
    expect(along.terrain.slope.working.meanAlongGradePercent).toBeLessThan(0.1);
    expect(along.terrain.slope.working.meanCrossSlopeDegrees).toBeCloseTo((Math.atan(0.06) * 180) / Math.PI, 1);
    const across = planWithTerrain(request, { grid: plane(), objective: 'minimizeCrossSlope' }, stub);
    expect(across.terrain.slope.working.meanAlongGradePercent).toBeCloseTo(6, 1);
    expect(JSON.parse(JSON.stringify(along))).toEqual(along);
  });

  const planRoute = core.planRoute as (r: PathPlanRequest) => Plan;
  it('with planRoute: tracks follow the contour, so their grade is lower than with the up-and-down objective', () => {
    // A smaller corpus field keeps this quick; the plane is centred on its own frame.
    const small = (
      JSON.parse(readFileSync(new URL('../../../../test/fields/at-033.geojson', import.meta.url), 'utf8')) as {
        geometry: FieldGeometry;
      }
    ).geometry;
    // Its headland is kept at one pass: widened for the turns, the rounds would cover this
    // small field without any track left to compare.
    const req: PathPlanRequest = { ...request, field: small, headland: { passes: 1, fitTurns: false } };
    const contour = planWithTerrain(req, { grid: plane() }, planRoute!);
    const updown = planWithTerrain(req, { grid: plane(), objective: 'minimizeCrossSlope' }, planRoute!);
    expect(gap(contour.heading.degrees, 120)).toBeLessThan(0.5);
    expect(contour.terrain.slope.passes.length).toBeGreaterThan(0);
    const tracks = (p: typeof contour) => p.terrain.slope.passes.filter((s) => s.type === 'Track');
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(tracks(contour).map((s) => s.meanAlongGradePercent))).toBeLessThan(0.5);
    expect(mean(tracks(updown).map((s) => s.meanAlongGradePercent))).toBeGreaterThan(5);
  });

  it('needs a field and a grid', () => {
    expect(() => terrainRequest({ machine: { widthMeters: 3 } }, { grid: plane() })).toThrowError(/no field/);
    expect(() => terrainRequest(request, {} as never)).toThrowError(/terrain.grid/);
  });
});
