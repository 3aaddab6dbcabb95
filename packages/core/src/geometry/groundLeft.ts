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
import { differenceGrouped } from './clipper.js';
import type { PathsD } from './clipper.js';
import { holesApart } from './unionHoles.js';
import { crossesRayRight } from './pointInRing.js';

/**
 * `ground − union` grouped (`differenceGrouped` at `precision`), `union` a union's output (shells
 * counter-clockwise, holes clockwise, properly nested, on the grid of `precision`).
 */
export function groundLeft(ground: PathsD, union: PathsD, precision: number): PathsD[] {
  let edges = 0;
  for (const r of ground) edges += r.length;
  if (edges === 0) return differenceGrouped(ground, union, precision);
  // the ground's edges, indexed when the holes are looked at (a union with few holes is swept whole)
  let index: GroundEdges | undefined;
  const groundEdges = (): GroundEdges => (index ??= groundEdgesOf(ground, edges));
  // the holes near an edge of the ground (or that may hold an island) go to the sweep
  const split = holesApart(union, (x0, y0, x1, y1) => groundEdges().boxes.search(x0, y0, x1, y1).length > 0);
  if (!split) return differenceGrouped(ground, union, precision);
  const out = differenceGrouped(ground, split.swept, precision);
  // a hole apart lies inside the ground or outside it (which leaves nothing of it)
  for (const h of split.apart) if (groundEdges().inside(h[0].x, h[0].y)) out.push([h.slice().reverse()]);
  return out;
}

interface GroundEdges {
  boxes: Flatbush;
  /** Inside the ground (even-odd over its rings: a clean polygon set), on the edges the ray to +x may cross. */
  inside: (x: number, y: number) => boolean;
}

function groundEdgesOf(ground: PathsD, edges: number): GroundEdges {
  const boxes = new Flatbush(edges),
    ends: { x: number; y: number }[] = [];
  let maxX = -Infinity;
  for (const r of ground) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      boxes.add(Math.min(r[i].x, r[j].x), Math.min(r[i].y, r[j].y), Math.max(r[i].x, r[j].x), Math.max(r[i].y, r[j].y));
      ends.push(r[i], r[j]);
      if (r[i].x > maxX) maxX = r[i].x;
    }
  }
  boxes.finish();
  const inside = (x: number, y: number): boolean => {
    let odd = false;
    for (const k of boxes.search(x, y, maxX, y))
      if (crossesRayRight(x, y, ends[2 * k].x, ends[2 * k].y, ends[2 * k + 1].x, ends[2 * k + 1].y)) odd = !odd;
    return odd;
  };
  return { boxes, inside };
}
