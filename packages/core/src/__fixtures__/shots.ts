/** A search's shot for tests: the first of the four shortest manoeuvres (radius `R`) inside `region`. */
import type { Region } from '../geometry/region.js';
import { turnCandidates } from '../turns/index.js';
import type { Pose } from '../turns/types.js';

export const shotIn =
  (region: Region, R: number) =>
  (a: Pose, b: Pose): ArrayLike<number> | undefined => {
    for (const c of turnCandidates(a, b, { turnRadiusMeters: R }).slice(0, 4))
      if (region.containsPolyline(c.points)) return c.points;
    return undefined;
  };
