import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { planRoute } from './plan.js';
import { checkPlan } from './check/checkPlan.js';
import { isPlanError, PlanError } from './errors.js';
import { createLocalFrame } from './geometry/projection.js';
import { generateHeadlands } from './headland/generateHeadlands.js';
import { generateTracks } from './tracks/generateTracks.js';
import { headingCost, searchHeading } from './tracks/searchHeading.js';
import { computeCoverage } from './geometry/computeCoverage.js';
import { Region } from './geometry/region.js';
import type { GeoJsonPolygon, PathPlanRequest, Position } from './types.js';
import type { PathsD } from './geometry/clipper.js';

/** A polygon given in local meters around (lon0, lat0), as GeoJSON lon/lat. */
function polygonAt(lon0: number, lat0: number, ...rings: [number, number][][]): GeoJsonPolygon {
  const frame = createLocalFrame([[lon0, lat0]]);
  return {
    type: 'Polygon',
    coordinates: rings.map((r) => {
      const ll = r.map(([x, y]) => frame.toLonLat(x, y));
      return [...ll, ll[0]];
    }),
  };
}

function rect(w: number, h: number, angleRadians = 0): [number, number][] {
  const c = Math.cos(angleRadians),
    s = Math.sin(angleRadians);
  return (
    [
      [-w / 2, -h / 2],
      [w / 2, -h / 2],
      [w / 2, h / 2],
      [-w / 2, h / 2],
    ] as [number, number][]
  ).map(([x, y]) => [c * x - s * y, s * x + c * y]);
}

function expectPlanError(fn: () => unknown, code: string, path?: string): PlanError {
  try {
    fn();
  } catch (e) {
    expect(isPlanError(e)).toBe(true);
    const err = e as PlanError;
    expect(err.code).toBe(code);
    if (path !== undefined) expect(err.details.map((d) => d.path)).toContain(path);
    return err;
  }
  throw new Error('expected a PlanError');
}

const square = polygonAt(15, 48, rect(200, 120));
const base: PathPlanRequest = {
  field: square,
  machine: { widthMeters: 6, turnRadiusMeters: 6 },
  headland: { passes: 2 },
};

