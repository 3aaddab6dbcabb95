/**
 * Headland modes and corners: `headland.mode` full / turnOnly / none and
 * `headland.corners` rounded / square, each checked on what the plan drives, with the
 * behaviour that fails without the option; `useCrossHatches` with turn-only headlands.
 * Fields are built in local meters (x east, y north) around 10° E, 50° N.
 */
import { describe, expect, it } from 'vitest';
import { checkPlan, isPlanError, planRoute } from '@furrow/core';
import type { GeoJsonPolygon, PathPlanRequest, Plan, PlanError, Position, RouteSegment } from '@furrow/core';

const LON0 = 10,
  LAT0 = 50;
const M_PER_DEG_LAT = 111_320;
const M_PER_DEG_LON = 111_320 * Math.cos((LAT0 * Math.PI) / 180);

function ll(x: number, y: number): Position {
  return [LON0 + x / M_PER_DEG_LON, LAT0 + y / M_PER_DEG_LAT];
}
/** [lon, lat] → local meters, the inverse of `ll` (within 0.1 % of the planner's own frame here). */
function xy(p: Position): [number, number] {
  return [(p[0] - LON0) * M_PER_DEG_LON, (p[1] - LAT0) * M_PER_DEG_LAT];
}
function poly(...rings: [number, number][][]): GeoJsonPolygon {
  return {
    type: 'Polygon',
    coordinates: rings.map((r) => {
      const q = r.map(([x, y]) => ll(x, y));
      return [...q, q[0]];
    }),
  };
}
function rect(x0: number, y0: number, x1: number, y1: number): [number, number][] {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
}

const W = 6,
  R = 6;
const machine = { widthMeters: W, turnRadiusMeters: R };
/** 200 m × 120 m, tracks north-south: their ends are on the north and south edges. */
const rectangle = poly(rect(0, 0, 200, 120));
const northSouth = { preferredDirectionDegrees: 0 };

function segs(plan: Plan, ...types: string[]): RouteSegment[] {
  return plan.route.filter((s) => types.includes(s.type));
}
/** Violations that say the route leaves the field, enters a no-go zone, breaks or misreports. */
function placeViolations(field: GeoJsonPolygon, plan: Plan): string[] {
  return checkPlan(field, plan)
    .violations.filter((v) =>
      ['outside-boundary', 'inside-no-go', 'gap', 'metrics', 'empty-route', 'sparse-geometry'].includes(v.code),
    )
    .map((v) => `${v.code}: ${v.message}`);
}
/** Largest heading change at one vertex of a polyline, degrees (vertices closer than 1 cm merged). */
function sharpestVertexDegrees(line: Position[], closed: boolean): number {
  const pts = line.map(xy);
  const q: [number, number][] = [];
  for (const p of pts)
    if (q.length === 0 || Math.hypot(p[0] - q[q.length - 1][0], p[1] - q[q.length - 1][1]) > 0.01) q.push(p);
  if (closed && q.length > 1 && Math.hypot(q[0][0] - q[q.length - 1][0], q[0][1] - q[q.length - 1][1]) <= 0.01) q.pop();
  const n = q.length;
  let worst = 0;
  for (let i = closed ? 0 : 1; i < (closed ? n : n - 1); i++) {
    const a = q[(i + n - 1) % n],
      b = q[i],
      c = q[(i + 1) % n];
    let d = Math.atan2(c[1] - b[1], c[0] - b[0]) - Math.atan2(b[1] - a[1], b[0] - a[0]);
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    worst = Math.max(worst, Math.abs(d));
  }
  return (worst * 180) / Math.PI;
}

