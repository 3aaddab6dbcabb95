import { describe, expect, it } from 'vitest';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { areaOf, intersectPolygons, unionPolygons } from '../geometry/clipper.js';
import { activeSwath } from '../geometry/activeSwath.js';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import { Region } from '../geometry/region.js';
import type { GeoJsonPolygon } from '../types.js';
import type { Track } from './generateTracks.js';
import { generateStripTracks } from './strips.js';
import { centreLinePasses } from './centreLine.js';

/** A strip bent round (0, 0): radii r0 < r1, from angle a0 to a1 (radians), counter-clockwise ring. */
function bentStrip(r0: number, r1: number, a0: number, a1: number, steps = 120): PathD {
  const ring: PathD = [];
  for (let k = 0; k <= steps; k++) {
    const a = a0 + ((a1 - a0) * k) / steps;
    ring.push({ x: r1 * Math.cos(a), y: r1 * Math.sin(a) });
  }
  for (let k = steps; k >= 0; k--) {
    const a = a0 + ((a1 - a0) * k) / steps;
    ring.push({ x: r0 * Math.cos(a), y: r0 * Math.sin(a) });
  }
  return ring;
}

/** A straight arm from the origin along angle a, `length` long and `width` wide (counter-clockwise). */
function arm(a: number, length: number, width: number, back = 0): PathD {
  const ux = Math.cos(a),
    uy = Math.sin(a),
    nx = -uy,
    ny = ux,
    h = width / 2;
  return [
    { x: -back * ux - h * nx, y: -back * uy - h * ny },
    { x: length * ux - h * nx, y: length * uy - h * ny },
    { x: length * ux + h * nx, y: length * uy + h * ny },
    { x: -back * ux + h * nx, y: -back * uy + h * ny },
  ];
}

/** A Y: a trunk running south, two arms to the north-east and north-west (30° off north), 10 m wide. */
function yStrip(): PathsD {
  return unionPolygons(
    [
      arm(-Math.PI / 2, 160, 10),
      arm(Math.PI / 2 - Math.PI / 6, 160, 10, 5),
      arm(Math.PI / 2 + Math.PI / 6, 160, 10, 5),
    ],
    4,
  );
}

/** Largest curvature of a polyline, 1/m, measured like checkPlan: circles through points at least `spacing` apart. */
function maxCurvature(xy: Float64Array, spacing = 0.4): number {
  const pts: [number, number][] = [];
  for (let i = 0; i < xy.length; i += 2) {
    const last = pts[pts.length - 1];
    if (!last || Math.hypot(xy[i] - last[0], xy[i + 1] - last[1]) >= spacing) pts.push([xy[i], xy[i + 1]]);
  }
  let worst = 0;
  for (let i = 1; i + 1 < pts.length; i++) {
    const [ax, ay] = pts[i - 1],
      [bx, by] = pts[i],
      [cx, cy] = pts[i + 1];
    const cross = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
    const k =
      (2 * cross) / (Math.hypot(bx - ax, by - ay) * Math.hypot(cx - bx, cy - by) * Math.hypot(cx - ax, cy - ay));
    worst = Math.max(worst, k);
  }
  return worst;
}

/** What the passes' active bands work of `rings`, m² (their union, clipped). */
function worked(tracks: Track[], rings: PathsD): number {
  const swaths = tracks.flatMap((t) =>
    t.xy && t.activeLeftMeters && t.activeRightMeters
      ? activeSwath(t.xy, t.activeRightMeters, t.activeLeftMeters)
      : [
          [
            { x: t.x0, y: t.y0 },
            { x: t.x1, y: t.y1 },
          ],
        ],
  );
  return areaOf(intersectPolygons(unionPolygons(swaths, 4), rings));
}

const W = 36,
  R = 12;
const stripOptions = (field: PathsD) => ({
  widthMeters: W,
  turnRadiusMeters: R,
  turnRoomMeters: (1 + Math.sqrt(3)) * R,
  field,
  othersDriven: false,
  minStripArea: 50,
  firstLine: 0,
  reverseAllowed: true,
});

