/**
 * `routeOffField(field, plan)`: how much of each route piece runs off the field — outside the
 * boundary or into one of its holes / obstacles — by more than checkPlan's 0.10 m tolerance.
 * checkPlan reports the deepest point of a piece; this measures the length, for benchmarks and
 * tests that count "route meters off the field" and tell declared transit legs from the rest.
 */
import type { Plan, RouteSegment } from '../types.js';
import { Region } from '../geometry/region.js';
import { polylineLength } from '../geometry/vec.js';
import { outsideLength } from '../geometry/outsideLength.js';
import { CHECK_TOLERANCES, localFieldOf } from './checkPlan.js';
import type { FieldLike } from './checkPlan.js';

export interface OffFieldPiece {
  sequence: number;
  type: RouteSegment['type'];
  connectorKind?: string;
  lengthMeters: number;
  /** Length of the piece more than 0.10 m off the field. */
  offFieldMeters: number;
}

/** Every route piece with its length off the field, in route order (pieces wholly inside included, with 0). */
export function routeOffField(field: FieldLike, plan: Plan): OffFieldPiece[] {
  const lf = localFieldOf(field, plan);
  const region = new Region(lf.field);
  const obstacles = lf.obstacles.length > 0 ? new Region(lf.obstacles) : undefined;
  return [...plan.route]
    .sort((a, b) => a.sequence - b.sequence)
    .map((seg) => {
      const xy: number[] = [];
      for (const [lon, lat] of seg.coordinates) xy.push(...lf.frame.toLocal(lon, lat));
      return {
        sequence: seg.sequence,
        type: seg.type,
        ...(typeof seg.connectorKind === 'string' ? { connectorKind: seg.connectorKind } : {}),
        lengthMeters: polylineLength(xy),
        offFieldMeters: outsideLength(region, xy, CHECK_TOLERANCES.outsideMeters, obstacles),
      };
    });
}
