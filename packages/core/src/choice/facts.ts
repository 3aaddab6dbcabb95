/** What the objective (objective.ts) reads off a route as joined, before its coverage is measured. */
import type { PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { outsideLength } from '../geometry/outsideLength.js';
import { polylineLength } from '../geometry/vec.js';
import type { LocalSegment } from '../turns/path.js';
import { countCusps } from '../metrics/manoeuvres.js';
import { CHECK_TOLERANCES } from '../check/checkPlan.js';
import type { ObjectiveFacts } from '../objective.js';
import { UNDRIVABLE_WARNINGS } from '../tracks/routeFaults.js';

/** The objective's facts but the unworked area. */
export type RouteFacts = Omit<ObjectiveFacts, 'uncoveredSquareMeters'>;

/** A region of the field of its own (the route's region counts its work for the route stage's budget). */
const judgeRegions = new WeakMap<PathsD, Region>();

export function routeFacts(
  segments: readonly LocalSegment[],
  warnings: readonly { code: string }[],
  field: PathsD,
): RouteFacts {
  let workingMeters = 0,
    turningMeters = 0,
    transportMeters = 0,
    offFieldMeters = 0;
  let region = judgeRegions.get(field);
  if (!region) judgeRegions.set(field, (region = new Region(field)));
  for (const s of segments) {
    const length = polylineLength(s.xy);
    if (s.type !== 'Turn' && s.type !== 'Connector') workingMeters += length;
    else if (s.connector === 'transport') transportMeters += length;
    else {
      turningMeters += length;
      offFieldMeters += outsideLength(region, s.xy, CHECK_TOLERANCES.outsideMeters);
    }
  }
  const undrivableJoins = warnings.filter((w) => UNDRIVABLE_WARNINGS.has(w.code)).length;
  return {
    workingMeters,
    turningMeters,
    transportMeters,
    cusps: countCusps(segments),
    undrivableJoins,
    offFieldMeters,
  };
}
