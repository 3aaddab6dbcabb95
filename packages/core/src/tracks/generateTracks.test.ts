import { describe, expect, it } from 'vitest';
import type { PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { computeCoverage } from '../geometry/computeCoverage.js';
import { generateTracks, MIN_TRACK_LENGTH_METERS } from './generateTracks.js';

const w = 6;
const uncoveredBy = (mainland: PathsD, set: ReturnType<typeof generateTracks>): number =>
  computeCoverage(
    mainland,
    set.tracks.map((t) => ({ xy: [t.x0, t.y0, t.x1, t.y1], widthMeters: w })),
  ).uncoveredSquareMeters;

describe('generateTracks', () => {
  // 100 m × 60 m strip from y = 0.4 to 60.4 with a 10 m wide spike down to y = 0: centred on the
  // extent, the lowest line (y = 0.2) would cut only the spike, < 1 m, leaving 0.4…3.2 unworked.
  const spiked: PathsD = [
    [
      { x: 0, y: 0.4 },
      { x: 45, y: 0.4 },
      { x: 50, y: 0 },
      { x: 55, y: 0.4 },
      { x: 100, y: 0.4 },
      { x: 100, y: 60.4 },
      { x: 0, y: 60.4 },
    ],
  ];

  it('offsets the lines so that no strip along a side is left unworked where the outermost line only grazes', () => {
    const set = generateTracks(spiked, 0, w);
    // The strip is 60 m high: ten tracks suffice, each the full 100 m.
    expect(set.tracks.length).toBe(10);
    for (const t of set.tracks) expect(t.u1 - t.u0).toBeCloseTo(100, 6);
    // What is left: the spike (2 m²) and a strip along a side no wider than half the offset
    // search's step (w / 11 / 2 = 0.27 m × 100 m); the centred lines leave 2.8 m × 100 m.
    expect(uncoveredBy(spiked, set)).toBeLessThan(2 + 100 * (w / 11 / 2));
  });

  it('keeps tracks one width apart, inside the mainland, none shorter than the minimum', () => {
    const concave: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 120, y: 7 },
        { x: 118, y: 80 },
        { x: 60, y: 40 },
        { x: 3, y: 77 },
      ],
    ];
    for (const dir of [0, 0.3, 1.1, 2.5]) {
      const set = generateTracks(concave, dir, w);
      expect(set.tracks.length).toBeGreaterThan(5);
      const region = new Region(concave);
      const v0 = set.tracks[0].v - set.tracks[0].line * w;
      for (const t of set.tracks) {
        expect(t.v - (v0 + t.line * w)).toBeCloseTo(0, 9);
        expect(t.u1 - t.u0).toBeGreaterThanOrEqual(MIN_TRACK_LENGTH_METERS);
        const mx = (t.x0 + t.x1) / 2,
          my = (t.y0 + t.y1) / 2;
        expect(region.contains(mx, my)).toBe(true);
      }
    }
  });

  it('leaves no more of a field unworked than the lines centred on its extent', () => {
    // The same field's tracks at every offset: the chosen offset is at least as good as the
    // centred one (within the piece cost of w²/2 per track it saves).
    const field: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 90, y: 4 },
        { x: 95, y: 47 },
        { x: 40, y: 63 },
        { x: -5, y: 41 },
      ],
    ];
    for (const dir of [0, 0.7, 1.6]) {
      const set = generateTracks(field, dir, w, 0);
      const c = Math.cos(dir),
        s = Math.sin(dir);
      let vmin = Infinity,
        vmax = -Infinity;
      for (const p of field[0]) {
        const v = -s * p.x + c * p.y;
        vmin = Math.min(vmin, v);
        vmax = Math.max(vmax, v);
      }
      const k = Math.ceil((vmax - vmin) / w);
      const centredV0 = vmin + (vmax - vmin - (k - 1) * w) / 2;
      // The centred set, built by shifting the field so the chosen offset lands on the centred lines.
      const shift = centredV0 - (set.tracks[0].v - set.tracks[0].line * w);
      const shifted: PathsD = [field[0].map((p) => ({ x: p.x + s * shift, y: p.y - c * shift }))];
      const centred = generateTracks(shifted, dir, w, 0);
      const back = {
        ...centred,
        tracks: centred.tracks.map((t) => ({
          ...t,
          x0: t.x0 - s * shift,
          y0: t.y0 + c * shift,
          x1: t.x1 - s * shift,
          y1: t.y1 + c * shift,
        })),
      };
      expect(uncoveredBy(field, set)).toBeLessThanOrEqual(
        uncoveredBy(field, back) + ((w * w) / 2) * Math.abs(back.tracks.length - set.tracks.length) + 1,
      );
    }
  });
});
