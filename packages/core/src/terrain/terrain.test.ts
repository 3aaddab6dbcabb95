import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors.js';
import type { FieldGeometry, Plan } from '../types.js';
import {
  analyzeFieldTerrain,
  aspectDegreesOf,
  bestContourHeading,
  frameForPositions,
  headingSlopeCost,
  lineSlopeStatistics,
  localTerrainModel,
  routeSlopeStatistics,
  sampleElevation,
  sampleTerrain,
  slopeAspect,
  validateElevationGrid,
  type ElevationGrid,
} from './index.js';

const DEG = Math.PI / 180;

/** A local-frame grid of f(x, y) sampled at cell centres, covering [-half, half]². */
function localGrid(f: (x: number, y: number) => number, half = 200, cell = 5): ElevationGrid {
  const columns = Math.round((2 * half) / cell);
  const rows = columns;
  const z = new Array<number>(columns * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) z[r * columns + c] = f(-half + (c + 0.5) * cell, half - (r + 0.5) * cell);
  }
  return {
    crs: 'local',
    originX: -half,
    originY: half,
    cellSizeX: cell,
    cellSizeY: cell,
    columns,
    rows,
    elevationsMeters: z,
  };
}

/** A square of side 2s centred at the origin, rotated by `rot` radians, as one flat ring. */
function square(s: number, rot = 0): Float64Array {
  const pts = [
    [-s, -s],
    [s, -s],
    [s, s],
    [-s, s],
  ].map(([x, y]) => [x * Math.cos(rot) - y * Math.sin(rot), x * Math.sin(rot) + y * Math.cos(rot)]);
  return Float64Array.from(pts.flat());
}

/** Undirected angle difference between two headings, degrees in [0, 90]. */
function headingGap(a: number, b: number): number {
  const d = Math.abs((((a - b) % 180) + 180) % 180);
  return Math.min(d, 180 - d);
}

describe('inclined plane', () => {
  // z rises 0.08 m per m to the east and 0.06 m per m to the north: |g| = 0.1, uphill bearing atan2(0.08, 0.06).
  const model = localTerrainModel(localGrid((x, y) => 100 + 0.08 * x + 0.06 * y));
  const uphillBearing = Math.atan2(0.08, 0.06) / DEG; // 53.13°

  it('Horn slope and aspect equal the plane’s everywhere, edges included', () => {
    const { slopeDegrees, aspectDegrees } = slopeAspect(model);
    let slopeError = 0,
      aspectError = 0;
    for (let i = 0; i < slopeDegrees.length; i++) {
      slopeError = Math.max(slopeError, Math.abs(slopeDegrees[i] - Math.atan(0.1) / DEG));
      aspectError = Math.max(aspectError, Math.abs(aspectDegrees[i] - (uphillBearing + 180))); // faces downhill
    }
    expect(slopeError).toBeLessThan(1e-9);
    expect(aspectError).toBeLessThan(1e-9);
  });

  it('bilinear sampling reproduces the plane', () => {
    expect(sampleElevation(model, 12.3, -45.6)).toBeCloseTo(100 + 0.08 * 12.3 - 0.06 * 45.6, 9);
    expect(Number.isNaN(sampleElevation(model, 500, 0))).toBe(true);
  });

  it('contour heading is perpendicular to the gradient, with zero grade along the tracks', () => {
    const best = bestContourHeading(model, [square(150)]);
    expect(headingGap(best.headingDegrees, uphillBearing + 90)).toBeLessThan(0.02);
    expect(best.meanAlongGradePercent).toBeLessThan(0.01);
    expect(best.meanCrossSlopeDegrees).toBeCloseTo(Math.atan(0.1) / DEG, 3);
    expect(best.meanSlopeDegrees).toBeCloseTo(Math.atan(0.1) / DEG, 6);
    expect(best.dominantAspectDegrees).toBeCloseTo(uphillBearing + 180, 6);
  });

  it('minimizeCrossSlope drives straight up and down', () => {
    const best = bestContourHeading(model, [square(150)], { objective: 'minimizeCrossSlope' });
    expect(headingGap(best.headingDegrees, uphillBearing)).toBeLessThan(0.02);
    expect(best.meanCrossSlopeDegrees).toBeLessThan(0.01);
    expect(best.meanAlongGradePercent).toBeCloseTo(10, 2);
  });

  it('a cross-slope limit turns the contour heading just enough to keep it', () => {
    // Full slope 5.71°; keep the side tilt at 3°: the heading must turn off the contour.
    const best = bestContourHeading(model, [square(150)], { maxCrossSlopeDegrees: 3 });
    expect(best.crossSlopeLimitMet).toBe(true);
    expect(best.maxCrossSlopeDegrees).toBeLessThanOrEqual(3 + 1e-9);
    expect(best.maxCrossSlopeDegrees).toBeGreaterThan(2.95);
    // The smallest grade that keeps tan(cross) ≤ tan 3°: along² = |g|² − tan²3°.
    expect(best.meanAlongGradePercent).toBeCloseTo(100 * Math.sqrt(0.01 - Math.tan(3 * DEG) ** 2), 1);
    const impossible = bestContourHeading(model, [square(150)], { maxCrossSlopeDegrees: -1 });
    expect(impossible.crossSlopeLimitMet).toBe(false);
  });

  it('track statistics: up the slope and along the contour', () => {
    const len = 100;
    const ux = Math.sin(uphillBearing * DEG),
      uy = Math.cos(uphillBearing * DEG);
    const up = lineSlopeStatistics(model, [0, 0, len * ux, len * uy]);
    expect(up.lengthMeters).toBeCloseTo(len, 9);
    expect(up.meanAlongGradePercent).toBeCloseTo(10, 6);
    expect(up.maxAlongGradePercent).toBeCloseTo(10, 6);
    expect(up.ascentMeters).toBeCloseTo(10, 6);
    expect(up.descentMeters).toBeCloseTo(0, 9);
    expect(up.meanCrossSlopeDegrees).toBeCloseTo(0, 6);
    const along = lineSlopeStatistics(model, [0, 0, len * uy, -len * ux, 0, 0]);
    expect(along.lengthMeters).toBeCloseTo(2 * len, 9);
    expect(along.meanAlongGradePercent).toBeCloseTo(0, 6);
    expect(along.ascentMeters + along.descentMeters).toBeCloseTo(0, 6);
    expect(along.maxCrossSlopeDegrees).toBeCloseTo(Math.atan(0.1) / DEG, 6);
  });

  it('property: for any plane and field rotation the chosen heading costs no more than any other', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 180, noNaN: true }), { minLength: 5, maxLength: 5 }),
        (a, b, rot, others) => {
          fc.pre(Math.hypot(a, b) > 0.005);
          const m = localTerrainModel(localGrid((x, y) => a * x + b * y, 120, 10));
          const samples = sampleTerrain(m, [square(70, rot)]);
          const best = bestContourHeading(m, [square(70, rot)]);
          const contour = Math.atan2(a, b) / DEG + 90;
          expect(headingGap(best.headingDegrees, contour)).toBeLessThan(0.05);
          for (const h of others)
            expect(best.meanAlongGradePercent).toBeLessThanOrEqual(
              headingSlopeCost(samples, h).meanAlongGradePercent + 1e-9,
            );
        },
      ),
      { seed: 11, numRuns: 40 },
    );
  });
});