describe('headland.mode turnOnly: passes only where the tracks end, the sides worked by the tracks', () => {
  const req = (mode?: 'turnOnly'): PathPlanRequest => ({
    field: rectangle,
    machine,
    headland: { passes: 2, ...(mode ? { mode } : {}) },
    tracks: northSouth,
  });
  const full = planRoute(req());
  const turnOnly = planRoute(req('turnOnly'));

  it('headland passes lie in the 12 m bands at the north and south ends only', () => {
    expect(segs(turnOnly, 'ExteriorHeadland').length).toBeGreaterThanOrEqual(2);
    const bandOf = (y: number): string => (y <= 12.2 ? 'south' : y >= 107.8 ? 'north' : 'outside');
    // Bands of every point and of every edge's midpoint (a side pass has its vertices in the bands).
    const bandsOf = (p: Plan): Set<string> => {
      const out = new Set<string>();
      for (const s of segs(p, 'ExteriorHeadland'))
        s.coordinates.forEach((c, i) => {
          out.add(bandOf(xy(c)[1]));
          if (i > 0) out.add(bandOf((xy(c)[1] + xy(s.coordinates[i - 1])[1]) / 2));
        });
      return out;
    };
    expect([...bandsOf(turnOnly)].sort()).toEqual(['north', 'south']);
    // The full perimeter (the default) drives along the east and west sides as well.
    expect(bandsOf(full).has('outside')).toBe(true);
    expect(turnOnly.headlandStyle).toMatchObject({ mode: 'turnOnly' });
    // Two loops, one per end band, each working the band's two passes (out along the boundary, back along the tracks' ends).
    expect(turnOnly.headlands as unknown[]).toHaveLength(2);
  });

  it('the tracks run up to the sides (outer tracks within w/2 of x = 0 and x = 200) and end at the bands', () => {
    const xs = (p: Plan): number[] => segs(p, 'Track').flatMap((s) => s.coordinates.map((c) => xy(c)[0]));
    expect(Math.min(...xs(turnOnly))).toBeLessThan(W / 2 + 0.3);
    expect(Math.max(...xs(turnOnly))).toBeGreaterThan(200 - W / 2 - 0.3);
    // With the full perimeter the tracks keep 2 passes (12 m) off the sides.
    expect(Math.min(...xs(full))).toBeGreaterThan(2 * W);
    const ys = segs(turnOnly, 'Track').flatMap((s) => s.coordinates.map((c) => xy(c)[1]));
    expect(Math.min(...ys)).toBeGreaterThan(2 * W - 0.3);
    expect(Math.max(...ys)).toBeLessThan(120 - 2 * W + 0.3);
  });

  it('stays in the field and covers it as well as the full perimeter, with less headland driven and less overlap', () => {
    expect(checkPlan(rectangle, turnOnly).violations.map((v) => `${v.code}: ${v.message}`)).toEqual([]);
    expect(turnOnly.metrics.uncoveredRatio).toBeLessThanOrEqual(full.metrics.uncoveredRatio + 0.0005);
    // Working along the ends only: less headland driven, no side passes overlapping the tracks.
    const passLength = (p: Plan): number => segs(p, 'ExteriorHeadland').reduce((a, s) => a + (s.lengthMeters ?? 0), 0);
    expect(passLength(turnOnly)).toBeLessThan(0.75 * passLength(full));
    expect(turnOnly.metrics.overlapRatio).toBeLessThan(full.metrics.overlapRatio / 2);
  });

  it('a hole gets interior passes only where the tracks run into it; tracks pass beside it', () => {
    const field = poly(rect(0, 0, 200, 120), rect(80, 40, 110, 70).reverse());
    const plan = planRoute({ field, machine, headland: { passes: 2, mode: 'turnOnly' }, tracks: northSouth });
    const interior = segs(plan, 'InteriorHeadland');
    expect(interior.length).toBeGreaterThan(0);
    for (const s of interior)
      for (const p of s.coordinates) {
        const [, y] = xy(p);
        expect(y < 40 || y > 70, `interior pass point at y = ${y.toFixed(2)} beside the hole`).toBe(true);
      }
    // A track just east of the hole runs past it from below to above.
    const beside = segs(plan, 'Track').filter((s) => {
      const a = xy(s.coordinates[0]),
        b = xy(s.coordinates.at(-1)!);
      return a[0] > 110 && a[0] < 110 + W && Math.min(a[1], b[1]) < 40 && Math.max(a[1], b[1]) > 70;
    });
    expect(beside.length).toBeGreaterThan(0);
    expect(placeViolations(field, plan)).toEqual([]);
  });

  it('useCrossHatches with turn-only headlands: crosshatches run along the end bands, across the tracks', () => {
    const plan = planRoute({ ...req('turnOnly'), options: 'useCrossHatches' });
    const hatches = plan.crosshatches as { geometry: { coordinates: Position[] }; lengthMeters: number }[];
    expect(hatches.length).toBeGreaterThanOrEqual(2);
    for (const h of hatches) {
      const [a, b] = h.geometry.coordinates.map(xy);
      // East-west, in a band, spanning most of the field's width.
      expect(Math.abs(a[1] - b[1])).toBeLessThan(0.5);
      expect(a[1] <= 12.2 || a[1] >= 107.8, `crosshatch at y = ${a[1].toFixed(2)}`).toBe(true);
      expect(h.lengthMeters).toBeGreaterThan(150);
    }
  });
});

