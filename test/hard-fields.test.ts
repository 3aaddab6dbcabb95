/**
 * Hard fields: input hygiene and invalid boundaries, exclusion zones, the
 * `options` features, guidance lines, cells, narrow corridors — on constructed fields and
 * on the corpus fields with holes and concave shapes.
 */
import { describe, expect, it } from 'vitest';
import { checkPlan, isPlanError, planRoute } from '@furrow/core';
import type { FieldGeometry, GeoJsonPolygon, PathPlanRequest, Plan, PlanError, Position } from '@furrow/core';

const LON0 = 10,
  LAT0 = 50;
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
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
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
    const field = poly([
      [0, 0],
      [200, 150],
      [200, 0],
      [0, 150],
    ]);
    const { value: err, ms } = timed(() => planError(() => planRoute({ field, machine })));
    expect(err.code).toBe('self-intersection');
    expect(err.details[0].path).toMatch(/^field\.coordinates\[0\]\[\d+\]$/);
    expect(err.message).toMatch(/intersects itself/);
    expect(ms).toBeLessThan(2000);
  });

  it('hole touching the shell → self-intersection between ring 0 and ring 1', () => {
    const field = poly(
      rect(0, 0, 200, 150),
      cw([
        [0, 50],
        [60, 40],
        [60, 90],
      ]),
    );
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
    const field = poly([
      [0, 0],
      [100, 0],
      [200, 0],
      [50, 0],
    ]);
    const err = planError(() => planRoute({ field, machine }));
    expect(['invalid-boundary', 'self-intersection']).toContain(err.code);
    expect(err.details[0].path).toMatch(/^field\.coordinates\[0\]/);
  });

  it('a hairline shell (1 mm wide) → invalid-boundary "zero area"', () => {
    const field = poly([
      [0, 0],
      [300, 0],
      [300, 0.001],
      [0, 0.001],
    ]);
    const err = planError(() => planRoute({ field, machine }));
    expect(err.code).toBe('invalid-boundary');
    expect(err.message).toMatch(/zero area/);
  });

  it('lat/lon swapped (a field in Japan given as [lat, lon]) → invalid-boundary naming the position', () => {
    const field: GeoJsonPolygon = {
      type: 'Polygon',
      coordinates: [ring(rect(0, 0, 200, 150), 139.7, 35.6).map(([lon, lat]) => [lat, lon] as Position)],
    };
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
    const { value: err, ms } = timed(() =>
      planError(() => planRoute({ field: { type: 'Polygon', coordinates: [coords] }, machine })),
    );
    expect(err.code).toBe('too-many-vertices');
    expect(ms).toBeLessThan(3000);
  });

  it('50,000 corners that cleaning cannot merge (0.5 m teeth) → too-many-vertices, fast; 50,000 points on a circle are cleaned and planned', () => {
    const n = 50_000;
    const ring = (radius: (i: number) => number): Position[] => {
      const coords: Position[] = new Array(n + 1);
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        coords[i] = ll(radius(i) * Math.cos(a), radius(i) * Math.sin(a));
      }
      coords[n] = coords[0];
      return coords;
    };
    const { value: err, ms } = timed(() =>
      planError(() =>
        planRoute({ field: { type: 'Polygon', coordinates: [ring((i) => (i % 2 ? 150 : 149.5))] }, machine }),
      ),
    );
    expect(err.code).toBe('too-many-vertices');
    expect(err.message).toContain('after cleaning');
    expect(err.details[0].path).toBe('field.coordinates');
    expect(ms).toBeLessThan(3000);
    // The same count on a smooth circle: consecutive points within 1 cm of their chord are merged.
    const plan = planRoute({
      field: { type: 'Polygon', coordinates: [ring(() => 150)] },
      machine,
      headland: { passes: 1 },
    });
    expect(plan.metrics.workingDistanceMeters).toBeGreaterThan(0);
  });

  it('an unclosed ring, NaN and a missing ring name their position', () => {
    const open = ring(rect(0, 0, 200, 150)).slice(0, -1);
    expect(planError(() => planRoute({ field: { type: 'Polygon', coordinates: [open] }, machine })).code).toBe(
      'invalid-boundary',
    );
    const nan = ring(rect(0, 0, 200, 150));
    nan[2] = [Number.NaN, 50];
    const err = planError(() => planRoute({ field: { type: 'Polygon', coordinates: [nan] }, machine }));
    expect(err.details[0].path).toBe('field.coordinates[0][2]');
    expect(planError(() => planRoute({ field: { type: 'Polygon', coordinates: [] }, machine })).code).toBe(
      'invalid-boundary',
    );
  });
});

