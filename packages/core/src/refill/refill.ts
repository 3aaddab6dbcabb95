/**
 * Refill planning along an ordered route (routeOptions.calculateRefillPoints).
 *
 * Capacity model (MachineInput): `tankCapacity` (liters, or kilograms for a hopper) and
 * `applicationRatePerHectare` (the same unit per hectare). Working a piece of length L meters with
 * width w meters uses L · w / 10 000 · rate. The machine starts full and refills to full.
 *
 * Strategies (RefillStrategyType):
 * - `Exact`: drive until the tank is empty, wherever that is, go to the staging area and come back
 *   to the same point;
 * - `StartOfTrack`: before a working pass that cannot be finished with what is left, refill at its
 *   start (a pass longer than a full tank also gets Exact refills inside it);
 * - `ClosestExternalHeadland`: where the tank runs out, leave the field at the nearest point of the
 *   exterior headland, drive to the staging area and back the same way.
 * Each detour (out and back) is in `detourMeters`; the caller adds it to the non-working distance.
 */
import type { RefillStrategyType } from '../types.js';
import { hypot } from '../geometry/vec.js';

export type XY = [number, number];

export interface RefillRoutePiece {
  /** Polyline in the local frame, x0, y0, x1, y1, … */
  points: Float64Array | number[];
  /** True for working passes (tracks, headland passes); connectors use nothing. */
  working: boolean;
  widthMeters: number;
}

export interface RefillInput {
  pieces: RefillRoutePiece[];
  tankCapacity: number;
  applicationRatePerHectare: number;
  strategy: RefillStrategyType;
  /** Staging area in the local frame. */
  staging: XY;
  /** Travel distance between two points, meters (default: straight line). */
  travelMeters?: (from: XY, to: XY) => number;
  /** Nearest point of the exterior headland (for ClosestExternalHeadland; absent = Exact). */
  nearestExteriorHeadlandPoint?: (at: XY) => XY;
}

export interface RefillPointLocal {
  /** Index of the route piece in which the machine leaves the route. */
  pieceIndex: number;
  /** Distance along that piece where it leaves, meters. */
  alongMeters: number;
  /** Where it leaves the route (and later resumes). */
  at: XY;
  /** Where it leaves the field towards the staging area (the headland point for ClosestExternalHeadland, else `at`). */
  exitAt: XY;
  /** Out-and-back detour length, meters. */
  detourMeters: number;
  /** Tank contents when leaving (0 for Exact and ClosestExternalHeadland). */
  remainingBefore: number;
  strategy: RefillStrategyType;
}

export interface RefillResult {
  points: RefillPointLocal[];
  detourMeters: number;
  /** Total applied product along the route. */
  appliedTotal: number;
}

const straight = (a: XY, b: XY): number => hypot(a[0] - b[0], a[1] - b[1]);

function pieceLength(p: ArrayLike<number>): number {
  let len = 0;
  for (let i = 2; i + 1 < p.length; i += 2) len += hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]);
  return len;
}

/** Point at distance `s` along a polyline. */
export function pointAlong(p: ArrayLike<number>, s: number): XY {
  let left = s;
  for (let i = 2; i + 1 < p.length; i += 2) {
    const seg = hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]);
    if (left <= seg && seg > 0) {
      const t = left / seg;
      return [p[i - 2] + t * (p[i] - p[i - 2]), p[i - 1] + t * (p[i + 1] - p[i - 1])];
    }
    left -= seg;
  }
  return [p[p.length - 2], p[p.length - 1]];
}

export function planRefills(input: RefillInput): RefillResult {
  const capacity = input.tankCapacity;
  const rate = input.applicationRatePerHectare;
  const travel = input.travelMeters ?? straight;
  const staging = input.staging;
  const points: RefillPointLocal[] = [];
  let detourTotal = 0;
  let applied = 0;
  if (!(capacity > 0) || !(rate > 0)) return { points, detourMeters: 0, appliedTotal: 0 };
  let remaining = capacity;
  const eps = capacity * 1e-9;

  const refillAt = (pieceIndex: number, along: number, at: XY, strategy: RefillStrategyType): void => {
    let exitAt = at;
    let detour: number;
    if (strategy === 'ClosestExternalHeadland' && input.nearestExteriorHeadlandPoint) {
      exitAt = input.nearestExteriorHeadlandPoint(at);
      detour = 2 * (travel(at, exitAt) + travel(exitAt, staging));
    } else {
      detour = 2 * travel(at, staging);
    }
    points.push({
      pieceIndex,
      alongMeters: along,
      at,
      exitAt,
      detourMeters: detour,
      remainingBefore: remaining,
      strategy,
    });
    detourTotal += detour;
    remaining = capacity;
  };

  for (let k = 0; k < input.pieces.length; k++) {
    const piece = input.pieces[k];
    if (!piece.working) continue;
    const usePerMeter = (piece.widthMeters * rate) / 10_000;
    if (!(usePerMeter > 0)) continue;
    const len = pieceLength(piece.points);
    const need = len * usePerMeter;
    applied += need;
    let along = 0;
    if (input.strategy === 'StartOfTrack' && need > remaining + eps && remaining < capacity - eps) {
      refillAt(k, 0, pointAlong(piece.points, 0), 'StartOfTrack');
    }
    // run-outs inside this piece
    while ((len - along) * usePerMeter > remaining + eps) {
      along += remaining / usePerMeter;
      remaining = 0;
      const strategy = input.strategy === 'StartOfTrack' ? 'Exact' : input.strategy;
      refillAt(k, along, pointAlong(piece.points, along), strategy);
    }
    remaining -= (len - along) * usePerMeter;
  }
  return { points, detourMeters: detourTotal, appliedTotal: applied };
}
