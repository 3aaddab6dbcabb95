/**
 * Length of a polyline lying more than `toleranceMeters` outside a region (outside its shells or
 * inside its holes), measured on sub-steps of at most 0.25 m where an edge crosses the boundary.
 */
import type { Region } from './region.js';
import { hypot } from './vec.js';

export function outsideLength(region: Region, xy: ArrayLike<number>, toleranceMeters: number, also?: Region): number {
  // Wholly inside (no boundary crossed, the start inside; one index query per run of points): nothing outside.
  if (!also && region.containsPolyline(xy)) return 0;
  const off = (x: number, y: number): boolean =>
    (!region.contains(x, y) && region.distanceToEdge(x, y) > toleranceMeters) ||
    (also !== undefined && also.contains(x, y) && also.distanceToEdge(x, y) > toleranceMeters);
  let meters = 0;
  // Consecutive edges crossing no boundary lie on the same side of it: once one of them is found
  // inside the region (and outside `also`), the rest of the run is too.
  let runInside = false;
  for (let i = 2; i + 1 < xy.length; i += 2) {
    const ax = xy[i - 2],
      ay = xy[i - 1],
      bx = xy[i],
      by = xy[i + 1];
    const l = hypot(bx - ax, by - ay);
    if (l === 0) continue;
    const clear = region.segmentClear(ax, ay, bx, by) && (!also || also.segmentClear(ax, ay, bx, by));
    if (!clear) runInside = false;
    else if (runInside) continue;
    // An edge crossing no boundary is wholly in or wholly out: its midpoint tells.
    const n = clear ? 1 : Math.max(1, Math.ceil(l / Math.max(0.25, l / 4000)));
    for (let k = 0; k < n; k++) {
      const t = (k + 0.5) / n;
      const mx = ax + (bx - ax) * t,
        my = ay + (by - ay) * t;
      if (off(mx, my)) meters += l / n;
      else if (clear) runInside = region.contains(mx, my) && (!also || !also.contains(mx, my));
    }
  }
  return meters;
}