describe('a hill', () => {
  it('an elongated ridge along 30°: tracks follow it on the contour, cross it with minimizeCrossSlope', () => {
    const ridge = 30 * DEG;
    // u = distance across the ridge line (which runs along bearing 30° through (20, -10)).
    const f = (x: number, y: number): number => {
      const u = (x - 20) * Math.cos(ridge) - (y + 10) * Math.sin(ridge);
      return 50 + 12 * Math.exp(-(u * u) / (2 * 60 * 60));
    };
    const model = localTerrainModel(localGrid(f, 250, 4));
    const field = [square(160, 0.3)];
    const contour = bestContourHeading(model, field);
    expect(headingGap(contour.headingDegrees, 30)).toBeLessThan(0.5);
    expect(contour.meanAlongGradePercent).toBeLessThan(0.05);
    const across = bestContourHeading(model, field, { objective: 'minimizeCrossSlope' });
    expect(headingGap(across.headingDegrees, 120)).toBeLessThan(0.5);
  });

  it('a round hill: slope is zero on top, aspect faces away from the summit', () => {
    const model = localTerrainModel(localGrid((x, y) => 80 - 0.001 * (x * x + y * y), 100, 2));
    const { slopeDegrees, aspectDegrees } = slopeAspect(model);
    const at = (x: number, y: number): number =>
      Math.round((100 - y) / 2 - 0.5) * model.columns + Math.round((x + 100) / 2 - 0.5);
    expect(slopeDegrees[at(1, 1)]).toBeLessThan(0.3);
    // East of the summit the ground falls towards the east (aspect 90°), north of it towards north (0°).
    // Downhill from the summit at (0, 0) is the bearing of the point itself: atan2(x, y).
    expect(aspectDegrees[at(61, 1)]).toBeCloseTo(Math.atan2(61, 1) / DEG, 6);
    expect(aspectDegrees[at(1, 61)]).toBeCloseTo(Math.atan2(1, 61) / DEG, 6);
    expect(aspectDegrees[at(-41, -21)]).toBeCloseTo(360 + Math.atan2(-41, -21) / DEG, 6);
    expect(aspectDegreesOf(0, 0)).toBeNaN();
  });
});

