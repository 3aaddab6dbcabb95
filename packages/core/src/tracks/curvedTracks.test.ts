import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { local, polygon } from '../__fixtures__/localPolygons.js';
import { worstCurvatureRatio } from '../geometry/curvature.js';
import { Region } from '../geometry/region.js';
import { generateHeadlands } from '../headland/generateHeadlands.js';
import { clipPolylines, generateCurvedTracks, referenceChain, resample } from './curvedTracks.js';
import type { PathPlanRequest } from '../types.js';

const lengthOf = (xy: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 2; i < xy.length; i += 2) s += Math.hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
  return s;
};

// A field along a river bend: the south side is y = 40 sin(x / 80) (radius ≥ 160 m), 300 m long, 200 m deep.
const river: [number, number][] = [];
for (let x = 0; x <= 300; x += 5) river.push([x, 40 * Math.sin(x / 80)]);
const bend: [number, number][] = [...river, [300, 200], [0, 200]];
const riverLength = lengthOf(river.flat());

/** Distance from (x, y) to a polyline. */
function distanceTo(xy: Float64Array, x: number, y: number): number {
  let best = Infinity;
  for (let i = 2; i < xy.length; i += 2) {
    const ax = xy[i - 2],
      ay = xy[i - 1],
      dx = xy[i] - ax,
      dy = xy[i + 1] - ay;
    const l2 = dx * dx + dy * dy;
    let t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
    t = Math.max(0, Math.min(1, t));
    best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
  }
  return best;
}

describe('referenceChain', () => {
  it('is the longest edge of a rectangle', () => {
    const chain = referenceChain(
      local([
        [0, 0],
        [50, 0],
        [50, 200],
        [0, 200],
      ]),
    );
    expect(lengthOf(chain)).toBeCloseTo(200, 6);
  });
  it('follows a smooth curved side across its gentle bends, not the straight sides', () => {
    const chain = referenceChain(local(bend));
    expect(lengthOf(chain)).toBeCloseTo(riverLength, 3);
    expect(chain.length / 2).toBe(river.length);
  });
});

describe('clipPolylines', () => {
  it('cuts a polyline exactly at the edges of a polygon with a hole', () => {
    const poly = local(
      [
        [0, 0],
        [100, 0],
        [100, 100],
        [0, 100],
      ],
      [
        [40, 40],
        [40, 60],
        [60, 60],
        [60, 40],
      ],
    );
    const out = clipPolylines(
      [Float64Array.of(-10, 50, 30, 50, 70, 50, 120, 50), Float64Array.of(-5, -5, -1, -1)],
      poly,
    );
    expect(out.map((l) => Array.from(l))).toEqual([
      [0, 50, 30, 50, 40, 50],
      [60, 50, 70, 50, 100, 50],
    ]);
  });
});

describe('generateCurvedTracks', () => {
  const field = local(bend);
  const mainland = generateHeadlands(field, 2, 6).mainland;
  const set = generateCurvedTracks(field, mainland, 6, 6);

  it('offsets the bend one width apart, inside the mainland, no bend tighter than the turning radius', () => {
    expect(set.tracks.length).toBeGreaterThan(20);
    const region = new Region(mainland);
    for (const t of set.tracks) {
      const xy = t.xy!;
      // Curved: long tracks keep many points (a straight segment would need two).
      if (lengthOf(xy) > 100) expect(xy.length / 2).toBeGreaterThan(10);
      expect([xy[0], xy[1], xy[xy.length - 2], xy[xy.length - 1]]).toEqual([t.x0, t.y0, t.x1, t.y1]);
      expect(worstCurvatureRatio(xy, 6).ratio).toBeLessThanOrEqual(1);
      for (let i = 0; i < xy.length; i += 2)
        expect(region.contains(xy[i], xy[i + 1]) || region.distanceToEdge(xy[i], xy[i + 1]) < 1e-6).toBe(true);
      expect(t.u1).toBeGreaterThanOrEqual(t.u0);
    }
    // Neighbouring levels one width apart (measured away from the ends, where the headland cuts them,
    // and nearer the river than its 160 m radius of curvature: beyond it the offsets fold and are cut).
    let checked = 0;
    for (const t of set.tracks) {
      if (t.v > 140) continue;
      const next = set.tracks.filter((q) => q.line === t.line + 1);
      if (next.length === 0) continue;
      const xy = resample(t.xy!, 1);
      for (let i = 2 * 40; i < xy.length - 2 * 40; i += 2 * 10) {
        const d = Math.min(...next.map((q) => distanceTo(q.xy!, xy[i], xy[i + 1])));
        expect(Math.abs(d - 6)).toBeLessThan(0.3);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // The tracks follow the river: the first level is itself curved (it rises and falls by tens of meters).
    const first = set.tracks.find((t) => t.line === 0)!;
    let minY = Infinity,
      maxY = -Infinity;
    for (let i = 1; i < first.xy!.length; i += 2) {
      minY = Math.min(minY, first.xy![i]);
      maxY = Math.max(maxY, first.xy![i]);
    }
    expect(maxY - minY).toBeGreaterThan(40);
  });
});

describe('planRoute with tracks.trackType curved', () => {
  const field = polygon(bend);
  const base: PathPlanRequest = { field, machine: { widthMeters: 6, turnRadiusMeters: 6 }, headland: { passes: 2 } };
  const curved = planRoute({ ...base, tracks: { trackType: 'curved' } });
  const straight = planRoute(base);
  const tracksOf = (p: typeof curved) =>
    p.tracks as { index: number; cell: number; lengthMeters: number; coordinates: number[][] }[];

  it('drives curved tracks, checked clean, and covers the field', () => {
    expect(curved.warnings.map((w) => w.code)).not.toContain('unsupported-track-type');
    expect(
      tracksOf(curved)
        .filter((t) => t.lengthMeters > 100)
        .every((t) => t.coordinates.length > 10),
    ).toBe(true);
    expect(tracksOf(curved).filter((t) => t.lengthMeters > 100).length).toBeGreaterThan(20);
    expect(tracksOf(straight).every((t) => t.coordinates.length === 2)).toBe(true);
    const driven = curved.route.filter((s) => s.type === 'Track');
    expect(driven.length).toBe(tracksOf(curved).length);
    expect(driven.filter((s) => s.lengthMeters > 100).every((s) => s.coordinates.length > 10)).toBe(true);
    expect(checkPlan(field, curved).violations).toEqual([]);
    expect(curved.metrics.uncoveredRatio).toBeLessThan(0.01);
  });

  it("carries a curve guidance line per cell, on the cell's reference track", () => {
    const lines = curved.guidanceLines as {
      type: string;
      cell?: number;
      trackIndex?: number;
      geometry: { coordinates: number[][] };
    }[];
    const cells = curved.cells as { index: number }[];
    const perCell = lines.filter((l) => l.type === 'Curve' && l.cell !== undefined);
    expect(perCell.map((l) => l.cell).sort()).toEqual(cells.map((c) => c.index).sort());
    for (const l of perCell)
      expect(l.geometry.coordinates.length).toBe(tracksOf(curved)[l.trackIndex!].coordinates.length);
    expect(lines.filter((l) => l.type === 'AB' || l.type === 'APlus')).toEqual([]);
  });
});
