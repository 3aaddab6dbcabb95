/**
 * Input hygiene: rings as digitised by hand or exported from GIS carry repeated
 * points, spikes (a vertex that runs out and straight back), collinear runs and hairline
 * slivers. `cleanRing` removes them within a tolerance in meters, in the local frame, before
 * the boundary is checked for self-intersection: a spike would otherwise be rejected as a
 * ring folding back over itself, and a 1 mm zig-zag would make headland offsets jitter.
 *
 * Every kept vertex remembers its index in the input ring (`source`), so errors found
 * afterwards still name the position the caller sent.
 */
import type { PathD } from './clipper.js';
import { hypot } from './vec.js';
import { segmentDistance } from './region.js';

/**
 * Default tolerance: points closer than 1 cm are one point; a vertex within 1 cm of its neighbours' chord is dropped.
 */
export const CLEAN_TOLERANCE_METERS = 0.01;

export interface CleanedRing {
  ring: PathD;
  /** Index in the input ring of every kept vertex. */
  source: number[];
  /** What was removed, for diagnostics. */
  removed: { duplicates: number; spikes: number; collinear: number };
}

/** Longest run of vertices one collinear drop may replace (keeps the pass O(n) and the drift bounded). */
const MAX_RUN = 64;

/**
 * Cleans one closed ring (first point not repeated) within `toleranceMeters`:
 * - duplicates: consecutive points closer than the tolerance are merged (the first kept);
 * - spikes: a vertex B whose neighbours A and C lie on the same side, folded back so that
 *   A lies within the tolerance of the line B→C (or C of A→B) and the angle at B is under
 *   1°: the excursion has no area and is removed;
 * - collinear runs: a vertex within the tolerance of the chord between its kept neighbour
 *   and the next vertex (and every vertex dropped since then within it too) is removed.
 * Passes repeat until nothing changes (at most 8). May return fewer than 3 vertices: the
 * caller decides (the ring had no area).
 */
export function cleanRing(input: PathD, toleranceMeters: number = CLEAN_TOLERANCE_METERS): CleanedRing {
  const tol = toleranceMeters;
  const removed = { duplicates: 0, spikes: 0, collinear: 0 };
  let r = withoutDuplicates(input, tol, removed);
  const sinMaxSpike = Math.sin(Math.PI / 180);
  for (let pass = 0; pass < 8 && r.xs.length >= 3; pass++) {
    const spikes = withoutSpikes(r, tol, sinMaxSpike, removed);
    r = spikes.ring;
    if (r.xs.length < 3) break;
    const collinear = withoutCollinear(r, tol, removed);
    r = collinear.ring;
    if (!spikes.changed && !collinear.changed) break;
  }
  const { xs, ys, src } = r;
  const ring: PathD = xs.map((x, i) => ({ x, y: ys[i] }));
  return { ring, source: src, removed };
}

/** A ring as parallel arrays: its vertices and the input index each came from. */
interface RingArrays {
  xs: number[];
  ys: number[];
  src: number[];
}
type Removed = CleanedRing['removed'];

/** Duplicates (including the ring's last point equal to its first) dropped. */
function withoutDuplicates(input: PathD, tol: number, removed: Removed): RingArrays {
  const xs: number[] = [],
    ys: number[] = [],
    src: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const p = input[i];
    const n = xs.length;
    if (
      n > 0 &&
      Math.abs(p.x - xs[n - 1]) <= tol &&
      Math.abs(p.y - ys[n - 1]) <= tol &&
      hypot(p.x - xs[n - 1], p.y - ys[n - 1]) <= tol
    ) {
      removed.duplicates++;
      continue;
    }
    xs.push(p.x);
    ys.push(p.y);
    src.push(i);
  }
  while (xs.length > 1 && hypot(xs[0] - xs[xs.length - 1], ys[0] - ys[ys.length - 1]) <= tol) {
    xs.pop();
    ys.pop();
    src.pop();
    removed.duplicates++;
  }
  return { xs, ys, src };
}

