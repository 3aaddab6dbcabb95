import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import { offsetPolygons, ringToFlat } from '../geometry/clipper.js';
import type { PathD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { worstCurvatureRatio } from '../geometry/curvature.js';
import type { GeoJsonPolygon } from '../types.js';
import { generateHeadlands } from './generateHeadlands.js';
import { CORNER_LOOP_MARGIN_METERS, loopCorners } from './cornerLoops.js';

const W = 36,
  R = 12;

function geo(ring: PathD): GeoJsonPolygon {
  const frame = createLocalFrame([[10, 50]]);
  const ll = ring.map((p) => frame.toLonLat(p.x, p.y));
  return { type: 'Polygon', coordinates: [[...ll, ll[0]]] };
}

/** A 240 × 160 m field with a 60° corner: a quadrilateral with corners of 60°, 120° and two square ones. */
const field: PathD = [
  { x: 0, y: 0 },
  { x: 240, y: 0 },
  { x: 240, y: 160 },
  { x: 92.4, y: 160 },
];

describe('corner loops of a sprayer (w ≥ 2R + 2 m) on its one headland pass', () => {
  it('loops round every convex corner inside the field, no tighter than R', () => {
    const hl = generateHeadlands([field], 1, W, undefined, R);
    const looped = loopCorners(hl.passes, [field], W, R);
    expect(looped.loops).toBe(4);
    const ring = ringToFlat(looped.passes[0].ring);
    // inside the field by the margin, and drivable: no bend tighter than R (the pass's corners are gone)
    expect(new Region(offsetPolygons([field], -CORNER_LOOP_MARGIN_METERS + 0.01)).containsPolyline(ring)).toBe(true);
    expect(worstCurvatureRatio(ring, R).ratio).toBeLessThanOrEqual(1.001);
  });

  it('works the corners the pass swung round before', () => {
    const request = { field: geo(field), machine: { widthMeters: W, turnRadiusMeters: R }, headland: { passes: 1 } };
    const plan = planRoute(request);
    // Swung round the pass's corner points the swath leaves (1 − π/4)·18² ≈ 70 m² at each square
    // corner and ≈ 235 m² at the 60° one (1.2 % of this field; 1.6 % unworked in all). What is
    // left is where the tracks end at the slanted side.
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.006);
    expect(checkPlan(request, plan).violations).toEqual([]);
  });

  it('joins two corners whose side is too short for a loop each into one loop along it', () => {
    // 150 × 70 m: the pass's short sides are 34 m, each corner's loop needs about 19 m of them
    const strip: PathD = [
      { x: 0, y: 0 },
      { x: 150, y: 0 },
      { x: 150, y: 70 },
      { x: 0, y: 70 },
    ];
    const hl = generateHeadlands([strip], 1, W, undefined, R);
    const looped = loopCorners(hl.passes, [strip], W, R);
    expect(looped.loops).toBe(4);
    const request = { field: geo(strip), machine: { widthMeters: W, turnRadiusMeters: R }, headland: { passes: 1 } };
    const plan = planRoute(request);
    // 2.7 % without the loops; along the short sides the loop leaves the band's inner edge (0.9 %)
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.012);
    expect(checkPlan(request, plan).violations).toEqual([]);
  });

  it('finds the corners of a ragged edge and of a chamfered corner', () => {
    // 200 × 140 m, every side a zigzag of ±0.4 m every 5 m, one corner cut by a 10 m chamfer
    const corners: [number, number][] = [
      [0, 0],
      [200, 0],
      [200, 133],
      [193, 140],
      [0, 140],
    ];
    const ragged: PathD = [];
    corners.forEach(([x0, y0], i) => {
      const [x1, y1] = corners[(i + 1) % corners.length];
      const l = Math.hypot(x1 - x0, y1 - y0),
        steps = Math.max(1, Math.floor(l / 5));
      for (let k = 0; k < steps; k++) {
        const t = k / steps,
          wiggle = k === 0 ? 0 : k % 2 === 0 ? 0.4 : -0.4;
        ragged.push({
          x: x0 + t * (x1 - x0) - (wiggle * (y1 - y0)) / l,
          y: y0 + t * (y1 - y0) + (wiggle * (x1 - x0)) / l,
        });
      }
    });
    const hl = generateHeadlands([ragged], 1, W, undefined, R);
    const looped = loopCorners(hl.passes, [ragged], W, R);
    expect(looped.loops).toBe(4);
    const request = { field: geo(ragged), machine: { widthMeters: W, turnRadiusMeters: R }, headland: { passes: 1 } };
    const plan = planRoute(request);
    expect(checkPlan(request, plan).violations).toEqual([]);
    // the corners alone would leave 4 × 70 m² (1 % of the field) swung round
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.004);
  });

  it('leaves narrower machines alone (their swath does not reach over the loop)', () => {
    const hl = generateHeadlands([field], 2, 12, undefined, 9);
    expect(loopCorners(hl.passes, [field], 12, 9)).toEqual({ passes: hl.passes, loops: 0 });
  });
});
