/**
 * A polygon set cut down to what matters near a box, for clipping it against a small shape in that
 * box: the shape's intersection with the result is the intersection with the whole set, edge for
 * edge (every edge that comes within `marginMeters` of the box is kept as it is, its ends the
 * same doubles), while the rest of the set — thousands of vertices of a field's boundary far from
 * a cell — collapses onto a frame round the box. A boolean operation then sweeps a few dozen
 * vertices instead of the whole boundary.
 *
 * Why the intersection stays the same: an edge that misses the box grown by the margin (E) lies
 * wholly in one of the four half-planes beyond E's sides. Clamping its ends onto the frame F (E grown
 * by the margin again) keeps each end in that half-plane, so the clamped path is a deformation of
 * the ring that never crosses E: inside E every ring winds as before. Clamped vertices in a row on
 * one side of F are dropped (the path runs along that side, still outside E); a ring with no edge
 * near E becomes F itself as often as it winds round E (a field's outer ring round a cell), or
 * nothing.
 */
import { Clipper } from 'clipper2-ts';
import type { PathD, PathsD } from './clipper.js';

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The bounding box of some rings (Clipper's bounds, as a Box). */
export function boxOf(rings: PathsD): Box {
  const r = Clipper.getBoundsPathsD(rings);
  return { minX: r.left, minY: r.top, maxX: r.right, maxY: r.bottom };
}

function grown(b: Box, d: number): Box {
  return { minX: b.minX - d, minY: b.minY - d, maxX: b.maxX + d, maxY: b.maxY + d };
}

/** Winding number of a ring round a point (counter-clockwise positive). */
function windingRound(ring: PathD, x: number, y: number): number {
  let w = 0;
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) {
    const a = ring[j],
      b = ring[i];
    if (a.y <= y) {
      if (b.y > y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) > 0) w++;
    } else if (b.y <= y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) < 0) w--;
  }
  return w;
}

/** `paths` cut down to what matters within `box` (see above); `marginMeters` > 0. */
export function nearBox(paths: PathsD, box: Box, marginMeters: number): PathsD {
  const e = grown(box, marginMeters),
    f = grown(box, 2 * marginMeters);
  const frame = (ccw: boolean): PathD => {
    const r = [
      { x: f.minX, y: f.minY },
      { x: f.maxX, y: f.minY },
      { x: f.maxX, y: f.maxY },
      { x: f.minX, y: f.maxY },
    ];
    return ccw ? r : r.reverse();
  };
  const out: PathsD = [];
  for (const ring of paths) {
    const n = ring.length;
    if (n === 0) continue;
    const near = new Uint8Array(n); // edge i: ring[i] → ring[i + 1]
    let anyNear = false;
    for (let i = 0; i < n; i++) {
      const a = ring[i],
        b = ring[i + 1 === n ? 0 : i + 1];
      if (
        Math.max(a.x, b.x) < e.minX ||
        Math.min(a.x, b.x) > e.maxX ||
        Math.max(a.y, b.y) < e.minY ||
        Math.min(a.y, b.y) > e.maxY
      )
        continue;
      near[i] = 1;
      anyNear = true;
    }
    if (!anyNear) {
      const w = windingRound(ring, (e.minX + e.maxX) / 2, (e.minY + e.maxY) / 2);
      for (let k = 0; k < Math.abs(w); k++) out.push(frame(w > 0));
      continue;
    }
    const kept: PathD = [];
    const onSide: boolean[] = [];
    for (let i = 0; i < n; i++) {
      const p = ring[i];
      if (near[i] || near[i === 0 ? n - 1 : i - 1]) {
        kept.push(p);
        onSide.push(false);
        continue;
      }
      const q = { x: Math.min(Math.max(p.x, f.minX), f.maxX), y: Math.min(Math.max(p.y, f.minY), f.maxY) };
      const k = kept.length;
      // Two clamped vertices before it on the same side of the frame: the middle one goes.
      if (k >= 2 && onSide[k - 1] && onSide[k - 2] && sameSide(kept[k - 2], kept[k - 1], q, f)) {
        kept[k - 1] = q;
        continue;
      }
      if (k >= 1 && onSide[k - 1] && kept[k - 1].x === q.x && kept[k - 1].y === q.y) continue;
      kept.push(q);
      onSide.push(q.x === f.minX || q.x === f.maxX || q.y === f.minY || q.y === f.maxY);
    }
    out.push(kept);
  }
  return out;
}

function sameSide(
  a: { x: number; y: number },
  b: { x: number; y: number },
  c: { x: number; y: number },
  f: Box,
): boolean {
  return (
    (a.x === f.minX && b.x === f.minX && c.x === f.minX) ||
    (a.x === f.maxX && b.x === f.maxX && c.x === f.maxX) ||
    (a.y === f.minY && b.y === f.minY && c.y === f.minY) ||
    (a.y === f.maxY && b.y === f.maxY && c.y === f.maxY)
  );
}
