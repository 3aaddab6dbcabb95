/**
 * The union of the swaths, in two sweeps: the curved swaths (headland passes, curved tracks) first,
 * then their union with the straight ones (tracks' rectangles) — without the first union's holes
 * that no straight swath comes near.
 *
 * Cost. Adjacent headland passes are buffered one by one, so where one swath's outer edge meets the
 * next one's inner edge the outlines weave: their union has tens of thousands of hairline holes
 * (1,000 ha field, W 3 m: 26,105 rings from 255 curved passes), while the 1,955 tracks' rectangles
 * alone unite in a few hundredths of a second. One sweep of everything walks every hairline again
 * in the scanbeams the tracks fill; here the second sweep sees only the curved union's shells and
 * the holes a straight swath's box reaches, and the others are handed on as they are.
 *
 * Exactness. A hole of the curved union that no straight swath's box meets (with a margin of the
 * grid's rounding) and that holds no shell of it (an island: a shell whose box lies in the hole's)
 * is a hole of the whole union as it is: nothing of the second sweep lies in it. Left out of the
 * second sweep, the shell round it comes out filled there, and the hole, appended clockwise, takes
 * it out again (winding 1 − 1 = 0): the union's area and the ground it leaves are the same. Only
 * rounding differs: points where curved edges cross are put on the grid by the first sweep, which
 * the second does not redraw (on that field the union's area moves by square millimetres).
 */
import Flatbush from 'flatbush';
import { Clipper } from 'clipper2-ts';
import { unionPolygons } from './clipper.js';
import type { PathsD } from './clipper.js';
import { boxOf } from './nearBox.js';
import type { Box } from './nearBox.js';

/** Boxes are compared with this margin, m: the booleans round to their grid (a micrometre and coarser). */
const BOX_MARGIN_METERS = 1e-4;

/** Below this many holes in the curved union, one sweep of everything costs no more. */
const MIN_HOLES = 64;

/**
 * The union (NonZero, on a grid of `precision` decimals) of `curved` and `straight` swath rings;
 * `curvedUnion`, when given, is the union of `curved` already made (the plannings of a call share it).
 */
export function unionSwaths(curved: PathsD, straight: PathsD, precision: number, curvedUnion?: () => PathsD): PathsD {
  if (curved.length === 0 || straight.length === 0) return unionPolygons(curved.length === 0 ? straight : straight.length === 0 ? curved : [...curved, ...straight], precision);
  const uc = curvedUnion ? curvedUnion() : unionPolygons(curved, precision);
  const holes: number[] = [], shells: number[] = [];
  uc.forEach((r, i) => (Clipper.areaD(r) < 0 ? holes : shells).push(i));
  if (holes.length < MIN_HOLES || shells.length === 0) return unionPolygons([...uc, ...straight], precision);
  const straightBoxes = new Flatbush(straight.length);
  for (const r of straight) {
    const b = boxOf([r]);
    straightBoxes.add(b.minX, b.minY, b.maxX, b.maxY);
  }
  straightBoxes.finish();
  const shellBox: Box[] = shells.map((i) => boxOf([uc[i]]));
  const shellBoxes = new Flatbush(shells.length);
  for (const b of shellBox) shellBoxes.add(b.minX, b.minY, b.maxX, b.maxY);
  shellBoxes.finish();
  const swept: PathsD = shells.map((i) => uc[i]);
  const aside: PathsD = [];
  const e = BOX_MARGIN_METERS;
  for (const i of holes) {
    const h = uc[i], b = boxOf([h]);
    const reached = straightBoxes.search(b.minX - e, b.minY - e, b.maxX + e, b.maxY + e).length > 0;
    const island = !reached && shellBoxes.search(b.minX, b.minY, b.maxX, b.maxY, (k) => {
      const s = shellBox[k];
      return s.minX >= b.minX - e && s.maxX <= b.maxX + e && s.minY >= b.minY - e && s.maxY <= b.maxY + e;
    }).length > 0;
    (reached || island ? swept : aside).push(h);
  }
  for (const r of straight) swept.push(r);
  const out = unionPolygons(swept, precision);
  for (const h of aside) out.push(h);
  return out;
}