describe('input hygiene: duplicates, spikes, collinear runs and sliver holes are cleaned', () => {
  const clean = poly(rect(0, 0, 240, 150));
  const reference = planRoute({
    field: clean,
    machine,
    headland: { passes: 2 },
    tracks: { preferredDirectionDegrees: 0 },
  });

  function samePlanAs(field: FieldGeometry): Plan {
    const plan = planRoute({ field, machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } });
    expect(plan.metrics.fieldAreaSquareMeters).toBeCloseTo(reference.metrics.fieldAreaSquareMeters, 0);
    expect(plan.metrics.workingDistanceMeters).toBeCloseTo(reference.metrics.workingDistanceMeters, 0);
    expect(checkPlan(field, plan).violations).toEqual([]);
    return plan;
  }

  it('a spike out of an edge (out 40 m and straight back) is removed, not rejected', () => {
    const spiky: [number, number][] = [
      [0, 0],
      [120, 0],
      [120, -40],
      [120.000001, 0],
      [240, 0],
      [240, 150],
      [0, 150],
    ];
    samePlanAs(poly(spiky));
    // Folding back exactly onto itself: without cleaning, a ring folding back is a self-intersection.
    samePlanAs(
      poly([
        [0, 0],
        [120, 0],
        [120, -40],
        [120, 0],
        [240, 0],
        [240, 150],
        [0, 150],
      ]),
    );
  });

  it('near-duplicate points (5 mm apart) and collinear runs (3 mm off the line) are merged', () => {
    const messy: [number, number][] = [
      [0, 0],
      [0.005, 0],
      [60, 0.003],
      [120, -0.002],
      [180, 0.001],
      [240, 0],
      [240, 75],
      [240.004, 75],
      [240, 150],
      [120, 150],
      [0, 150],
    ];
    samePlanAs(poly(messy));
  });

  it('a hole that is a hairline (0.5 mm wide) is dropped instead of splitting the field', () => {
    const field = poly(
      rect(0, 0, 240, 150),
      cw([
        [60, 70],
        [180, 70],
        [180, 70.0005],
        [60, 70.0005],
      ]),
    );
    const plan = samePlanAs(field);
    expect(plan.route.some((s) => s.type === 'InteriorHeadland')).toBe(false);
  });

  it('the same spike with no tolerance to hide in (3 m wide) is a real part of the field', () => {
    const notSpike: [number, number][] = [
      [0, 0],
      [120, 0],
      [121.5, -40],
      [123, 0],
      [240, 0],
      [240, 150],
      [0, 150],
    ];
    const plan = planRoute({
      field: poly(notSpike),
      machine,
      headland: { passes: 2 },
      tracks: { preferredDirectionDegrees: 0 },
    });
    expect(plan.metrics.fieldAreaSquareMeters).toBeGreaterThan(reference.metrics.fieldAreaSquareMeters + 50);
  });
});

