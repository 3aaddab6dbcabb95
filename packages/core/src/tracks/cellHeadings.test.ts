import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { frame, local, polygon } from '../__fixtures__/localPolygons.js';
import { areaOf, intersectPolygons, unionPolygons } from '../geometry/clipper.js';
import { generateHeadlands } from '../headland/generateHeadlands.js';
import { cellRegions } from './cells.js';
import { groupCells } from './cells.js';
import { generateTracks } from './generateTracks.js';
import { assignCellHeadings } from './cellHeadings.js';

// An L: a 360 × 84 m bar along x and an 84 × 300 m bar along y. Its arms want different headings.
const L: [number, number][] = [
  [0, 0],
  [360, 0],
  [360, 84],
  [84, 84],
  [84, 300],
  [0, 300],
];
const machine = { widthMeters: 6, turnRadiusMeters: 6 };

/** Bearing of a track's chord, degrees clockwise from north, [0, 180). */
function trackBearing(t: { coordinates: number[][] }): number {
  const [a, b] = [t.coordinates[0], t.coordinates[t.coordinates.length - 1]];
  const p = frame.toLocal(a[0], a[1]),
    q = frame.toLocal(b[0], b[1]);
  const deg = 90 - (Math.atan2(q[1] - p[1], q[0] - p[0]) * 180) / Math.PI;
  return ((deg % 180) + 180) % 180;
}
const angleDiff = (a: number, b: number): number => {
  const d = Math.abs(a - b) % 180;
  return Math.min(d, 180 - d);
};

describe('per-cell headings', () => {
  const field = polygon(L);
  const plan = planRoute({ field, machine, headland: { passes: 2 } });
  const single = planRoute({
    field,
    machine,
    headland: { passes: 2 },
    tracks: { preferredDirectionDegrees: plan.heading.degrees },
  });
  const cells = plan.cells as { index: number; headingDegrees: number; trackIndices: number[] }[];
  const tracks = plan.tracks as { index: number; cell: number; coordinates: number[][] }[];

  it('gives the arms of an L their own headings, each cell tracked along its heading', () => {
    const headings = new Set(cells.map((c) => Math.round(c.headingDegrees)));
    expect(headings.size).toBeGreaterThanOrEqual(2);
    for (const c of cells)
      for (const i of c.trackIndices) expect(angleDiff(trackBearing(tracks[i]), c.headingDegrees)).toBeLessThan(0.01);
    for (const t of tracks) expect(cells[t.cell].trackIndices).toContain(t.index);
  });

  it('is shorter than the one field heading: fewer tracks and less non-working travel, same coverage', () => {
    expect(tracks.length).toBeLessThan((single.tracks as unknown[]).length);
    expect(plan.metrics.nonWorkingDistanceMeters).toBeLessThan(single.metrics.nonWorkingDistanceMeters);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.005);
    expect(plan.metrics.overlapRatio).toBeLessThan(0.005);
    expect(checkPlan(field, plan).violations).toEqual([]);
  });

  it('keeps one heading for every cell when the request gives one', () => {
    const sc = single.cells as { headingDegrees: number }[];
    for (const c of sc) expect(angleDiff(c.headingDegrees, single.heading.degrees)).toBeLessThan(1e-3);
  });

  it('leaves a convex field alone (same tracks, one cell)', () => {
    const rect = local([
      [0, 0],
      [200, 0],
      [200, 90],
      [0, 90],
    ]);
    const ml = generateHeadlands(rect, 2, 6).mainland;
    const set = generateTracks(ml, 0, 6);
    const r = assignCellHeadings(ml, set.tracks, 0, 6, 6);
    expect(r.tracks).toBe(set.tracks);
    expect(r.cells.every((c) => !c.own)).toBe(true);
    expect(new Set(r.cellOf).size).toBe(1);
  });

  it('re-tracks the L arm locally: every track inside the mainland, u/v in its own frame', () => {
    const ml = generateHeadlands(local(L), 2, 6).mainland;
    const set = generateTracks(ml, Math.PI / 2, 6);
    const r = assignCellHeadings(ml, set.tracks, Math.PI / 2, 6, 6);
    expect(r.cells.some((c) => c.own)).toBe(true);
    expect(r.tracks.length).toBeLessThan(set.tracks.length);
    for (const t of r.tracks) {
      const d = t.directionRadians ?? Math.PI / 2;
      const c = Math.cos(d),
        s = Math.sin(d);
      expect(Math.hypot(c * t.u0 - s * t.v - t.x0, s * t.u0 + c * t.v - t.y0)).toBeLessThan(1e-6);
      expect(Math.hypot(c * t.u1 - s * t.v - t.x1, s * t.u1 + c * t.v - t.y1)).toBeLessThan(1e-6);
    }
    // (cell, line) pairs unique: the connect stage treats same-cell lines ≤ 3 apart as neighbours.
    const keys = new Set(r.tracks.map((t, i) => `${r.cellOf[i]}:${t.line}`));
    expect(keys.size).toBe(r.tracks.length);
  });
});