describe('headland.mode none', () => {
  it('drives no headland pass; the tracks reach the boundary bands and the route stays in the field', () => {
    const plan = planRoute({ field: rectangle, machine, headland: { passes: 2, mode: 'none' }, tracks: northSouth });
    expect(segs(plan, 'ExteriorHeadland', 'InteriorHeadland')).toEqual([]);
    expect(plan.headlands).toEqual([]);
    expect(plan.headlandPasses).toBe(0);
    const xs = segs(plan, 'Track').flatMap((s) => s.coordinates.map((c) => xy(c)[0]));
    expect(Math.min(...xs)).toBeLessThan(W / 2 + 0.3);
    expect(placeViolations(rectangle, plan)).toEqual([]);
  });

  it('keeps tracks out of a corridor narrower than the machine (no headland to keep them out)', () => {
    // Two blocks joined by a 4 m wide neck (y 55 to 59) on the scanline y = 57; the machine is 6 m wide.
    const field = poly([
      [0, 0],
      [150, 0],
      [150, 55],
      [210, 55],
      [210, 0],
      [360, 0],
      [360, 120],
      [210, 120],
      [210, 59],
      [150, 59],
      [150, 120],
      [0, 120],
    ]);
    // frozen clock: past the wall-clock cap (a loaded machine) the narrow corridors are not looked for
    const plan = planRoute(
      { field, machine, headland: { mode: 'none' }, tracks: { preferredDirectionDegrees: 90 } },
      { now: () => 0 },
    );
    expect(plan.warnings.some((w) => w.code === 'narrow-corridor')).toBe(true);
    // No full-width track runs through the neck (x 150 to 210); a strip pass there works no more than the neck's 4 m
    // (passes of reduced width elsewhere — over the slivers along the blocks' edges — are not the neck's).
    for (const s of segs(plan, 'Track')) {
      const xs = s.coordinates.map((p) => xy(p)[0]);
      const through = Math.max(...xs) > 151 && Math.min(...xs) < 209;
      if ((s.widthMeters ?? W) < W) {
        if (through) expect(s.widthMeters!).toBeLessThanOrEqual(4.01);
      } else
        expect(
          through,
          `track from x = ${Math.min(...xs).toFixed(1)} to ${Math.max(...xs).toFixed(1)} through the neck`,
        ).toBe(false);
    }
  });
});

