/**
 * Random path-plan requests for the fuzz suite (plan-fuzz.test.ts), drawn by fast-check from a seed:
 * fields of the kinds that break planners (stars with spikes, bent strips, two blobs joined by a
 * neck, small and large holes) and machines from a 1.5 m sprayer boom to a 48 m one (widths
 * 1.5–48 m, turning radii 2–15 m, 0–4 headland passes, every route algorithm, reversing on or off).
 *
 * The shapes are built in local meters round an origin and turned into lon/lat here; their size
 * follows the machine's width (10–45 widths across, 25–500 m) so that a request plans in well under
 * a second. Some are invalid on purpose (a strip bent back onto itself, a hole touching the edge):
 * the planner must refuse those with a `PlanError`.
 */
import fc from 'fast-check';
import type { FieldGeometry, PathPlanRequest, Position, RouteAlgorithm } from '@furrow/core';

type XY = [number, number];

export const ROUTE_ALGORITHMS: readonly RouteAlgorithm[] = [
  'optimized',
  'boustrophedon',
  'snake',
  'spiral',
  'clusteredSpiral',
];

export type ShapeKind = 'star' | 'strip' | 'neck';

/** What one random request is made of (kept beside the request, so that a failure says what it was). */
export interface FuzzRecipe {
  shape: ShapeKind;
  widthMeters: number;
  turnRadiusMeters: number;
  headlandPasses: number;
  algorithm: RouteAlgorithm;
  reverseAllowed: boolean;
  /** Field size in machine widths (the field's scale is this × the width, clamped to 30–600 m). */
  widthsAcross: number;
  /** Shape parameters in [0, 1): each shape reads them in its own order. */
  shapeNumbers: number[];
  /** Holes: each one's size class, its place (anchor choice, offset) and vertex noise. */
  holes: { large: boolean; at: number; offset: number; angle: number; noise: number }[];
}

export interface FuzzCase {
  index: number;
  recipe: FuzzRecipe;
  request: PathPlanRequest;
  /** Field area in hectares before the holes (for the report). */
  areaHectares: number;
}

/** Uniform in [0, 1): fast-check's bias towards extreme values would make most shapes degenerate. */
const unit = fc.noBias(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }));

const recipeArbitrary: fc.Arbitrary<FuzzRecipe> = fc.record({
  shape: fc.constantFrom<ShapeKind>('star', 'strip', 'neck'),
  widthMeters: fc.double({ min: 1.5, max: 48, noNaN: true }).map((w) => Math.round(w * 100) / 100),
  turnRadiusMeters: fc.double({ min: 2, max: 15, noNaN: true }).map((r) => Math.round(r * 100) / 100),
  headlandPasses: fc.integer({ min: 0, max: 4 }),
  algorithm: fc.constantFrom(...ROUTE_ALGORITHMS),
  reverseAllowed: fc.boolean(),
  widthsAcross: fc.noBias(fc.double({ min: 10, max: 45, noNaN: true })),
  shapeNumbers: fc.array(unit, { minLength: 48, maxLength: 48 }),
  holes: fc.array(fc.record({ large: fc.boolean(), at: unit, offset: unit, angle: unit, noise: unit }), {
    maxLength: 3,
  }),
});

/** `count` random requests from `seed`: the same seed and count give the same requests. */
export function randomCases(seed: number, count: number): FuzzCase[] {
  const recipes = fc.sample(recipeArbitrary, { seed, numRuns: count });
  return recipes.map((recipe, index) => {
    const { rings, areaSquareMeters } = fieldRings(recipe);
    const field: FieldGeometry = { type: 'Polygon', coordinates: rings.map(toLonLat) };
    const request: PathPlanRequest = {
      field,
      machine: {
        widthMeters: recipe.widthMeters,
        turnRadiusMeters: recipe.turnRadiusMeters,
        reverseAllowed: recipe.reverseAllowed,
      },
      headland: { passes: recipe.headlandPasses },
      routeOptions: { algorithm: recipe.algorithm },
    };
    return { index, recipe, request, areaHectares: areaSquareMeters / 10_000 };
  });
}

