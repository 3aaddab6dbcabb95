/**
 * What of the workable ground a union of swaths leaves: `ground − union`, one entry per polygon
 * (shell first), as `differenceGrouped` gives it, without sweeping the union's inner holes.
 *
 * Cost. Adjacent headland passes are buffered one by one, so where one swath's outer edge meets the
 * next one's inner edge the two outlines weave: the union has tens of thousands of hairline holes
 * between them (1,000 ha field, W 3 m: 29,373 holes against 15 shells), every one a polygon the
 * difference's sweep walks again. A hole of the union that lies strictly inside the ground — no edge
 * of the ground near its box, a vertex of it inside the ground — and holds no piece of the union is
 * itself a piece of `ground − union`: it is handed on as it is (turned counter-clockwise), and the
 * difference sweeps only the union's shells and the other holes. Removing such a hole from the union
 * covers only its own inside (winding 0 → 1: no island in it), so the sweep does not list it again.
 * (Swept again, the holes' rounded vertices meet their neighbours' anew and the sweep re-rounds a few
 * of them: on that field the uncovered area moves by 0.01 m² of 14,878, the hairlines as the union
 * drew them against as the second sweep redraws them.)
 */
import Flatbush from 'flatbush';
import { Clipper } from 'clipper2-ts';
import { differenceGrouped } from './clipper.js';
import type { PathsD } from './clipper.js';
import { boxOf } from './nearBox.js';
import { crossesRayRight } from './pointInRing.js';

/** Boxes are compared with this margin, m: the booleans round to their grid (a micrometre and coarser). */
const BOX_MARGIN_METERS = 1e-4;

/**
 * `ground − union` grouped (`differenceGrouped` at `precision`), `union` a union's output (shells
 * counter-clockwise, holes clockwise, properly nested, on the grid of `precision`).
 */
export function groundLeft(ground: PathsD, union: PathsD, precision: number): PathsD[] {
  const holes: number[] = [], shells: number[] = [];
  union.forEach((r, i) => (Clipper.areaD(r) < 0 ? holes : shells).push(i));
  let edges = 0;
  for (const r of ground) edges += r.length;
  if (holes.length < 64 || shells.length === 0 || edges === 0) return differenceGrouped(ground, union, precision);
  const groundEdges = new Flatbush(edges), ends: { x: number; y: number }[] = [];
  let maxX = -Infinity;
  for (const r of ground) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      groundEdges.add(Math.min(r[i].x, r[j].x), Math.min(r[i].y, r[j].y), Math.max(r[i].x, r[j].x), Math.max(r[i].y, r[j].y));
      ends.push(r[i], r[j]);
      if (r[i].x > maxX) maxX = r[i].x;
    }
  }
  groundEdges.finish();
  // inside the ground (even-odd over its rings: a clean polygon set), on the edges the ray to +x may cross
  const insideGround = (x: number, y: number): boolean => {
    let inside = false;
    for (const k of groundEdges.search(x, y, maxX, y)) if (crossesRayRight(x, y, ends[2 * k].x, ends[2 * k].y, ends[2 * k + 1].x, ends[2 * k + 1].y)) inside = !inside;
    return inside;
  };
  const shellBoxes = new Flatbush(shells.length);
  const shellBox = shells.map((i) => boxOf([union[i]]));
  for (const b of shellBox) shellBoxes.add(b.minX, b.minY, b.maxX, b.maxY);
  shellBoxes.finish();
  const swept: PathsD = shells.map((i) => union[i]);
  const inside: PathsD[] = [];
  const e = BOX_MARGIN_METERS;
  for (const i of holes) {
    const h = union[i], b = boxOf([h]);
    const nearGround = groundEdges.search(b.minX - e, b.minY - e, b.maxX + e, b.maxY + e).length > 0;
    // a shell whose box lies in the hole's may be an island in it: such a hole goes to the sweep
    const island = !nearGround && shellBoxes.search(b.minX, b.minY, b.maxX, b.maxY, (k) => {
      const s = shellBox[k];
      return s.minX >= b.minX - e && s.maxX <= b.maxX + e && s.minY >= b.minY - e && s.maxY <= b.maxY + e;
    }).length > 0;
    if (nearGround || island) swept.push(h);
    else if (insideGround(h[0].x, h[0].y)) inside.push([h.slice().reverse()]);
    // else: the hole lies outside the ground, and leaves nothing of it
  }
  const out = differenceGrouped(ground, swept, precision);
  for (const p of inside) out.push(p);
  return out;
}
