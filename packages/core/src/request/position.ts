/** The one test of a [lon, lat] position a request gives (gates, start points, depots). */
import type { Position } from '../types.js';

/**
 * Whether `p` is a [lon, lat] position in degrees: an array of finite numbers, lon within ±180 and lat within
 * ±90; of exactly two numbers with `exactly2` (an elevation or more allowed otherwise, as GeoJSON allows).
 */
export function isLonLat(p: unknown, exactly2 = false): p is Position {
  return (
    Array.isArray(p) &&
    (exactly2 ? p.length === 2 : p.length >= 2) &&
    typeof p[0] === 'number' &&
    typeof p[1] === 'number' &&
    Number.isFinite(p[0]) &&
    Number.isFinite(p[1]) &&
    Math.abs(p[0]) <= 180 &&
    Math.abs(p[1]) <= 90
  );
}

/** Whether `p` is an array of two or more finite numbers (the shape of a position, whatever its range). */
export function isPositionShape(p: unknown): p is number[] {
  return (
    Array.isArray(p) &&
    p.length >= 2 &&
    typeof p[0] === 'number' &&
    typeof p[1] === 'number' &&
    Number.isFinite(p[0]) &&
    Number.isFinite(p[1])
  );
}
