import { describe, expect, it } from 'vitest';
import { offsetPolygons } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import { Region, segmentDistance } from '../geometry/region.js';
import { computeCoverage } from '../geometry/computeCoverage.js';
import { generateTracks } from './generateTracks.js';
import { extendTracks } from './extendTracks.js';
import { seededRandom } from '../geometry/random.js';

/** Distance from (x, y) to the nearest edge of the rings. */
function distanceToRings(rings: PathsD, x: number, y: number): number {
  let best = Infinity;
  for (const ring of rings) {
    for (let i = 0, n = ring.length; i < n; i++) {
      const a = ring[i],
        b = ring[(i + 1) % n];
      best = Math.min(best, segmentDistance(x, y, a.x, a.y, b.x, b.y));
    }
  }
  return best;
}

describe('extendTracks', () => {
  const w = 6;
  // A field whose top edge meets tracks along x at 5°: the top tracks end at a shallow angle.
  const slope = Math.tan((5 * Math.PI) / 180);
  const field: PathsD = [
    [
      { x: 0, y: 0 },
      { x: 200, y: 0 },
      { x: 200, y: 60 },
      { x: 0, y: 60 - 200 * slope },
    ],
  ];
  const mainland = offsetPolygons(field, -2 * w, 0.01);
  const set = generateTracks(mainland, 0, w);
  const uncovered = (tracks: typeof set.tracks): number =>
    computeCoverage(
      mainland,
      tracks.map((t) => ({ xy: [t.x0, t.y0, t.x1, t.y1], widthMeters: w })),
    ).uncoveredSquareMeters;

  it('runs shallow track ends on along the edge, no deeper than maxExtensionMeters outside the mainland', () => {
    const { tracks, extension } = extendTracks(set, mainland, field, w, w / 2, 1);
    expect(extension.tracksExtended).toBeGreaterThan(0);
    // At 5° the wedge beside a track end is (w/2)/tan 5° ≈ 34 m long: ends move far more than w/2.
    const moved = tracks.map((t, i) => Math.max(set.tracks[i].u0 - t.u0, t.u1 - set.tracks[i].u1));
    expect(Math.max(...moved)).toBeGreaterThan(10);
    const mainlandRegion = new Region(mainland);
    const room = new Region(offsetPolygons(field, -w / 2, 0.01));
    for (const t of tracks) {
      for (const [x, y] of [
        [t.x0, t.y0],
        [t.x1, t.y1],
      ]) {
        if (!mainlandRegion.contains(x, y)) expect(distanceToRings(mainland, x, y)).toBeLessThanOrEqual(w / 2 + 1e-6);
        // The swath stays in the field: the centre line in the field shrunk by w/2.
        expect(room.contains(x, y)).toBe(true);
      }
    }
    expect(uncovered(tracks)).toBeLessThan(uncovered(set.tracks) * 0.6);
  });

  it('with a fraction, moves each end that share of the full extension', () => {
    const full = extendTracks(set, mainland, field, w, w / 2, 1).tracks;
    const third = extendTracks(set, mainland, field, w, w / 2, 1 / 3).tracks;
    third.forEach((t, i) => {
      const s = set.tracks[i],
        f = full[i];
      expect(s.u0 - t.u0).toBeCloseTo((s.u0 - f.u0) / 3, 6);
      expect(t.u1 - s.u1).toBeCloseTo((f.u1 - s.u1) / 3, 6);
    });
    const worked = (tracks: typeof set.tracks): number => uncovered(tracks);
    expect(worked(third)).toBeLessThan(worked(set.tracks));
    expect(worked(full)).toBeLessThan(worked(third));
  });

  it('never runs a track on over the next track of its own line (a line passing a pole)', () => {
    let split = 0;
    for (let dy = 0; dy < 6; dy += 0.25) {
      // A 1 m pole: the mainland's hole round it is ≈ 25 m across, and a line passing near its
      // edge is split while the lines at its swath's edges pass it.
      const pole = [
        { x: 100.5, y: 30 + dy },
        { x: 99.5, y: 30 + dy },
        { x: 99.5, y: 31 + dy },
        { x: 100.5, y: 31 + dy },
      ];
      const poled: PathsD = [
        [
          { x: 0, y: 0 },
          { x: 200, y: 0 },
          { x: 200, y: 60 },
          { x: 0, y: 60 },
        ],
        pole,
      ];
      const ml = offsetPolygons(poled, -2 * w, 0.01);
      const tracks = generateTracks(ml, 0, w);
      const out = extendTracks(tracks, ml, poled, w, w / 2, 1).tracks;
      const byLine = new Map<number, { u0: number; u1: number }[]>();
      for (const t of out) byLine.set(t.line, [...(byLine.get(t.line) ?? []), t]);
      for (const ts of byLine.values()) {
        if (ts.length < 2) continue;
        split++;
        ts.sort((a, b) => a.u0 - b.u0);
        for (let i = 1; i < ts.length; i++) expect(ts[i].u0).toBeGreaterThanOrEqual(ts[i - 1].u1 - 1e-9);
      }
    }
    expect(split).toBeGreaterThan(10);
  });

  it('does not run a track in the headland band along a mainland edge its swath only grazes', () => {
    // A short track parallel to the mainland's top edge, in the band just outside it: its swath's
    // lower edge dips 4 cm into the mainland (as at the inner corner of an L whose arms have
    // headings of their own). Extending it along that edge would work 4 cm for 6 m of overlap.
    const rect: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 200, y: 0 },
        { x: 200, y: 60 },
        { x: 0, y: 60 },
      ],
    ];
    const ml = offsetPolygons(rect, -2 * w, 0.01);
    const v = 48 + w / 2 - 0.04;
    const track = { line: 0, u0: 100, u1: 104, v, x0: 100, y0: v, x1: 104, y1: v };
    const { tracks, extension } = extendTracks(
      { directionRadians: 0, tracks: [track], lineCount: 1 },
      ml,
      rect,
      w,
      w / 2,
      1,
    );
    expect(extension.tracksExtended).toBe(0);
    expect([tracks[0].u0, tracks[0].u1]).toEqual([100, 104]);
  });

  it('keeps the swaths in a logged field (its room offset from the simplified boundary, that far further in)', () => {
    // The 5° field with a vertex every 0.2 m, each off its side by up to ±0.15 m: dense enough to be simplified.
    const rnd = seededRandom(3);
    const corners = field[0];
    const logged: PathsD = [[]];
    for (let k = 0; k < corners.length; k++) {
      const a = corners[k],
        b = corners[(k + 1) % corners.length],
        l = Math.hypot(b.x - a.x, b.y - a.y),
        n = Math.round(l / 0.2);
      for (let i = 0; i < n; i++) {
        const t = i / n,
          d = i === 0 ? 0 : (2 * rnd() - 1) * 0.15;
        logged[0].push({
          x: a.x + (b.x - a.x) * t - ((b.y - a.y) / l) * d,
          y: a.y + (b.y - a.y) * t + ((b.x - a.x) / l) * d,
        });
      }
    }
    expect(logged[0].length).toBeGreaterThan(1000);
    const { tracks, extension } = extendTracks(set, mainland, logged, w, w / 2, 1);
    expect(extension.tracksExtended).toBeGreaterThan(0);
    const room = new Region(offsetPolygons(logged, -w / 2, 0.01));
    for (const t of tracks)
      for (const [x, y] of [
        [t.x0, t.y0],
        [t.x1, t.y1],
      ])
        expect(room.contains(x, y)).toBe(true);
  });
});