/** Local meters round (10° E, 50° N) to lon/lat, closed ring. */
function toLonLat(ring: XY[]): Position[] {
  const lat0 = 50,
    lon0 = 10;
  const mPerDegLat = 111_200,
    mPerDegLon = 111_320 * Math.cos((lat0 * Math.PI) / 180);
  const out = ring.map(([x, y]): Position => [lon0 + x / mPerDegLon, lat0 + y / mPerDegLat]);
  out.push(out[0]);
  return out;
}

/** A hole may go at (x, y) with a radius up to `maxRadiusMeters`. */
interface Anchor {
  x: number;
  y: number;
  maxRadiusMeters: number;
}

/** A stream over the recipe's shape numbers (read in turn, round again when used up). */
function reader(numbers: number[]): (min: number, max: number) => number {
  let i = 0;
  return (min, max) => min + (max - min) * numbers[i++ % numbers.length];
}

function fieldRings(recipe: FuzzRecipe): { rings: XY[][]; areaSquareMeters: number } {
  const scale = Math.min(500, Math.max(25, recipe.widthsAcross * recipe.widthMeters));
  const next = reader(recipe.shapeNumbers);
  const { outer, anchors } =
    recipe.shape === 'star' ? star(scale, next) : recipe.shape === 'strip' ? bentStrip(scale, next) : neck(scale, next);
  const holes: XY[][] = [];
  const placed: Anchor[] = [];
  for (const h of recipe.holes) {
    if (anchors.length === 0) break;
    const a = anchors[Math.floor(h.at * anchors.length)];
    const radius = h.large ? Math.max(2, a.maxRadiusMeters * (0.4 + 0.5 * h.offset)) : 0.5 + 3.5 * h.offset;
    if (radius > a.maxRadiusMeters) continue;
    // Off the anchor by what room is left, so that holes do not all sit on the same points.
    const room = a.maxRadiusMeters - radius;
    const t = 2 * Math.PI * h.angle;
    const c = { x: a.x + room * h.noise * Math.cos(t), y: a.y + room * h.noise * Math.sin(t), maxRadiusMeters: radius };
    if (placed.some((p) => Math.hypot(p.x - c.x, p.y - c.y) < p.maxRadiusMeters + radius + 1)) continue;
    placed.push(c);
    holes.push(blob(c.x, c.y, radius, h.large ? 9 : 6, h.noise, t).reverse());
  }
  return { rings: [outer, ...holes], areaSquareMeters: Math.abs(ringArea(outer)) };
}

/** A closed polygon round (cx, cy): `n` vertices at radius r × (1 − up to 30 %), counter-clockwise. */
function blob(cx: number, cy: number, r: number, n: number, noise: number, phase: number): XY[] {
  const out: XY[] = [];
  for (let k = 0; k < n; k++) {
    const a = phase + (2 * Math.PI * k) / n;
    const rr = r * (1 - 0.3 * noise * (0.5 + 0.5 * Math.sin(3.7 * k + phase)));
    out.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  return out;
}

/** A star: 5–14 sectors at radii 40–100 % of the scale, some with a narrow spike 1.5–3 times as long. */
function star(scale: number, next: (min: number, max: number) => number): { outer: XY[]; anchors: Anchor[] } {
  const r0 = scale / 2;
  const n = Math.floor(next(5, 15));
  const outer: XY[] = [];
  let inner = r0;
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * (k + next(0, 0.5))) / n;
    const r = r0 * next(0.4, 1);
    inner = Math.min(inner, r);
    outer.push([r * Math.cos(a), r * Math.sin(a)]);
    if (next(0, 1) < 0.35) {
      // a spike: out and back within a few degrees
      const da = next(0.01, 0.12) * ((2 * Math.PI) / n);
      const s = r * next(1.5, 3);
      outer.push([s * Math.cos(a + da), s * Math.sin(a + da)]);
      outer.push([r * Math.cos(a + 2 * da), r * Math.sin(a + 2 * da)]);
    }
  }
  return { outer, anchors: [{ x: 0, y: 0, maxRadiusMeters: inner * 0.6 }] };
}

/**
 * A strip 2–5 legs long, bent by up to ±150° at each joint (a sharp one folds it onto itself),
 * 10–60 % of the scale wide (mitred).
 */
