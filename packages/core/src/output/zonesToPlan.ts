/** The route's zones (`zones.ts`) in the plan's terms: lon/lat, sequences; each route piece names its zone. */
import type { LocalFrame } from '../geometry/projection.js';
import type { PlanZone, RouteSegment } from '../types.js';
import type { LocalZone } from '../route/zones.js';

const round2 = (v: number): number => Math.round(v * 100) / 100;

export function zonesToPlan(zones: LocalZone[], route: RouteSegment[], frame: LocalFrame): PlanZone[] {
  const lonLat = (p: { x: number; y: number }): [number, number] => {
    const [lon, lat] = frame.toLonLat(p.x, p.y);
    return [lon, lat];
  };
  for (const z of zones) for (let k = z.first; k <= z.last; k++) route[k].zone = z.index;
  for (let k = 0; k < route.length; k++) {
    if (route[k].zone !== undefined) continue;
    const before = zones.filter((z) => z.last < k).pop(),
      after = zones.find((z) => z.first > k);
    if (before) route[k].fromZone = before.index;
    if (after) route[k].toZone = after.index;
  }
  return zones.map((z) => ({
    index: z.index,
    firstSequence: z.first,
    lastSequence: z.last,
    start: lonLat(z.start),
    end: lonLat(z.end),
    workingDistanceMeters: round2(z.workingMeters),
    ...(z.entry ? { entryAccessPoint: z.entry.accessPoint, entryAccessPointMeters: round2(z.entry.meters) } : {}),
    ...(z.exit ? { exitAccessPoint: z.exit.accessPoint, exitAccessPointMeters: round2(z.exit.meters) } : {}),
  }));
}