describe('request validation', () => {
  it('requires a positive width and names the field', () => {
    expectPlanError(() => planRoute({ field: square } as PathPlanRequest), 'width-not-positive', 'machine.widthMeters');
    expectPlanError(
      () => planRoute({ field: square, machine: { widthMeters: -3 } }),
      'width-not-positive',
      'machine.widthMeters',
    );
    expectPlanError(
      () => planRoute({ boundary: square, equipment: { widthMeters: 0 } }),
      'width-not-positive',
      'equipment.widthMeters',
    );
  });

  it('rejects unknown options', () => {
    expectPlanError(() => planRoute({ ...base, options: 'useCrossHatches,warpDrive' }), 'invalid-option', 'options');
    expectPlanError(
      () => planRoute({ ...base, routeOptions: { algorithm: 'zigzag' as never } }),
      'invalid-option',
      'routeOptions.algorithm',
    );
  });

  it('rejects bad headland passes and headings', () => {
    expectPlanError(() => planRoute({ ...base, headland: { passes: 2.5 } }), 'invalid-request', 'headland.passes');
    expectPlanError(
      () => planRoute({ ...base, tracks: { preferredDirectionDegrees: Number.NaN } }),
      'invalid-request',
      'tracks.preferredDirectionDegrees',
    );
  });

  it('fails fast on a million-vertex boundary', () => {
    const ring: Position[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      const a = (2 * Math.PI * i) / 1_000_000;
      ring.push([15 + 0.01 * Math.cos(a), 48 + 0.01 * Math.sin(a)]);
    }
    ring.push(ring[0]);
    const t0 = performance.now();
    expectPlanError(
      () => planRoute({ field: { type: 'Polygon', coordinates: [ring] }, machine: { widthMeters: 6 } }),
      'too-many-vertices',
      'field.coordinates',
    );
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('names the ring and vertex of a bad boundary', () => {
    const open = { type: 'Polygon' as const, coordinates: [square.coordinates[0].slice(0, -1)] };
    expectPlanError(() => planRoute({ ...base, field: open }), 'invalid-boundary', 'field.coordinates[0]');
    const badLat = structuredClone(square);
    badLat.coordinates[0][2] = [15, 95];
    expectPlanError(() => planRoute({ ...base, field: badLat }), 'invalid-boundary', 'field.coordinates[0][2]');
    const bowTie = polygonAt(15, 48, [
      [0, 0],
      [100, 100],
      [100, 0],
      [0, 100],
    ]);
    const err = expectPlanError(() => planRoute({ ...base, field: bowTie }), 'self-intersection');
    expect(err.message).toMatch(/intersects itself/);
    const holeOut = polygonAt(15, 48, rect(200, 120), [
      [300, 0],
      [320, 0],
      [320, 20],
      [300, 20],
    ]);
    expectPlanError(() => planRoute({ ...base, field: holeOut }), 'hole-outside-shell', 'field.coordinates[1]');
  });

  it('accepts shape B like shape A', () => {
    const a = planRoute(base);
    const b = planRoute({
      boundary: square,
      equipment: { widthMeters: 6, turnRadiusMeters: 6 },
      exteriorHeadlandPasses: 2,
    });
    expect(b.metrics).toEqual(a.metrics);
  });
});

describe('projection', () => {
  it('round-trips lon/lat to well under a millimetre', () => {
    const frame = createLocalFrame([
      [15, 48],
      [15.02, 48.01],
    ]);
    for (const [lon, lat] of [
      [15, 48],
      [15.02, 48.01],
      [15.013, 48.0049],
    ] as Position[]) {
      const [x, y] = frame.toLocal(lon, lat);
      const back = frame.toLonLat(x, y);
      expect(Math.abs(back[0] - lon)).toBeLessThan(1e-10);
      expect(Math.abs(back[1] - lat)).toBeLessThan(1e-10);
    }
  });

  it('keeps distances true to 1 cm per km along the central meridian', () => {
    // One arc minute of latitude at 48° is 1853.1 m on WGS84 (meridian arc, Bessel's series).
    const frame = createLocalFrame([[15, 48]]);
    const a = frame.toLocal(15, 48 - 1 / 120),
      b = frame.toLocal(15, 48 + 1 / 120);
    const phi = (48 * Math.PI) / 180;
    const e2 = 0.00669437999014,
      a0 = 6378137;
    const M = (a0 * (1 - e2)) / Math.pow(1 - e2 * Math.sin(phi) ** 2, 1.5); // meridional radius
    const expected = (M * Math.PI) / 180 / 60;
    expect(Math.abs(Math.hypot(b[0] - a[0], b[1] - a[1]) - expected)).toBeLessThan(0.0185);
  });
});

describe('coverage', () => {
  const sq: PathsD = [
    [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 60 },
      { x: 0, y: 60 },
    ],
  ];
  it('unions exactly adjacent swaths without losing area', () => {
    const passes = Array.from({ length: 10 }, (_, k) => ({ xy: [0, 3 + 6 * k, 100, 3 + 6 * k], widthMeters: 6 }));
    const c = computeCoverage(sq, passes);
    expect(c.uncoveredSquareMeters).toBeLessThan(1e-3);
    expect(c.overlapSquareMeters).toBeLessThan(1e-3);
  });
  it('measures overlap and gaps', () => {
    // Two swaths overlapping by 2 m over 100 m, nothing over the rest of the 60 m height.
    const c = computeCoverage(sq, [
      { xy: [0, 3, 100, 3], widthMeters: 6 },
      { xy: [0, 7, 100, 7], widthMeters: 6 },
    ]);
    expect(c.overlapSquareMeters).toBeCloseTo(200, 3);
    expect(c.uncoveredSquareMeters).toBeCloseTo(6000 - 1000, 3);
  });
});

describe('headlands and tracks', () => {
  it('puts pass i at (i − ½)·width and the mainland at N·width', () => {
    const field: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 200, y: 0 },
        { x: 200, y: 120 },
        { x: 0, y: 120 },
      ],
    ];
    const h = generateHeadlands(field, 2, 6);
    expect(h.passes.map((p) => p.passIndex)).toEqual([1, 2]);
    const xs = (k: number) => h.passes[k].ring.map((p) => p.x);
    expect(Math.min(...xs(0))).toBeCloseTo(3, 3);
    expect(Math.min(...xs(1))).toBeCloseTo(9, 3);
    expect(Math.min(...h.mainland[0].map((p) => p.x))).toBeCloseTo(12, 3);
  });

  it('splits tracks at holes (InteriorHeadland passes around them)', () => {
    const plan = planRoute({ ...base, field: polygonAt(15, 48, rect(300, 200), rect(40, 40).reverse()) });
    const headlands = plan.headlands as { type: string }[];
    expect(headlands.filter((h) => h.type === 'InteriorHeadland').length).toBe(2);
    expect(checkPlan(plan.boundary, plan).violations).toEqual([]);
  });

  it('property: tracks lie inside the mainland', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.double({ min: 60, max: 400, noNaN: true }),
        fc.double({ min: 60, max: 400, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        (rot, w, h, dir) => {
          const ring = rect(w, h, rot).map(([x, y]) => ({ x, y }));
          const hl = generateHeadlands([ring], 2, 6);
          const region = new Region(hl.mainland);
          const ts = generateTracks(hl.mainland, dir, 6);
          for (const t of ts.tracks) {
            // Midpoint strictly inside, ends on the edge: shrink by 1 mm to test.
            const mx = (t.x0 + t.x1) / 2,
              my = (t.y0 + t.y1) / 2;
            expect(region.contains(mx, my)).toBe(true);
            const l = Math.hypot(t.x1 - t.x0, t.y1 - t.y0);
            const ux = (t.x1 - t.x0) / l,
              uy = (t.y1 - t.y0) / l;
            expect(region.segmentClear(t.x0 + ux * 1e-3, t.y0 + uy * 1e-3, t.x1 - ux * 1e-3, t.y1 - uy * 1e-3)).toBe(
              true,
            );
          }
        },
      ),
      { seed: 42, numRuns: 40 },
    );
  });

  it('property: the searched heading costs no more than random headings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.6, max: 1.4, noNaN: true }), { minLength: 5, maxLength: 9 }),
        fc.array(fc.double({ min: 0, max: Math.PI, noNaN: true }), { minLength: 5, maxLength: 5 }),
        (radii, headings) => {
          const ring = radii.map((r, i) => {
            const a = (2 * Math.PI * i) / radii.length;
            return { x: 150 * r * Math.cos(a), y: 100 * r * Math.sin(a) };
          });
          const hl = generateHeadlands([ring], 2, 6);
          const best = searchHeading([ring], hl.mainland, 6, 6);
          for (const h of headings)
            expect(best.costMeters).toBeLessThanOrEqual(headingCost(hl.mainland, h, 6, 6) + 1e-9);
        },
      ),
      { seed: 7, numRuns: 25 },
    );
  });
});