function bentStrip(scale: number, next: (min: number, max: number) => number): { outer: XY[]; anchors: Anchor[] } {
  const legs = Math.floor(next(2, 6));
  const halfWidth = (scale * next(0.1, 0.6)) / 2;
  const line: XY[] = [[0, 0]];
  let heading = next(0, 2 * Math.PI);
  for (let k = 0; k < legs; k++) {
    if (k > 0) heading += ((next(-150, 150) * Math.PI) / 180) * (next(0, 1) < 0.2 ? 0.1 : 1);
    const len = scale * next(0.8, 3);
    const [x, y] = line[line.length - 1];
    line.push([x + len * Math.cos(heading), y + len * Math.sin(heading)]);
  }
  const left: XY[] = [],
    right: XY[] = [];
  for (let i = 0; i < line.length; i++) {
    const [x, y] = line[i];
    const d0 = i > 0 ? unitDir(line[i - 1], line[i]) : unitDir(line[i], line[i + 1]);
    const d1 = i < line.length - 1 ? unitDir(line[i], line[i + 1]) : d0;
    // mitre: the normals' bisector, lengthened by 1 / cos(half the bend), at most 5 half-widths
    let nx = -(d0[1] + d1[1]),
      ny = d0[0] + d1[0];
    const l = Math.hypot(nx, ny) || 1;
    nx /= l;
    ny /= l;
    const cosHalf = Math.max(0.2, nx * -d1[1] + ny * d1[0]);
    const m = halfWidth / cosHalf;
    left.push([x + m * nx, y + m * ny]);
    right.push([x - m * nx, y - m * ny]);
  }
  const anchors = line.slice(0, -1).map(([x, y], i): Anchor => {
    const [x1, y1] = line[i + 1];
    return { x: (x + x1) / 2, y: (y + y1) / 2, maxRadiusMeters: halfWidth * 0.7 };
  });
  return { outer: [...right, ...left.reverse()], anchors };
}

/** Two blobs (radii 25–50 % of the scale) joined by a neck 1–20 % of the scale wide and 5–100 % long. */
function neck(scale: number, next: (min: number, max: number) => number): { outer: XY[]; anchors: Anchor[] } {
  const r1 = scale * next(0.25, 0.5),
    r2 = scale * next(0.25, 0.5);
  const h = Math.min(r1, r2) * next(0.05, 0.4);
  const gap = scale * next(0.05, 1);
  const c1: XY = [-(r1 + gap / 2), 0],
    c2: XY = [r2 + gap / 2, 0];
  const a1 = Math.asin(h / r1),
    a2 = Math.asin(h / r2);
  const outer: XY[] = [];
  const steps = Math.floor(next(8, 24));
  const wobble = next(0, 0.2);
  // the left blob from where the neck leaves it (top) round to where it comes back (bottom)
  for (let k = 0; k <= steps; k++) {
    const a = a1 + ((2 * Math.PI - 2 * a1) * k) / steps;
    const rr = k === 0 || k === steps ? r1 : r1 * (1 - wobble * next(0, 1));
    outer.push([c1[0] + rr * Math.cos(a), c1[1] + rr * Math.sin(a)]);
  }
  // the right blob, from the bottom of the neck round to its top
  for (let k = 0; k <= steps; k++) {
    const a = Math.PI + a2 + ((2 * Math.PI - 2 * a2) * k) / steps;
    const rr = k === 0 || k === steps ? r2 : r2 * (1 - wobble * next(0, 1));
    outer.push([c2[0] + rr * Math.cos(a), c2[1] + rr * Math.sin(a)]);
  }
  const anchors: Anchor[] = [
    { x: c1[0], y: 0, maxRadiusMeters: r1 * (1 - wobble) * 0.6 },
    { x: c2[0], y: 0, maxRadiusMeters: r2 * (1 - wobble) * 0.6 },
  ];
  return { outer, anchors };
}

function unitDir(a: XY, b: XY): XY {
  const l = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  return [(b[0] - a[0]) / l, (b[1] - a[1]) / l];
}

function ringArea(r: XY[]): number {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += (r[j][0] + r[i][0]) * (r[j][1] - r[i][1]);
  return a / 2;
}
