/**
 * Turn-only headlands (`headland.mode: 'turnOnly'`): headland passes only where the tracks
 * end, so the machine has room to turn there, while the sides the tracks run along are worked
 * by the tracks up to the boundary.
 *
 * Where tracks end is a property of the heading: a point of the field is in the turning band
 * when the track line through it leaves the field within `s` along the track direction u. Each
 * boundary edge (shell and holes) is swept along ±u by s = min(D / sin φ, 2D), D = passes × w,
 * φ = the angle between the edge and u: an edge the tracks run into (φ ≥ 30°) gets a band of the
 * full depth D measured square to it, like a full headland; an edge at a shallow angle gets a
 * band that thins out with sin φ, and an edge parallel to the tracks (a side) none. Every track
 * end therefore keeps at least D of room ahead of it. The mainland is the field minus the band.
 *
 * The passes are the band's own headland: each piece of the band (one per field end, one per end
 * of a hole) is worked by closed rings at (k − ½)·w inside it, k = 1 … ⌈N/2⌉. With the band N·w
 * deep, ring k runs along the boundary as pass k and comes back along the mainland's edge as pass
 * N + 1 − k, joined across the band's two ends (at w/2 from the sides): two passes per loop,
 * entered and left like any closed pass, the band's corners worked. With N odd the innermost
 * ring is set at (N/2 − ¼)·w: a loop w/2 wide that works the middle pass twice (overlap).
 */
import {
  areaOf,
  differencePolygons,
  groupPolygons,
  intersectPolygons,
  offsetPolygons,
  unionPolygons,
} from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import type { HeadlandPass, Headlands } from './generateHeadlands.js';
import { passableCore } from './generateHeadlands.js';
import { offsetMitred } from './corners.js';
import { segmentDistance } from '../geometry/region.js';
import { hypot } from '../geometry/vec.js';

/** Working passes need no fine arcs (1 cm from the true circle). */
const PASS_ARC_TOLERANCE_METERS = 0.01;
/** Edges closer than this to parallel with the tracks (sin φ) are sides: no band. */
const SIDE_SIN = 1e-3;

/** The turning band at the track ends for tracks along `directionRadians`, `depthMeters` deep (local frame). */
export function turnOnlyBand(field: PathsD, directionRadians: number, depthMeters: number): PathsD {
  const ux = Math.cos(directionRadians),
    uy = Math.sin(directionRadians);
  const quads: PathsD = [];
  for (const ring of field) {
    const n = ring.length;
    for (let i = 0; i < n; i++) {
      const a = ring[i],
        b = ring[(i + 1) % n];
      const ex = b.x - a.x,
        ey = b.y - a.y;
      const len = hypot(ex, ey);
      if (len === 0) continue;
      const sin = Math.abs(ex * uy - ey * ux) / len;
      if (sin < SIDE_SIN) continue;
      const s = Math.min(depthMeters / sin, 2 * depthMeters);
      const dx = s * ux,
        dy = s * uy;
      const q: PathD = [
        { x: a.x - dx, y: a.y - dy },
        { x: b.x - dx, y: b.y - dy },
        { x: b.x + dx, y: b.y + dy },
        { x: a.x + dx, y: a.y + dy },
      ];
      if (areaOf([q]) < 0) q.reverse();
      quads.push(q);
    }
  }
  if (quads.length === 0) return [];
  return intersectPolygons(field, unionPolygons(quads));
}

/** Distance from (x, y) to the nearest edge of a ring. */
function ringDistance(ring: { x: number; y: number }[], x: number, y: number): number {
  let best = Infinity;
  for (let i = 0, n = ring.length; i < n; i++) {
    const a = ring[i],
      b = ring[(i + 1) % n];
    best = Math.min(best, segmentDistance(x, y, a.x, a.y, b.x, b.y));
  }
  return best;
}

/**
 * Headland passes only where the tracks along `directionRadians` end (closed rings round each
 * piece of the turning band), and the mainland that reaches the boundary elsewhere. With a
 * corner style the rings are offset with mitred joins (headland/corners.ts shapes them after).
 */
export function generateTurnOnlyHeadlands(
  field: PathsD,
  passCount: number,
  widthMeters: number,
  directionRadians: number,
  corners?: 'rounded' | 'square',
): Headlands {
  const w = widthMeters;
  const core = passableCore(field, w);
  if (passCount <= 0) return { passes: [], mainland: core };
  const band = turnOnlyBand(field, directionRadians, passCount * w);
  // The mainland reaches the boundary along the sides, but not into corridors narrower than w.
  const mainland = band.length > 0 ? differencePolygons(core, band) : core;
  const passes: HeadlandPass[] = [];
  if (band.length === 0) return { passes, mainland };
  const holes = field.filter((r) => areaOf([r]) < 0);
  const shells = field.filter((r) => areaOf([r]) > 0);
  const loops = Math.ceil(passCount / 2);
  for (const piece of groupPolygons(band)) {
    // A piece at the end of a hole is an interior headland: its outer ring lies nearer a hole than the boundary.
    const p0 = piece[0][0];
    const dHole = Math.min(Infinity, ...holes.map((h) => ringDistance(h, p0.x, p0.y)));
    const dShell = Math.min(Infinity, ...shells.map((s) => ringDistance(s, p0.x, p0.y)));
    const type = dHole < dShell ? 'InteriorHeadland' : 'ExteriorHeadland';
    for (let k = 1; k <= loops; k++) {
      const d = passCount % 2 === 1 && k === loops ? (passCount / 2 - 0.25) * w : (k - 0.5) * w;
      const rings = corners ? offsetMitred(piece, -d) : offsetPolygons(piece, -d, PASS_ARC_TOLERANCE_METERS);
      for (const ring of rings) {
        if (ring.length < 3) continue;
        const a = areaOf([ring]);
        if (Math.abs(a) < w * w * 0.25) continue;
        passes.push({ type, passIndex: k, ring });
      }
    }
  }
  return { passes, mainland, band };
}