describe('centre-line passes on a bent strip', () => {
  // 10 m wide, centre line of radius 100 m over 120°: 209 m long, 2,094 m²
  const strip = [bentStrip(95, 105, 0, (2 * Math.PI) / 3)];
  const area = ((2 * Math.PI) / 3) * ((105 ** 2 - 95 ** 2) / 2);

  it('is worked by one pass along its centre line, not by straight chords', () => {
    const tracks = generateStripTracks(strip, [], stripOptions(strip));
    expect(tracks.length).toBe(1);
    const t = tracks[0];
    expect(t.xy).toBeDefined();
    const xy = t.xy!;
    // follows the centre line: every point within 1.5 m of radius 100 m, inside the strip
    const region = new Region(strip);
    for (let i = 0; i < xy.length; i += 2) {
      expect(Math.abs(Math.hypot(xy[i], xy[i + 1]) - 100)).toBeLessThan(1.5);
      expect(region.contains(xy[i], xy[i + 1]) || region.distanceToEdge(xy[i], xy[i + 1]) < 0.1).toBe(true);
    }
    expect(maxCurvature(xy)).toBeLessThanOrEqual(1 / R);
    expect(worked(tracks, strip) / area).toBeGreaterThan(0.97);
  });

  it('carries the active width of its sections, which an independent area computation confirms', () => {
    // 12 sections of 3 m: over a 10 m strip with the pass on its middle, the 4 middle ones lie
    // wholly over it and the next one each side half (2 m of 3 m) over it: 6 sections, 18 m on...
    // but a section is on only when half of it or more is over the ground: [−6, −3] holds 2 m, on;
    // [−9, −6] holds none, off. So the band is [−6, 6]: 12 m.
    const tracks = generateStripTracks(strip, [], {
      ...stripOptions(strip),
      sectionWidthsMeters: Array.from({ length: 12 }, () => 3),
    });
    expect(tracks.length).toBe(1);
    const t = tracks[0];
    const widths = Array.from(t.activeLeftMeters!, (l, i) => l - t.activeRightMeters![i]);
    const inner = widths.slice(5, -5);
    expect(Math.min(...inner)).toBeCloseTo(12, 6);
    expect(Math.max(...inner)).toBeCloseTo(12, 6);
    // the band's area (its polygon, Clipper) against ∫ active width ds along the pass (trapezoids)
    // and against the annulus sector it should lie on (radius 100 ± 6 over the pass's angle)
    const xy = t.xy!;
    let integral = 0;
    for (let i = 1; i < widths.length; i++)
      integral +=
        (Math.hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]) * (widths[i] + widths[i - 1])) / 2;
    const band = areaOf(activeSwath(xy, t.activeRightMeters!, t.activeLeftMeters!));
    expect(Math.abs(band - integral) / integral).toBeLessThan(0.01);
    const sweep = Math.abs(Math.atan2(xy[xy.length - 1], xy[xy.length - 2]) - Math.atan2(xy[1], xy[0]));
    const sector = (sweep * (106 ** 2 - 94 ** 2)) / 2;
    expect(Math.abs(band - sector) / sector).toBeLessThan(0.02);
  });

  it('plans the bent strip as a field: one pass, nearly all of it worked, the plan checked', () => {
    const frame = createLocalFrame([[9.5, 54.3]]);
    const ring = strip[0].map((p) => frame.toLonLat(p.x, p.y));
    const field: GeoJsonPolygon = { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
    const request = { field, machine: { widthMeters: W, turnRadiusMeters: R, sections: 12 }, headland: { passes: 1 } };
    const plan = planRoute(request, { now: () => 0 });
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.05);
    const passes = plan.route.filter((s) => s.type === 'Track');
    expect(passes.length).toBeGreaterThan(0);
    for (const s of passes) {
      expect(Array.isArray(s.activeWidthsMeters)).toBe(true);
      expect((s.activeWidthsMeters as number[]).length).toBe(s.coordinates.length);
    }
    expect(checkPlan(request, plan).violations).toEqual([]);
  });
});

describe('centre-line passes on a Y-shaped strip', () => {
  const y = yStrip();

  it('gives every branch a pass that runs to its end', () => {
    const tracks = generateStripTracks(y, [], stripOptions(y));
    expect(tracks.length).toBeGreaterThanOrEqual(2);
    for (const t of tracks) {
      expect(t.xy).toBeDefined();
      expect(maxCurvature(t.xy!)).toBeLessThanOrEqual(1 / R);
    }
    // each arm's end (150 m out along it) is reached by a pass within 12 m
    for (const a of [-Math.PI / 2, Math.PI / 2 - Math.PI / 6, Math.PI / 2 + Math.PI / 6]) {
      const ex = 150 * Math.cos(a),
        ey = 150 * Math.sin(a);
      let nearest = Infinity;
      for (const t of tracks)
        for (let i = 0; i < t.xy!.length; i += 2)
          nearest = Math.min(nearest, Math.hypot(t.xy![i] - ex, t.xy![i + 1] - ey));
      expect(nearest).toBeLessThan(12);
    }
    expect(worked(tracks, y) / areaOf(y)).toBeGreaterThan(0.95);
  });

  it('joins the two branches that continue each other into one pass, the third a pass of its own', () => {
    const plan = centreLinePasses(y, { widthMeters: W, turnRadiusMeters: R, field: y, firstLine: 0 });
    expect(plan).toBeDefined();
    expect(plan!.tracks.length).toBe(2);
    const lengths = plan!.tracks.map((t) => t.u1 - t.u0).sort((a, b) => b - a);
    // trunk + one arm (about 320 m), the other arm (about 150 m)
    expect(lengths[0]).toBeGreaterThan(280);
    expect(lengths[1]).toBeGreaterThan(120);
    expect(lengths[1]).toBeLessThan(200);
  });
});