describe('lon/lat grids and real fields', () => {
  const feature = JSON.parse(
    readFileSync(new URL('../../../../test/fields/at-033.geojson', import.meta.url), 'utf8'),
  ) as { geometry: FieldGeometry };
  const field = feature.geometry;
  const ring = field.type === 'Polygon' ? field.coordinates[0] : field.coordinates[0][0];
  const lons = ring.map((p) => p[0]),
    lats = ring.map((p) => p[1]);
  const lat0 = (Math.min(...lats) + Math.max(...lats)) / 2;

  /** A plane in EPSG:4326 rising `gradePerMeter` towards the north (metres per degree of latitude ≈ 111.2 km). */
  function northRisingGrid(gradePerMeter: number): ElevationGrid {
    const cell = 0.00005; // ≈ 5.5 m of latitude
    const west = Math.min(...lons) - 0.002,
      north = Math.max(...lats) + 0.002;
    const columns = Math.ceil((Math.max(...lons) + 0.002 - west) / cell);
    const rows = Math.ceil((north - (Math.min(...lats) - 0.002)) / cell);
    const z: number[] = [];
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < columns; c++) z.push(200 + gradePerMeter * (north - (r + 0.5) * cell - lat0) * 111_200);
    return {
      crs: 'EPSG:4326',
      originX: west,
      originY: north,
      cellSizeX: cell,
      cellSizeY: cell,
      columns,
      rows,
      elevationsMeters: z,
    };
  }

  it('a north-rising plane over a real corpus field: contour tracks run east-west', () => {
    const terrain = analyzeFieldTerrain(field, northRisingGrid(0.05));
    expect(headingGap(terrain.best.headingDegrees, 90)).toBeLessThan(0.5);
    expect(terrain.best.meanSlopeDegrees).toBeGreaterThan(Math.atan(0.049) / DEG);
    expect(terrain.best.meanSlopeDegrees).toBeLessThan(Math.atan(0.051) / DEG);
    expect(terrain.maxElevationMeters).toBeGreaterThan(terrain.minElevationMeters);
    const northSouth = terrain.byHeading.find((h) => h.headingDegrees === 0)!;
    expect(northSouth.meanAlongGradePercent).toBeGreaterThan(4.9);
    expect(JSON.parse(JSON.stringify(terrain.best))).toEqual(terrain.best);
  });

  it('route statistics of a plan: a north-south track climbs, an east-west one stays level', () => {
    const frame = frameForPositions(ring);
    const p = (x: number, y: number): [number, number] => frame.toLonLat(x, y);
    const plan: Plan = {
      version: 'test',
      metrics: {} as Plan['metrics'],
      heading: { degrees: 0, source: 'preferred' },
      boundary: field,
      warnings: [],
      route: [
        { sequence: 0, type: 'Track', trackIndex: 0, coordinates: [p(0, -20), p(0, 20)], lengthMeters: 40 },
        { sequence: 1, type: 'Turn', coordinates: [p(0, 20), p(3, 23), p(6, 20)], lengthMeters: 8.5 },
        { sequence: 2, type: 'Track', trackIndex: 1, coordinates: [p(6, 20), p(46, 20)], lengthMeters: 40 },
      ],
    };
    const stats = routeSlopeStatistics(plan, northRisingGrid(0.05));
    expect(stats.passes).toHaveLength(2);
    expect(stats.passes[0].trackIndex).toBe(0);
    expect(stats.passes[0].meanAlongGradePercent).toBeCloseTo(5, 0);
    expect(stats.passes[0].ascentMeters).toBeCloseTo(2, 1);
    expect(stats.passes[1].meanAlongGradePercent).toBeLessThan(0.2);
    expect(stats.passes[1].meanCrossSlopeDegrees).toBeCloseTo(Math.atan(0.05) / DEG, 1);
    expect(stats.working.lengthMeters).toBeCloseTo(80, 3);
    expect(stats.route.lengthMeters).toBeGreaterThan(stats.working.lengthMeters);
    expect(stats.nonWorking.sampledLengthMeters).toBeGreaterThan(0);
  });

  it('a UTM grid: a plane rising to the east (grid east) gives north-south contour tracks', () => {
    const utm = proj4('EPSG:4326', '+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs');
    const [e0, n0] = utm.forward([(Math.min(...lons) + Math.max(...lons)) / 2, lat0]) as number[];
    const cell = 10,
      size = 60;
    const z: number[] = [];
    for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) z.push(300 + 0.07 * (c + 0.5) * cell);
    const grid: ElevationGrid = {
      crs: 'EPSG:32633',
      originX: e0 - 300,
      originY: n0 + 300,
      cellSizeX: cell,
      cellSizeY: cell,
      columns: size,
      rows: size,
      elevationsMeters: z,
    };
    const terrain = analyzeFieldTerrain(field, grid);
    // Grid north and true north differ by the meridian convergence (< 1° this close to 15° E).
    expect(headingGap(terrain.best.headingDegrees, 0)).toBeLessThan(1);
    expect(terrain.best.meanSlopeDegrees).toBeCloseTo(Math.atan(0.07) / DEG, 1);
  });

  it('a UTM grid far from the field is reported as not covering it', () => {
    const g = northRisingGrid(0);
    const utm: ElevationGrid = {
      ...g,
      crs: 'EPSG:32633',
      originX: 500_000,
      originY: 5_400_000,
      cellSizeX: 5,
      cellSizeY: 5,
      columns: 10,
      rows: 10,
      elevationsMeters: new Array(100).fill(1),
    };
    expect(() => analyzeFieldTerrain(field, utm)).toThrowError(/does not cover the field/);
  });
});

