/**
 * `routeOffField(field, plan)`: how much of each route piece runs off the field — outside the
 * boundary or into one of its holes / obstacles — by more than checkPlan's 0.10 m tolerance.
 * checkPlan reports the deepest point of a piece; this measures the length, for benchmarks and
 * tests that count "route meters off the field" and tell declared transit legs from the rest.
 */
import type { Plan, RouteSegment } from '../types.js';
import { Region } from '../geometry/region.js';
import { hypot } from '../geometry/vec.js';
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
  const off = (x: number, y: number): boolean =>
    (!region.contains(x, y) && region.distanceToEdge(x, y) > CHECK_TOLERANCES.outsideMeters) ||
    (obstacles !== undefined && obstacles.contains(x, y) && obstacles.distanceToEdge(x, y) > CHECK_TOLERANCES.outsideMeters);
  const out: OffFieldPiece[] = [];
  for (const seg of [...plan.route].sort((a, b) => a.sequence - b.sequence)) {
    let length = 0, offMeters = 0;
    for (let i = 1; i < seg.coordinates.length; i++) {
      const [ax, ay] = lf.frame.toLocal(seg.coordinates[i - 1][0], seg.coordinates[i - 1][1]);
      const [bx, by] = lf.frame.toLocal(seg.coordinates[i][0], seg.coordinates[i][1]);
      const l = hypot(bx - ax, by - ay);
      length += l;
      if (l === 0) continue;
      const clear = region.segmentClear(ax, ay, bx, by) && (!obstacles || obstacles.segmentClear(ax, ay, bx, by));
      if (clear && !off((ax + bx) / 2, (ay + by) / 2)) continue;
      // Crossing an edge, or wholly off: measured on sub-steps of at most 0.25 m.
      const n = clear ? 1 : Math.max(1, Math.ceil(l / Math.max(0.25, l / 4000)));
      for (let k = 0; k < n; k++) {
        const t = (k + 0.5) / n;
        if (off(ax + (bx - ax) * t, ay + (by - ay) * t)) offMeters += l / n;
      }
    }
    out.push({
      sequence: seg.sequence,
      type: seg.type,
      ...(typeof seg.connectorKind === 'string' ? { connectorKind: seg.connectorKind } : {}),
      lengthMeters: length,
      offFieldMeters: offMeters,
    });
  }
  return out;
}
