/**
 * Centre-line passes through bends too tight for R on the centre line (driven wide within the
 * field's room: tracks/centreLineCorridor.ts), tours through junctions and round holes
 * (tracks/centreLineTour.ts), and pass ends a connector leaves without a kink
 * (route/connectContext.ts `poseNearVertex`): each on a synthetic bent strip and a Y strip.
 */
import { describe, expect, it } from 'vitest';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { areaOf, differencePolygons, intersectPolygons, unionPolygons } from '../geometry/clipper.js';
import { activeSwath } from '../geometry/activeSwath.js';
import { Region } from '../geometry/region.js';
import { curveBetween, pulledBackEnd, pushedInStart } from '../route/connectContext.js';
import type { Piece } from '../turns/path.js';
import type { Track } from './generateTracks.js';
import { centreLinePasses } from './centreLine.js';

const W = 36,
  R = 12;

/** A straight arm from the origin along angle a, `length` long and `width` wide, `back` behind it (CCW). */
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

/** An L: two 150 m legs, 6 m wide, meeting at a right angle (a bend too tight for R on its centre line). */
function lStrip(): PathsD {
  return unionPolygons([arm(0, 150, 6, 3), arm(Math.PI / 2, 150, 6, 3)], 4);
}

/**
 * A Y whose trunk bends: two arms 150 m long to the north-east and north-west (30° off north) and
 * a trunk running south 80 m, then east 120 m (a right angle too tight for R on its centre line),
 * 6 m wide.
 */
function bentY(): PathsD {
  const trunk = unionPolygons(
    [arm(-Math.PI / 2, 83, 6, 2), arm(0, 120, 6, 3).map((q) => ({ x: q.x, y: q.y - 80 }))],
    4,
  );
  return unionPolygons([...trunk, arm(Math.PI / 3, 150, 6, 2), arm((2 * Math.PI) / 3, 150, 6, 2)], 4);
}

/** A Y of three 150 m arms, 3 m wide, 120° apart: any two continue each other by a 60° bend. */
function yStrip(): PathsD {
  return unionPolygons(
    [0, 1, 2].map((k) => arm(-Math.PI / 2 + (k * 2 * Math.PI) / 3, 150, 3, 2)),
    4,
  );
}

/** A strip 10 m wide bent round a 100 m × 100 m hole, with a 120 m stem off its middle south side. */
function ringWithStem(): PathsD {
  const square = (h: number): PathD => [
    { x: -h, y: -h },
    { x: h, y: -h },
    { x: h, y: h },
    { x: -h, y: h },
  ];
  const ring = differencePolygons([square(60)], [square(50)]);
  return unionPolygons([...ring, arm(-Math.PI / 2, 175, 10, -55)], 4);
}

/** Largest curvature of a polyline, 1/m, measured like checkPlan: circles through points at least 0.4 m apart. */
function maxCurvature(xy: Float64Array): number {
  const pts: [number, number][] = [];
  for (let i = 0; i < xy.length; i += 2) {
    const last = pts[pts.length - 1];
    if (!last || Math.hypot(xy[i] - last[0], xy[i + 1] - last[1]) >= 0.4) pts.push([xy[i], xy[i + 1]]);
  }
  let worst = 0;
  for (let i = 1; i + 1 < pts.length; i++) {
    const [ax, ay] = pts[i - 1],
      [bx, by] = pts[i],
      [cx, cy] = pts[i + 1];
    const cross = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
    worst = Math.max(
      worst,
      (2 * cross) / (Math.hypot(bx - ax, by - ay) * Math.hypot(cx - bx, cy - by) * Math.hypot(cx - ax, cy - ay)),
    );
  }
  return worst;
}

function length(xy: Float64Array): number {
  let l = 0;
  for (let i = 2; i < xy.length; i += 2) l += Math.hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
  return l;
}

/** Every point of the passes in the field (or within the plan check's 0.10 m of it). */
function inField(tracks: Track[], rings: PathsD): boolean {
  const region = new Region(rings);
  return tracks.every((t) => {
    for (let i = 0; i < t.xy!.length; i += 2)
      if (!region.contains(t.xy![i], t.xy![i + 1]) && region.distanceToEdge(t.xy![i], t.xy![i + 1]) > 0.1) return false;
    return true;
  });
}

/** The centre-line passes of a part (a 36 m sprayer; the 3 m Y's arms with a 24 m spreader). */
const passesOf = (rings: PathsD, widthMeters = W): Track[] =>
  centreLinePasses(rings, { widthMeters, turnRadiusMeters: R, field: rings, firstLine: 0 })?.tracks ?? [];