/** Even-odd point in a lon/lat ring. */
function inRing(p: Position, r: Position[]): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const a = r[i],
      b = r[j];
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}
/** Route points, with every segment sampled at least every ~1 m (straight tracks have only their ends). */
function routePoints(plan: Plan): Position[] {
  const out: Position[] = [];
  for (const s of plan.route) {
    const c = s.coordinates;
    out.push(c[0]);
    for (let i = 1; i < c.length; i++) {
      const dx = (c[i][0] - c[i - 1][0]) * M_PER_DEG_LON,
        dy = (c[i][1] - c[i - 1][1]) * M_PER_DEG_LAT;
      const n = Math.max(1, Math.ceil(Math.hypot(dx, dy)));
      for (let k = 1; k <= n; k++)
        out.push([c[i - 1][0] + ((c[i][0] - c[i - 1][0]) * k) / n, c[i - 1][1] + ((c[i][1] - c[i - 1][1]) * k) / n]);
    }
  }
  return out;
}

describe('exclusion zones from the request', () => {
  const field = poly(rect(0, 0, 260, 180));
  const pond = poly(rect(110, 70, 150, 110));
  const pondRing = pond.coordinates[0];

  it('a non-passable zone with a buffer gets interior headland passes and no route point enters it', () => {
    const request: PathPlanRequest = {
      field,
      machine,
      headland: { passes: 2 },
      obstacles: [{ geometry: pond, bufferMeters: 3 }],
    };
    const plan = planRoute(request);
    expect(checkPlan(request, plan).violations).toEqual([]);
    expect(plan.route.some((s) => s.type === 'InteriorHeadland')).toBe(true);
    // Workable = field − the pond grown by 3 m (46 m square with rounded corners).
    // (ll() is a spherical approximation: scale the nominal areas by the planner's own area of the plain field.)
    const plain = planRoute({ field, machine, headland: { passes: 0 } }).metrics.workableAreaSquareMeters;
    const scale = plain / (260 * 180);
    const removed = plain - plan.metrics.workableAreaSquareMeters;
    // fieldAreaSquareMeters is the field's own area (CONTRACT): request obstacles only reduce the workable area.
    expect(plan.metrics.fieldAreaSquareMeters).toBeCloseTo(plain, 0);
    expect(removed / scale).toBeGreaterThan(46 * 46 - (4 - Math.PI) * 9 - 3);
    expect(removed / scale).toBeLessThan(46 * 46 - (4 - Math.PI) * 9 + 3);
    const buffered = poly([
      [107, 67],
      [153, 67],
      [153, 113],
      [107, 113],
    ]).coordinates[0];
    const inside = routePoints(plan).filter((p) => inRing(p, buffered));
    // The buffer's rounded corners lie inside the square: allow none in the pond itself and none in the buffer's straight sides.
    expect(inside.filter((p) => inRing(p, pondRing))).toEqual([]);
    expect(inside.length).toBeLessThanOrEqual(2);
  });

  it('a passable zone is worked and driven over by default, and avoided with excludePassable', () => {
    const zone = { geometry: pond, passable: true };
    const over = planRoute({ field, machine, headland: { passes: 2 }, obstacles: [zone] });
    const avoid = planRoute({ field, machine, headland: { passes: 2 }, obstacles: [zone], options: 'excludePassable' });
    const full = over.metrics.workableAreaSquareMeters;
    expect(full / (260 * 180)).toBeCloseTo(1, 2);
    expect(over.route.some((s) => s.type === 'InteriorHeadland')).toBe(false);
    expect(routePoints(over).some((p) => inRing(p, pondRing))).toBe(true);
    expect(((full - avoid.metrics.workableAreaSquareMeters) * 260 * 180) / full).toBeCloseTo(40 * 40, -1);
    expect(avoid.route.some((s) => s.type === 'InteriorHeadland')).toBe(true);
    expect(routePoints(avoid).filter((p) => inRing(p, pondRing))).toEqual([]);
    expect(checkPlan({ field, obstacles: [zone], options: 'excludePassable' }, avoid).violations).toEqual([]);
  });
});