describe('bad input', () => {
  const good = localGrid(() => 1, 20, 5);
  const cases: [string, Partial<ElevationGrid>, RegExp][] = [
    ['zero cell size', { cellSizeX: 0 }, /cellSizeX/],
    ['wrong count', { elevationsMeters: [1, 2, 3] }, /elevationsMeters/],
    ['one column', { columns: 1 }, /columns/],
    ['all no-data', { elevationsMeters: new Array(64).fill(-9999), noDataValue: -9999 }, /no data/],
    ['infinite value', { elevationsMeters: [Infinity, ...new Array(63).fill(0)] }, /elevationsMeters\[0\]/],
  ];
  for (const [name, patch, message] of cases) {
    it(`rejects ${name} with a PlanError naming the member`, () => {
      try {
        validateElevationGrid({ ...good, ...patch });
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(PlanError);
        expect((err as PlanError).code).toBe('invalid-request');
        expect((err as PlanError).message).toMatch(message);
      }
    });
  }

  it('rejects an unknown crs and an unknown objective', () => {
    const square4326: FieldGeometry = {
      type: 'Polygon',
      coordinates: [
        [
          [10, 50],
          [10.001, 50],
          [10.001, 50.001],
          [10, 50.001],
          [10, 50],
        ],
      ],
    };
    expect(() => analyzeFieldTerrain(square4326, { ...good, crs: 'EPSG:99999' })).toThrowError(/not supported/);
    const m = localTerrainModel(localGrid((x) => x * 0.1, 50, 5));
    expect(() => bestContourHeading(m, [square(20)], { objective: 'steepest' as never })).toThrowError(PlanError);
  });

  it('no-data holes: samples skip them instead of returning NaN statistics', () => {
    const g = localGrid((x, y) => 0.1 * x + 0 * y, 50, 5);
    const z = Array.from(g.elevationsMeters);
    for (let i = 0; i < 20; i++) z[i * 3] = -9999;
    const m = localTerrainModel({ ...g, elevationsMeters: z, noDataValue: -9999 });
    const best = bestContourHeading(m, [square(40)]);
    expect(Number.isFinite(best.meanAlongGradePercent)).toBe(true);
    expect(headingGap(best.headingDegrees, 0)).toBeLessThan(1);
  });
});

describe('small fields', () => {
  it('a field smaller than one DEM cell still gets an elevation range and a heading', () => {
    // 30 m cells of a plane rising east; a 10 m × 10 m field around the origin.
    const g: ElevationGrid = {
      crs: 'local',
      originX: -90,
      originY: 90,
      cellSizeX: 30,
      cellSizeY: 30,
      columns: 6,
      rows: 6,
      elevationsMeters: Array.from({ length: 36 }, (_, i) => 0.1 * (-75 + (i % 6) * 30)),
    };
    const frame = frameForPositions([
      [16, 48],
      [16.0001, 48.0001],
    ]);
    const ring = [
      [-5, -5],
      [5, -5],
      [5, 5],
      [-5, 5],
      [-5, -5],
    ].map(([x, y]) => frame.toLonLat(x, y));
    const t = analyzeFieldTerrain({ type: 'Polygon', coordinates: [ring] }, g);
    expect(t.maxElevationMeters - t.minElevationMeters).toBeCloseTo(1, 3); // 10 m east-west at 10 %
    expect(Math.min(t.best.headingDegrees, 180 - t.best.headingDegrees)).toBeLessThan(0.5);
  });
});
