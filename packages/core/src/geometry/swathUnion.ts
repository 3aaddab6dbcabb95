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
import { unionPolygons } from './clipper.js';
import type { PathsD } from './clipper.js';
import { boxOf } from './nearBox.js';
import { holesApart } from './unionHoles.js';

/**
 * The union (NonZero, on a grid of `precision` decimals) of the curved swaths — `curvedUnion`, their
 * union (the plannings of a call share it: geometry/swaths.ts `curvedUnionOnce`) — and the `straight`
 * swath rings.
 */
export function unionSwaths(curvedUnion: () => PathsD, straight: PathsD, precision: number): PathsD {
  const uc = curvedUnion();
  if (straight.length === 0) return uc;
  if (uc.length === 0) return unionPolygons(straight, precision);
  // the holes a straight swath's box reaches (or that may hold an island) go to the sweep; the boxes indexed when the
  // holes are looked at
  let straightBoxes: Flatbush | undefined;
  const split = holesApart(
    uc,
    (x0, y0, x1, y1) => (straightBoxes ??= boxesOf(straight)).search(x0, y0, x1, y1).length > 0,
  );
  if (!split) return unionPolygons([...uc, ...straight], precision);
  const out = unionPolygons([...split.swept, ...straight], precision);
  for (const h of split.apart) out.push(h);
  return out;
}

function boxesOf(rings: PathsD): Flatbush {
  const index = new Flatbush(rings.length);
  for (const r of rings) {
    const b = boxOf([r]);
    index.add(b.minX, b.minY, b.maxX, b.maxY);
  }
  index.finish();
  return index;
}