describe('headland.corners', () => {
  const plan = (corners?: 'rounded' | 'square', reverseAllowed = false): Plan =>
    planRoute({
      field: rectangle,
      machine: { ...machine, reverseAllowed },
      headland: { passes: 2, ...(corners ? { corners } : {}) },
      tracks: northSouth,
    });
  const passRings = (p: Plan): Position[][] => (p.headlands as { coordinates: Position[] }[]).map((h) => h.coordinates);

  it('rounded: every pass corner is an arc of radius R (no vertex turns by 3° or more); the default keeps the 90° corners', () => {
    const rounded = plan('rounded');
    for (const ring of passRings(rounded)) expect(sharpestVertexDegrees(ring, true)).toBeLessThan(3);
    // Radius of the corner arcs: where the pass leaves the long side to where it joins the short one is a quarter circle of radius R.
    const outer = passRings(rounded)[0].map(xy);
    const nearCorner = outer.filter(([x, y]) => x > 200 - W / 2 - R - 0.01 && y > 120 - W / 2 - R - 0.01);
    const centre: [number, number] = [200 - W / 2 - R, 120 - W / 2 - R];
    for (const p of nearCorner) expect(Math.hypot(p[0] - centre[0], p[1] - centre[1])).toBeCloseTo(R, 1);
    expect(nearCorner.length).toBeGreaterThan(5);
    expect(rounded.headlandStyle).toMatchObject({ corners: 'rounded', squareCorners: 0, roundedCorners: 8 });
    const plain = plan();
    expect(Math.max(...passRings(plain).map((r) => sharpestVertexDegrees(r, true)))).toBeGreaterThan(80);
    expect(placeViolations(rectangle, rounded)).toEqual([]);
  });

  it('square: passes keep their 90° corners and each is driven as a corner turn inside the field', () => {
    for (const reverseAllowed of [false, true]) {
      const p = plan('square', reverseAllowed);
      const cornerTurns = p.route.filter((s) => s.type === 'Turn' && s.connectorKind === 'corner');
      const style = p.headlandStyle as { squareCorners: number; roundedCorners: number };
      expect(cornerTurns.length).toBe(style.squareCorners);
      if (reverseAllowed) {
        // Three-point turns fit even 3 m from the boundary: all 8 corners square.
        expect(style).toMatchObject({ squareCorners: 8, roundedCorners: 0 });
        expect(cornerTurns.some((t) => t.reverse === true)).toBe(true);
      } else {
        // Forward loops fit at the inner pass (9 m from the boundary), not at the outer one (3 m): rounded there.
        expect(style).toMatchObject({ squareCorners: 4, roundedCorners: 4 });
        expect(cornerTurns.every((t) => t.reverse !== true)).toBe(true);
      }
      // Each corner turn starts and ends on the pass's corner point.
      for (const t of cornerTurns) {
        const a = xy(t.coordinates[0]),
          b = xy(t.coordinates.at(-1)!);
        expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeLessThan(0.05);
        const dx = Math.min(a[0], 200 - a[0]),
          dy = Math.min(a[1], 120 - a[1]);
        expect(Math.abs(dx - dy)).toBeLessThan(0.05);
      }
      expect(placeViolations(rectangle, p)).toEqual([]);
      expect(checkPlan(rectangle, p).violations.filter((v) => v.code === 'curvature')).toEqual([]);
      // Square corners work the corners the rounded ones leave.
      expect(p.metrics.uncoveredRatio).toBeLessThan(plan('rounded', reverseAllowed).metrics.uncoveredRatio);
    }
  });

  it('an unknown mode or corner style is an invalid-request naming the member', () => {
    for (const [headland, path] of [
      [{ mode: 'perimeter' }, 'headland.mode'],
      [{ corners: 'chamfered' }, 'headland.corners'],
    ] as const) {
      let err: PlanError | undefined;
      try {
        planRoute({ field: rectangle, machine, headland: headland as never });
      } catch (e) {
        expect(isPlanError(e)).toBe(true);
        err = e as PlanError;
      }
      expect(err?.code).toBe('invalid-request');
      expect(err?.details[0]?.path).toBe(path);
    }
  });
});