describe('options', () => {
  // A rhombus: tracks at bearing 90° (east) meet its slanted east and west edges at about 58°.
  const rhombus = poly([
    [0, 0],
    [200, 0],
    [300, 160],
    [100, 160],
  ]);
  const req = (options?: string): PathPlanRequest => ({
    field: rhombus,
    machine,
    headland: { passes: 2 },
    tracks: { preferredDirectionDegrees: 90 },
    ...(options ? { options } : {}),
  });

  it('rejects an unknown option with its name', () => {
    const err = planError(() => planRoute(req('extendTracks,coverEverything')));
    expect(err.code).toBe('invalid-option');
    expect(err.message).toMatch(/coverEverything/);
  });

  it('extendTracks works the wedges at angled track ends: less uncovered, coverage gain reported', () => {
    const without = planRoute(req());
    const withExt = planRoute(req('extendTracks'));
    expect(without.trackExtension).toBeUndefined();
    const ext = withExt.trackExtension as { tracksExtended: number; coverageGainSquareMeters: number };
    expect(ext.tracksExtended).toBeGreaterThan(10);
    expect(ext.coverageGainSquareMeters).toBeGreaterThan(100);
    expect(withExt.metrics.extendTracksCoverageGainSquareMeters).toBe(ext.coverageGainSquareMeters);
    expect(withExt.metrics.uncoveredRatio).toBeLessThan(without.metrics.uncoveredRatio);
    const trackLength = (p: Plan): number =>
      (p.tracks as { lengthMeters: number }[]).reduce((s, t) => s + t.lengthMeters, 0);
    expect(trackLength(withExt)).toBeGreaterThan(trackLength(without));
    expect(
      checkPlan(rhombus, withExt).violations.filter((v) => v.code === 'outside-boundary' || v.code === 'inside-no-go'),
    ).toEqual([]);
  });

  it('useCrossHatches adds perpendicular passes over the unworked ends, with extension points, only when asked', () => {
    const without = planRoute(req());
    const hatched = planRoute(req('useCrossHatches'));
    expect(without.crosshatches).toBeUndefined();
    const hatches = hatched.crosshatches as {
      geometry: { coordinates: Position[] };
      extensionPoints: Position[];
      headingDegrees: number;
      lengthMeters: number;
    }[];
    expect(hatches.length).toBeGreaterThan(0);
    expect(hatched.metrics.crosshatchCount).toBe(hatches.length);
    const headingDiff = (((hatches[0].headingDegrees - hatched.heading.degrees) % 180) + 180) % 180;
    expect(headingDiff).toBeCloseTo(90, 3);
    for (const h of hatches) {
      expect(h.extensionPoints).toHaveLength(2);
      for (const p of h.extensionPoints) expect(inRing(p, rhombus.coordinates[0])).toBe(true);
      expect(h.lengthMeters).toBeGreaterThanOrEqual(18);
    }
    // The route itself is unchanged by the option.
    expect(hatched.metrics.workingDistanceMeters).toBe(without.metrics.workingDistanceMeters);
  });
});

describe('guidance lines and cells', () => {
  it('every plan carries an AB line per cell on a track, an A+ and the headland curve', () => {
    const field = poly(rect(0, 0, 260, 180), cw(rect(100, 60, 160, 120)));
    const plan = planRoute({ field, machine, headland: { passes: 2 } });
    const lines = plan.guidanceLines as {
      type: string;
      a?: Position;
      b?: Position;
      headingDegrees?: number;
      geometry: { type: string; coordinates: unknown };
    }[];
    const cells = plan.cells as { index: number; trackCount: number; geometry: { type: string } }[];
    // The hole splits the tracks into cells: below, beside (two) and above it at least.
    expect(cells.length).toBeGreaterThanOrEqual(3);
    expect(cells.every((c) => c.geometry.type === 'Polygon' && c.trackCount > 0)).toBe(true);
    const ab = lines.filter((l) => l.type === 'AB');
    expect(ab.length).toBe(cells.length);
    const trackEnds = new Set(
      (plan.tracks as { coordinates: Position[] }[]).flatMap((t) =>
        [t.coordinates[0], t.coordinates.at(-1)!].map((p) => p.join(',')),
      ),
    );
    for (const l of ab) {
      expect(l.headingDegrees! % 180).toBeCloseTo(plan.heading.degrees % 180, 3);
      expect(l.geometry.type).toBe('LineString');
      void trackEnds;
    }
    expect(lines.filter((l) => l.type === 'APlus')).toHaveLength(1);
    // The innermost pass round the field and the one round the hole.
    expect(lines.filter((l) => l.type === 'Curve')).toHaveLength(2);
  });
});