describe('cellRegions', () => {
  it('gives disjoint regions inside the mainland on a field with a hole', () => {
    const field = local(
      [
        [0, 0],
        [240, 0],
        [240, 160],
        [0, 160],
      ],
      [
        [80, 50],
        [80, 110],
        [150, 110],
        [150, 50],
      ],
    );
    const ml = generateHeadlands(field, 2, 6).mainland;
    const set = generateTracks(ml, 0.3, 6);
    const cells = groupCells(set.tracks);
    expect(cells.length).toBeGreaterThan(1);
    const regions = cellRegions(ml, set.tracks, cells, 0.3, 6);
    const mainlandArea = areaOf(ml);
    let sum = 0;
    for (let i = 0; i < regions.length; i++) {
      sum += areaOf(regions[i]);
      for (let j = i + 1; j < regions.length; j++)
        expect(areaOf(intersectPolygons(regions[i], regions[j]))).toBeLessThan(1e-3);
    }
    expect(areaOf(unionPolygons(regions.flat()))).toBeLessThanOrEqual(mainlandArea + 1e-3);
    // The regions stand for nearly all of the mainland (slivers between sample lines may be left out).
    expect(sum).toBeGreaterThan(0.99 * mainlandArea);
  });
});

describe('per-cell headings under the wall-clock cap', () => {
  const field = polygon(L);
  const ml = generateHeadlands(local(L), 2, 6).mainland;
  const set = generateTracks(ml, 0, 6);

  it(
    'drops the work once `stop` answers true, while the cells are weighed, and is unchanged while it ' +
      'answers false',
    () => {
      const free = assignCellHeadings(ml, set.tracks, 0, 6, 6);
      expect(free.cells.some((c) => c.own)).toBe(true);
      expect(assignCellHeadings(ml, set.tracks, 0, 6, 6, () => false)).toEqual(free);
      let asked = 0;
      expect(assignCellHeadings(ml, set.tracks, 0, 6, 6, () => ++asked > 1)).toBeUndefined();
      expect(asked).toBe(2);
    },
  );

  it(
    'a cap passing while the tracks stage weighs the cells leaves every cell on the field heading, and the plan ' +
      'says so',
    () => {
      // The clock reaches the cap at its second reading after the tracks stage starts: the first is the
      // check before the cells are weighed, the second the check before the first cell's region.
      let armed = false,
        readings = 0;
      const now = (): number => (armed && ++readings >= 2 ? 1e12 : 0);
      const cut = planRoute(
        { field, machine, headland: { passes: 2 } },
        {
          now,
          onProgress: (p) => {
            if (p.stage === 'tracks') armed = true;
          },
        },
      );
      const message = cut.warnings.find((w) => w.code === 'time-limit')?.message ?? '';
      expect(message).toMatch(/cells were not given headings of their own/);
      for (const c of cut.cells as { headingDegrees: number }[])
        expect(angleDiff(c.headingDegrees, cut.heading.degrees)).toBeLessThan(1e-3);
      expect(cut.route.filter((s) => s.type === 'Track')).toHaveLength(cut.tracks.length);
    },
  );
});
