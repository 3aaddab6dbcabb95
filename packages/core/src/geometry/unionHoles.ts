/**
 * A union's holes sorted out before a second sweep over it: the hairline holes between adjacent
 * headland passes (tens of thousands on a large field) need not be swept again where nothing of the
 * second sweep comes near them. Shared by the union with the tracks (geometry/swathUnion.ts) and the
 * ground the union leaves (geometry/groundLeft.ts).
 */
import Flatbush from 'flatbush';
import { Clipper } from 'clipper2-ts';
import type { PathsD } from './clipper.js';
import { boxOf } from './nearBox.js';

/** Boxes are compared with this margin, m: the booleans round to their grid (a micrometre and coarser). */
export const BOX_MARGIN_METERS = 1e-4;

/** Below this many holes, sweeping them all costs no more than sorting them out. */
const MIN_HOLES = 64;

/**
 * `union` (a union's output: shells counter-clockwise, holes clockwise, properly nested) split for a
 * second sweep: `swept` holds its shells and the holes that sweep must see — those `reached` says it
 * comes near (the hole's box grown by BOX_MARGIN_METERS) and those that may hold an island (a shell
 * whose box lies in the hole's); `apart` the other holes, which the sweep leaves as they are.
 * Undefined where there are fewer than MIN_HOLES holes or no shell: then everything is swept.
 */
export function holesApart(
  union: PathsD,
  reached: (minX: number, minY: number, maxX: number, maxY: number) => boolean,
): { swept: PathsD; apart: PathsD } | undefined {
  const holes: number[] = [],
    shells: number[] = [];
  union.forEach((r, i) => (Clipper.areaD(r) < 0 ? holes : shells).push(i));
  if (holes.length < MIN_HOLES || shells.length === 0) return undefined;
  const shellBox = shells.map((i) => boxOf([union[i]]));
  const shellBoxes = new Flatbush(shells.length);
  for (const b of shellBox) shellBoxes.add(b.minX, b.minY, b.maxX, b.maxY);
  shellBoxes.finish();
  const swept: PathsD = shells.map((i) => union[i]);
  const apart: PathsD = [];
  const e = BOX_MARGIN_METERS;
  for (const i of holes) {
    const h = union[i],
      b = boxOf([h]);
    const near = reached(b.minX - e, b.minY - e, b.maxX + e, b.maxY + e);
    const island =
      !near &&
      shellBoxes.search(b.minX, b.minY, b.maxX, b.maxY, (k) => {
        const s = shellBox[k];
        return s.minX >= b.minX - e && s.maxX <= b.maxX + e && s.minY >= b.minY - e && s.maxY <= b.maxY + e;
      }).length > 0;
    (near || island ? swept : apart).push(h);
  }
  return { swept, apart };
}
