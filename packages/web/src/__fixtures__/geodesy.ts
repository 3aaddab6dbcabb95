/** Measures for the web tests, independent of the app's own (route.ts's equirectangular distance). */
import type { Position } from '../app/geo.js';

/** Great-circle distance (haversine), meters. */
export function haversineMeters(a: Position, b: Position): number {
  const r = Math.PI / 180;
  const dLat = (b[1] - a[1]) * r;
  const dLon = (b[0] - a[0]) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * r) * Math.cos(b[1] * r) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}

/** The point `share` of the way along a polyline by haversine length. */
export function alongLine(line: Position[], share: number): Position {
  const lengths = line.slice(1).map((p, i) => haversineMeters(line[i], p));
  let left = share * lengths.reduce((s, d) => s + d, 0);
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i] || i === lengths.length - 1) {
      const u = lengths[i] > 0 ? Math.min(1, left / lengths[i]) : 1;
      return [line[i][0] + (line[i + 1][0] - line[i][0]) * u, line[i][1] + (line[i + 1][1] - line[i][1]) * u];
    }
    left -= lengths[i];
  }
  return line[line.length - 1];
}
