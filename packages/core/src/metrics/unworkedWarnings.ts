/**
 * The plan's `unworked-area` warnings: every patch the route leaves unworked that is over 1 % of
 * the field or over 100 m² (geometry/unworked.ts `patchThreshold`), with its area and a point
 * inside it, largest first. At most `MAX_LISTED` are listed one by one; the rest are summed up in
 * one more warning.
 */
import { patchThreshold, unworkedPatches } from '../geometry/unworked.js';
import type { SwathPass } from '../geometry/unworked.js';
import type { SweptPasses } from '../geometry/computeCoverage.js';
import type { PathsD } from '../geometry/clipper.js';
import type { PlanWarning, Position } from '../types.js';

export const MAX_LISTED_PATCHES = 100;

export function unworkedWarnings(
  workable: PathsD,
  passes: SwathPass[] | SweptPasses,
  fieldAreaSquareMeters: number,
  toLonLat: (x: number, y: number) => Position,
): PlanWarning[] {
  const patches = unworkedPatches(workable, passes, patchThreshold(fieldAreaSquareMeters));
  const out: PlanWarning[] = [];
  const share = (a: number): string =>
    fieldAreaSquareMeters > 0 ? ((100 * a) / fieldAreaSquareMeters).toFixed(1) : '0';
  for (const p of patches.slice(0, MAX_LISTED_PATCHES)) {
    const at = toLonLat(p.x, p.y);
    const where: Position = [Math.round(at[0] * 1e7) / 1e7, Math.round(at[1] * 1e7) / 1e7];
    out.push({
      code: 'unworked-area',
      message:
        `${Math.round(p.areaSquareMeters)} m² (${share(p.areaSquareMeters)} % of the field) is left ` +
        `unworked around ${where[0]}, ${where[1]} (lon, lat): no pass of the machine reaches it`,
      geometry: { type: 'Point', coordinates: where },
      areaSquareMeters: Math.round(p.areaSquareMeters * 10) / 10,
    } as PlanWarning);
  }
  const rest = patches.slice(MAX_LISTED_PATCHES);
  if (rest.length > 0) {
    const a = rest.reduce((s, p) => s + p.areaSquareMeters, 0);
    out.push({
      code: 'unworked-area',
      message:
        `${rest.length} more unworked patches (${Math.round(a)} m², ${share(a)} % of the field), each ` +
        `smaller than those listed`,
    });
  }
  return out;
}