describe('route', () => {
  it('plans a rectangle with zero violations and near-full coverage', () => {
    const plan = planRoute(base);
    const check = checkPlan(square, plan);
    expect(check.violations).toEqual([]);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.01);
    expect(plan.metrics.turns).toBeGreaterThan(0);
    expect(plan.route.every((s, i) => s.sequence === i)).toBe(true);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });

  it('is deterministic', () => {
    expect(planRoute(base)).toEqual(planRoute(base));
  });

  it('checkPlan catches a route that leaves the field', () => {
    const plan = planRoute(base);
    const bad = structuredClone(plan);
    const seg = bad.route.find((s) => s.type === 'Turn')!;
    const c = seg.coordinates[Math.floor(seg.coordinates.length / 2)];
    c[1] += 0.01; // ~1.1 km north
    const check = checkPlan(square, bad);
    expect(check.ok).toBe(false);
    expect(check.violations.map((v) => v.code)).toContain('outside-boundary');
    expect(check.violations.map((v) => v.code)).toContain('sparse-geometry');
  });

  it('checkPlan catches a kink tighter than the turning radius', () => {
    const plan = planRoute(base);
    const bad = structuredClone(plan);
    const seg = bad.route.find((s) => s.type === 'Turn')!;
    const c = seg.coordinates[Math.floor(seg.coordinates.length / 2)];
    c[0] += 0.000004; // ~0.3 m east
    const check = checkPlan(square, bad);
    expect(check.violations.map((v) => v.code)).toContain('curvature');
  });

  it('property: convex fields are covered, pieces meet within 5 mm, metrics survive translation and rotation', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 120, max: 250, noNaN: true }),
        fc.double({ min: 120, max: 250, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: -60, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 180, noNaN: true }),
        (w, h, rot, lon, bearing) => {
          const req = (field: GeoJsonPolygon, b: number): PathPlanRequest => ({
            field,
            machine: { widthMeters: 6, turnRadiusMeters: 6 },
            headland: { passes: 2 },
            tracks: { preferredDirectionDegrees: b },
            routeOptions: { algorithm: 'snake' },
          });
          const p0 = planRoute(req(polygonAt(10, 45, rect(w, h)), bearing));
          const p1 = planRoute(req(polygonAt(lon, 45, rect(w, h, rot)), bearing - (rot * 180) / Math.PI));
          const check = checkPlan(p0.boundary, p0);
          expect(check.violations).toEqual([]);
          expect(p0.metrics.uncoveredRatio).toBeLessThan(0.02);
          for (const key of ['workingDistanceMeters', 'workableAreaSquareMeters'] as const) {
            expect(Math.abs(p1.metrics[key] - p0.metrics[key]) / p0.metrics[key]).toBeLessThan(0.002);
          }
          expect(Math.abs(p1.metrics.uncoveredRatio - p0.metrics.uncoveredRatio)).toBeLessThan(0.002);
          const frame = createLocalFrame((p0.boundary as GeoJsonPolygon).coordinates[0]);
          for (let i = 1; i < p0.route.length; i++) {
            const a = p0.route[i - 1].coordinates.at(-1)!,
              b = p0.route[i].coordinates[0];
            const pa = frame.toLocal(a[0], a[1]),
              pb = frame.toLocal(b[0], b[1]);
            expect(Math.hypot(pa[0] - pb[0], pa[1] - pb[1])).toBeLessThan(0.005);
          }
        },
      ),
      { seed: 2026, numRuns: 5 },
    );
  });
});