describe('a bend too tight for R on the centre line is driven wide', () => {
  it('bent strip (an L 6 m wide): one pass round the corner, bent no tighter than R, in the field', () => {
    const l = lStrip();
    const tracks = passesOf(l);
    // the centre line's arc of R would leave the strip at the corner: without fitting, two passes
    expect(tracks.length).toBe(1);
    expect(length(tracks[0].xy!)).toBeGreaterThan(280);
    expect(maxCurvature(tracks[0].xy!)).toBeLessThanOrEqual((1 / R) * 1.001);
    expect(inField(tracks, l)).toBe(true);
  });

  it('Y strip whose trunk bends at a right angle: trunk and arm in one pass round the bend', () => {
    const y = bentY();
    const tracks = passesOf(y);
    const longest = tracks.reduce((m, t) => Math.max(m, length(t.xy!)), 0);
    // trunk (about 200 m) and an arm (150 m) end to end: the trunk's bend is cut without fitting
    expect(longest).toBeGreaterThan(320);
    for (const t of tracks) expect(maxCurvature(t.xy!)).toBeLessThanOrEqual((1 / R) * 1.001);
    expect(inField(tracks, y)).toBe(true);
  });
});

describe('tours: through junctions and round holes in one pass', () => {
  it('Y strip: two arms in one pass, the third its own (no two arms continue each other within 50°)', () => {
    const tracks = passesOf(yStrip(), 24);
    expect(tracks.length).toBe(2);
  });

  it('bent strip round a hole: the stem and the whole ring in one pass, its sections off over its own work', () => {
    const rings = ringWithStem();
    const tracks = passesOf(rings);
    expect(tracks.length).toBe(1);
    const t = tracks[0];
    const area = areaOf(rings);
    const swath = activeSwath(t.xy!, t.activeRightMeters!, t.activeLeftMeters!);
    const worked = areaOf(intersectPolygons(swath, rings));
    expect(worked / area).toBeGreaterThan(0.95);
    // the active band's area (∫ width ds) is the ground worked once: coming round to where it
    // started, its sections are off (with them on, the ring's start would be worked twice)
    let band = 0;
    const l = t.activeLeftMeters!,
      r = t.activeRightMeters!,
      xy = t.xy!;
    for (let i = 1; i < l.length; i++)
      band +=
        (Math.hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]) * (l[i] - r[i] + l[i - 1] - r[i - 1])) /
        2;
    expect(band / worked).toBeLessThan(1.04);
    expect(maxCurvature(xy)).toBeLessThanOrEqual((1 / R) * 1.001);
    expect(inField(tracks, rings)).toBe(true);
  });
});

/** A route piece driving the whole pass forward. */
function pieceOf(t: Track): Extract<Piece, { kind: 'track' }> {
  const xy = t.xy!;
  return {
    kind: 'track',
    trackIndex: 0,
    line: 0,
    cell: 0,
    sx: xy[0],
    sy: xy[1],
    ex: xy[xy.length - 2],
    ey: xy[xy.length - 1],
    xy,
  };
}

/** Arc length of each point of a polyline. */
function arcLengths(xy: Float64Array): number[] {
  const out = [0];
  for (let i = 2; i < xy.length; i += 2)
    out.push(out[out.length - 1] + Math.hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]));
  return out;
}

/**
 * A pass's end pulled back to 0.1 m past its point `k` from the end, and its start pushed in to
 * 0.1 m short of its point `k` from the start, as the route does to fit a turn: the piece driven
 * up to there ends (starts) along the heading the connector leaves (arrives) with, no stub turning it.
 */
function endsMeetConnectors(t: Track, k: number): void {
  const p = pieceOf(t);
  const s = arcLengths(p.xy!);
  const end = s[s.length - 1];
  const f = pulledBackEnd(p, end - (s[s.length - 1 - k] + 0.1));
  const driven = curveBetween(p.xy!, p.sx, p.sy, f.x, f.y);
  const n = driven.length;
  expect(Math.hypot(driven[n - 2] - driven[n - 4], driven[n - 1] - driven[n - 3])).toBeGreaterThanOrEqual(0.5);
  const h = Math.atan2(driven[n - 1] - driven[n - 3], driven[n - 2] - driven[n - 4]);
  expect(Math.abs(Math.atan2(Math.sin(h - f.headingRadians), Math.cos(h - f.headingRadians)))).toBeLessThan(1e-9);
  const b = pushedInStart(p, s[k] - 0.1);
  const from = curveBetween(p.xy!, b.x, b.y, p.ex, p.ey);
  expect(Math.hypot(from[2] - from[0], from[3] - from[1])).toBeGreaterThanOrEqual(0.5);
  const hs = Math.atan2(from[3] - from[1], from[2] - from[0]);
  expect(Math.abs(Math.atan2(Math.sin(hs - b.headingRadians), Math.cos(hs - b.headingRadians)))).toBeLessThan(1e-9);
}

describe('a connector leaves a pulled-back centre-line pass end without a kink', () => {
  it('bent strip: ends pulled back to 0.1 m off a point of the pass end on the point', () => {
    const t = passesOf(lStrip())[0];
    for (const k of [5, 13, 140]) endsMeetConnectors(t, k);
  });

  it('Y strip: the same at the ends of both passes', () => {
    const tracks = passesOf(yStrip(), 24);
    expect(tracks.length).toBeGreaterThan(0);
    for (const t of tracks) for (const k of [2, 5, 60]) endsMeetConnectors(t, k);
  });
});
