/**
 * `accessPoints`: the field's gates, [lon, lat] each, where the machine enters and leaves it.
 * Transit legs between zones and the route's start and end use them (`route/zones.ts`).
 */
import { PlanError } from '../errors.js';
import type { Position } from '../types.js';
import { isLonLat, isPositionShape } from './position.js';

/** More gates than a field has: keeps the request bounded. */
export const MAX_ACCESS_POINTS = 100;

function fail(path: string, message: string): never {
  throw new PlanError('invalid-request', `${path}: ${message}`, [{ path, message }]);
}

/** The request's `accessPoints`, validated (an empty list when absent). */
export function readAccessPoints(req: Record<string, unknown>): Position[] {
  const v = req.accessPoints;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail('accessPoints', 'must be an array of [lon, lat] positions');
  if (v.length > MAX_ACCESS_POINTS)
    fail('accessPoints', `has ${v.length} positions; at most ${MAX_ACCESS_POINTS} are accepted`);
  return v.map((p, i) => {
    if (!isPositionShape(p)) fail(`accessPoints[${i}]`, 'must be a [lon, lat] position');
    const [lon, lat] = p;
    if (!isLonLat(p))
      fail(`accessPoints[${i}]`, `[${lon}, ${lat}] is not a [lon, lat] position (is the order [lon, lat]?)`);
    return [lon, lat] as Position;
  });
}