/** One pass over the ring dropping spikes (and the duplicates their removal creates), wrap-around included. */
function withoutSpikes(
  r: RingArrays,
  tol: number,
  sinMaxSpike: number,
  removed: Removed,
): { ring: RingArrays; changed: boolean } {
  const { xs, ys, src } = r;
  let changed = false;
  // Spikes and duplicates created by removals: a stack walk, so a removal re-checks the previous vertex.
  const kx: number[] = [],
    ky: number[] = [],
    ks: number[] = [];
  const n = xs.length;
  for (let i = 0; i < n; i++) {
    kx.push(xs[i]);
    ky.push(ys[i]);
    ks.push(src[i]);
    while (kx.length >= 3) {
      const m = kx.length;
      const ax = kx[m - 3],
        ay = ky[m - 3],
        bx = kx[m - 2],
        by = ky[m - 2],
        cx = kx[m - 1],
        cy = ky[m - 1];
      if (isSpike(ax, ay, bx, by, cx, cy, tol, sinMaxSpike)) {
        kx.splice(m - 2, 1);
        ky.splice(m - 2, 1);
        ks.splice(m - 2, 1);
        removed.spikes++;
        changed = true;
        // A and C may now coincide.
        const q = kx.length;
        if (hypot(kx[q - 1] - kx[q - 2], ky[q - 1] - ky[q - 2]) <= tol) {
          kx.pop();
          ky.pop();
          ks.pop();
          removed.duplicates++;
        }
        continue;
      }
      break;
    }
  }
  // Wrap-around: the ring's first and last vertices are neighbours too.
  for (let guard = 0; guard < 4 && kx.length >= 3; guard++) {
    const m = kx.length;
    if (isSpike(kx[m - 1], ky[m - 1], kx[0], ky[0], kx[1], ky[1], tol, sinMaxSpike)) {
      kx.shift();
      ky.shift();
      ks.shift();
      removed.spikes++;
      changed = true;
    } else if (isSpike(kx[m - 2], ky[m - 2], kx[m - 1], ky[m - 1], kx[0], ky[0], tol, sinMaxSpike)) {
      kx.pop();
      ky.pop();
      ks.pop();
      removed.spikes++;
      changed = true;
    } else break;
  }
  return { ring: { xs: kx, ys: ky, src: ks }, changed };
}

/** Collinear runs: keep an anchor, drop vertices while the whole dropped run stays within tol of the chord. */
function withoutCollinear(r: RingArrays, tol: number, removed: Removed): { ring: RingArrays; changed: boolean } {
  const { xs, ys, src } = r;
  let changed = false;
  const cx: number[] = [xs[0]],
    cy: number[] = [ys[0]],
    cs: number[] = [src[0]];
  let runStart = 1;
  const m = xs.length;
  for (let i = 1; i < m; i++) {
    const nx = xs[(i + 1) % m],
      ny = ys[(i + 1) % m];
    const ax = cx[cx.length - 1],
      ay = cy[cy.length - 1];
    let drop = i - runStart < MAX_RUN;
    if (drop) {
      for (let j = runStart; j <= i; j++) {
        if (segmentDistance(xs[j], ys[j], ax, ay, nx, ny) > tol) {
          drop = false;
          break;
        }
      }
    }
    // Never drop the vertex before a fold (the chord would run backwards through it).
    if (drop && (nx - ax) * (xs[i] - ax) + (ny - ay) * (ys[i] - ay) < 0) drop = false;
    if (drop) {
      removed.collinear++;
      changed = true;
      continue;
    }
    cx.push(xs[i]);
    cy.push(ys[i]);
    cs.push(src[i]);
    runStart = i + 1;
  }
  return { ring: { xs: cx, ys: cy, src: cs }, changed };
}

/** Whether B is the tip of a zero-width excursion A→B→C (C folds back over A→B within tol). */
function isSpike(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  tol: number,
  sinMax: number,
): boolean {
  const ux = ax - bx,
    uy = ay - by,
    vx = cx - bx,
    vy = cy - by;
  const lu = hypot(ux, uy),
    lv = hypot(vx, vy);
  if (lu === 0 || lv === 0) return true;
  const dot = ux * vx + uy * vy;
  if (dot <= 0) return false; // angle at B ≥ 90°: not folded back
  const cross = Math.abs(ux * vy - uy * vx);
  // The shorter leg's far end lies within tol of the longer leg, or the angle at B is under 1°.
  const short = Math.min(lu, lv);
  const offLine = cross / Math.max(lu, lv);
  return offLine <= tol || (cross / (lu * lv) < sinMax && offLine <= Math.max(tol, 0.01 * short));
}

/** Absolute area of a ring (shoelace). */
export function ringAreaAbs(ring: PathD): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += (ring[j].x - ring[i].x) * (ring[j].y + ring[i].y);
  return Math.abs(a / 2);
}

/** Perimeter of a closed ring. */
export function ringPerimeter(ring: PathD): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    s += hypot(ring[i].x - ring[j].x, ring[i].y - ring[j].y);
  return s;
}

/**
 * A sliver: a ring whose mean width (2·area ÷ perimeter) is under the tolerance, i.e. a
 * hairline of no workable area (e.g. a hole digitised as a line).
 */
export function isSliver(ring: PathD, toleranceMeters: number = CLEAN_TOLERANCE_METERS): boolean {
  if (ring.length < 3) return true;
  const p = ringPerimeter(ring);
  return p === 0 || (2 * ringAreaAbs(ring)) / p < toleranceMeters;
}
