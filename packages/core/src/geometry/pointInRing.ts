/**
 * Point in ring (even-odd) on robust-predicates' exact orientation: an edge counts when it
 * crosses the horizontal line through the point half-open (one end strictly above, the other at
 * or below) and lies on the side of the point the ray goes to. A point on an edge counts for
 * neither side of it.
 */
import { orient2d } from 'robust-predicates';

/** Whether edge (ax, ay)–(bx, by) crosses the ray from (x, y) towards +x. */
export function crossesRayRight(x: number, y: number, ax: number, ay: number, bx: number, by: number): boolean {
  if (ay > y === by > y) return false;
  const o = orient2d(ax, ay, bx, by, x, y);
  // orient2d < 0: (x, y) lies left of a→b; an upward edge then passes to its right.
  return by > ay ? o < 0 : o > 0;
}

/** Whether edge (ax, ay)–(bx, by) crosses the ray from (x, y) towards −x. */
export function crossesRayLeft(x: number, y: number, ax: number, ay: number, bx: number, by: number): boolean {
  if (ay > y === by > y) return false;
  const o = orient2d(ax, ay, bx, by, x, y);
  return by > ay ? o > 0 : o < 0;
}

/** Whether (x, y) lies inside the ring (even-odd; a point on the ring may fall either way). */
export function pointInRing(x: number, y: number, ring: readonly { x: number; y: number }[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i],
      b = ring[j];
    if (crossesRayRight(x, y, a.x, a.y, b.x, b.y)) inside = !inside;
  }
  return inside;
}

/** Whether (x, y) lies inside the rings together (even-odd over all of them), rings as flat xy. */
export function pointInFlatRings(x: number, y: number, rings: readonly ArrayLike<number>[]): boolean {
  let inside = false;
  for (const ring of rings) {
    const n = ring.length >> 1;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      if (crossesRayRight(x, y, ring[2 * i], ring[2 * i + 1], ring[2 * j], ring[2 * j + 1])) inside = !inside;
    }
  }
  return inside;
}