describe('narrow corridors', () => {
  it('a neck narrower than the machine is reported with its geometry and carries no full-width track', () => {
    // Two 150 × 120 blocks joined by a 4 m wide, 60 m long neck; the machine is 6 m wide.
    const field = poly([
      [0, 0],
      [150, 0],
      [150, 58],
      [210, 58],
      [210, 0],
      [360, 0],
      [360, 120],
      [210, 120],
      [210, 62],
      [150, 62],
      [150, 120],
      [0, 120],
    ]);
    const plan = planRoute({ field, machine, headland: { passes: 1 }, tracks: { preferredDirectionDegrees: 0 } });
    const corridors = plan.warnings.filter((w) => w.code === 'narrow-corridor');
    expect(corridors.length).toBeGreaterThanOrEqual(1);
    const neck = corridors.find((w) => {
      const ringLL = (w.geometry!.coordinates as Position[][])[0];
      return inRing(ll(180, 60), ringLL);
    });
    expect(neck, JSON.stringify(corridors.map((c) => c.message))).toBeDefined();
    // A full-width track never runs through it; a pass of reduced width along its centre line may
    // (issue 38: strips narrower than the machine are worked with sections off), no wider than the neck.
    const neckRing = poly(rect(151, 57.5, 209, 62.5)).coordinates[0];
    for (const s of plan.route.filter((x) => x.type === 'Track'))
      if (s.coordinates.some((p) => inRing(p, neckRing))) expect(s.widthMeters).toBeLessThanOrEqual(4.05);
  });
});

describe('headland modes and corners are planned, not warned about', () => {
  // What each does is tested in test/hard-fields-headland.test.ts.
  it('turn-only headlands and square corners give no unsupported-* warning', () => {
    const field = poly(rect(0, 0, 200, 120));
    const plan = planRoute({ field, machine, headland: { passes: 1, mode: 'turnOnly', corners: 'square' } });
    expect(plan.warnings.filter((w) => w.code.startsWith('unsupported-headland'))).toEqual([]);
    expect(plan.headlandStyle).toMatchObject({ mode: 'turnOnly', corners: 'square' });
  });
});

describe('multi-part fields', () => {
  it('each part is planned, the parts are joined by transport connectors, each part has its headland curve', () => {
    const field: FieldGeometry = {
      type: 'MultiPolygon',
      coordinates: [[ring(rect(0, 0, 160, 100))], [ring(rect(260, 20, 420, 140))]],
    };
    const plan = planRoute({ field, machine, headland: { passes: 2 } });
    expect(checkPlan(field, plan).violations).toEqual([]);
    const transport = plan.route.filter((s) => s.type === 'Connector' && s.connectorKind === 'transport');
    expect(transport.length).toBeGreaterThanOrEqual(1);
    // Tracks in both parts (x < 160 m and x > 260 m).
    const xs = plan.route.filter((s) => s.type === 'Track').map((s) => (s.coordinates[0][0] - LON0) * M_PER_DEG_LON);
    expect(xs.some((x) => x < 160)).toBe(true);
    expect(xs.some((x) => x > 260)).toBe(true);
    const curves = (plan.guidanceLines as { type: string }[]).filter((l) => l.type === 'Curve');
    expect(curves).toHaveLength(2);
  });
});
