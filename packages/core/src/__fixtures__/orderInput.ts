/** Shared set-up of the ordering tests: a rectangle's tracks and the order stage's input for them. */
import { objectiveRates } from '../route/optimize/objective.js';
import { DEFAULTS, resolveRouteOptions } from '../request/normalizeRequest.js';
import type { RouteApiOptions } from '../types.js';
import type { FieldOrderInput, OrderTrack } from '../route/order/fieldOrder.js';

/** n tracks along +y, `width` m apart, 300 m long, one cell (a rectangle's tracks, heading north). */
export function rectangleTracks(n: number, width = 6): OrderTrack[] {
  return Array.from({ length: n }, (_, i) => ({
    line: i,
    u0: 0,
    u1: 300,
    v: i * width,
    x0: i * width,
    y0: 0,
    x1: i * width,
    y1: 300,
  }));
}

/** The ordering input of `rectangleTracks(n)` for a 6 m machine of radius 6 m, `extra` laid over it. */
export function orderInput(
  n: number,
  extra: Partial<Omit<FieldOrderInput, 'routeOptions'>> & { routeOptions?: RouteApiOptions } = {},
): FieldOrderInput {
  return {
    tracks: rectangleTracks(n),
    cellOf: new Int32Array(n),
    directionRadians: Math.PI / 2,
    widthMeters: 6,
    turnRadiusMeters: 6,
    rates: objectiveRates(DEFAULTS, 'distance'),
    ...extra,
    routeOptions: resolveRouteOptions(extra.routeOptions ?? {}, 6, 6),
  };
}
