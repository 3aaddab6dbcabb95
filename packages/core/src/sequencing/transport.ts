/**
 * Transport between fields: straight lines (great-circle distance times a detour factor) or a
 * supplied road matrix over listed points.
 */
import { PlanError } from '../errors.js';
import type { Position } from '../types.js';

export type TransportInput =
  | {
      mode: 'straightLine';
      /** Road distance ÷ straight-line distance (default 1). */
      detourFactor?: number;
    }
  | {
      mode: 'matrix';
      /** The places the matrix is about, [lon, lat]. */
      points: Position[];
      /** distancesMeters[i][j]: road distance from points[i] to points[j] (need not be symmetric). */
      distancesMeters: number[][];
      /** Optional road times; default distance ÷ transport speed. */
      durationsSeconds?: number[][];
      /** Depot, entries and exits are matched to the nearest listed point within this distance (default 10 m). */
      matchToleranceMeters?: number;
    };

const EARTH_RADIUS_METERS = 6_371_008.8;

/** Great-circle distance between two [lon, lat] positions, meters (spherical Earth, mean radius). */
export function haversineMeters(a: Position, b: Position): number {
  const toRad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * toRad;
  const dLon = (b[0] - a[0]) * toRad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * toRad) * Math.cos(b[1] * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(s)));
}

export interface TransportModel {
  /** Distance (m) and time (s) from one place to another. */
  leg(
    from: Position,
    to: Position,
    fromLabel: string,
    toLabel: string,
  ): { distanceMeters: number; timeSeconds: number };
}

export function transportModel(input: TransportInput | undefined, speedMetersPerSecond: number): TransportModel {
  if (!(speedMetersPerSecond > 0) || !Number.isFinite(speedMetersPerSecond)) {
    throw new PlanError('invalid-option', 'transportSpeedMetersPerSecond must be a positive number', [
      { path: 'transportSpeedMetersPerSecond', message: 'must be > 0' },
    ]);
  }
  const t = input ?? { mode: 'straightLine' };
  if (t.mode === 'straightLine') {
    const k = t.detourFactor ?? 1;
    if (!(k >= 1) || !Number.isFinite(k))
      throw new PlanError('invalid-option', 'transport.detourFactor must be a number ≥ 1', [
        { path: 'transport.detourFactor', message: 'must be ≥ 1' },
      ]);
    return {
      leg(from, to) {
        const d = haversineMeters(from, to) * k;
        return { distanceMeters: d, timeSeconds: d / speedMetersPerSecond };
      },
    };
  }
  if (t.mode !== 'matrix') {
    throw new PlanError(
      'invalid-option',
      `transport.mode "${String((t as { mode: unknown }).mode)}" is not straightLine or matrix`,
      [{ path: 'transport.mode', message: 'unknown mode' }],
    );
  }
  const n = t.points?.length ?? 0;
  if (n === 0)
    throw new PlanError('invalid-request', 'transport.points must list the matrix places', [
      { path: 'transport.points', message: 'empty' },
    ]);
  const checkMatrix = (m: number[][] | undefined, name: string): void => {
    if (!Array.isArray(m) || m.length !== n)
      throw new PlanError('invalid-request', `transport.${name} must be a ${n} × ${n} matrix`, [
        { path: `transport.${name}`, message: `needs ${n} rows` },
      ]);
    m.forEach((row, i) => {
      if (!Array.isArray(row) || row.length !== n)
        throw new PlanError('invalid-request', `transport.${name}[${i}] must have ${n} values`, [
          { path: `transport.${name}[${i}]`, message: `needs ${n} values` },
        ]);
      row.forEach((v, j) => {
        if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) {
          throw new PlanError('invalid-request', `transport.${name}[${i}][${j}] must be a finite number ≥ 0`, [
            { path: `transport.${name}[${i}][${j}]`, message: 'must be ≥ 0' },
          ]);
        }
      });
    });
  };
  checkMatrix(t.distancesMeters, 'distancesMeters');
  if (t.durationsSeconds !== undefined) checkMatrix(t.durationsSeconds, 'durationsSeconds');
  const tolerance = t.matchToleranceMeters ?? 10;
  const matched = new Map<string, number>();
  const match = (p: Position, label: string): number => {
    const key = `${p[0]},${p[1]}`;
    const known = matched.get(key);
    if (known !== undefined) return known;
    let best = -1,
      bestD = Infinity;
    for (let i = 0; i < n; i++) {
      const d = haversineMeters(p, t.points[i]);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    if (bestD > tolerance) {
      throw new PlanError(
        'invalid-request',
        `transport.points has no place within ${tolerance} m of ${label} [${p[0]}, ${p[1]}] (nearest: ` +
          `${bestD.toFixed(1)} m); add it to the matrix`,
        [{ path: 'transport.points', message: `missing ${label}` }],
      );
    }
    matched.set(key, best);
    return best;
  };
  return {
    leg(from, to, fromLabel, toLabel) {
      const i = match(from, fromLabel),
        j = match(to, toLabel);
      const d = t.distancesMeters[i][j];
      return {
        distanceMeters: d,
        timeSeconds: t.durationsSeconds ? t.durationsSeconds[i][j] : d / speedMetersPerSecond,
      };
    },
  };
}
