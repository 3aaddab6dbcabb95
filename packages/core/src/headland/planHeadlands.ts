/**
 * The headland stage's steps as the pipeline calls them: the passes for the chosen heading
 * (full perimeter, or turn-only where the tracks end), their corners shaped, and the passes in
 * driving order as route pieces.
 */
import type { PathsD } from '../geometry/clipper.js';
import { ringToFlat } from '../geometry/clipper.js';
import type { TurnOptions } from '../turns/types.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import { generateHeadlands } from './generateHeadlands.js';
import type { Headlands, HeadlandPass } from './generateHeadlands.js';
import { withoutSmallObstacles } from './smallObstacles.js';
import { generateTurnOnlyHeadlands } from './turnOnlyHeadlands.js';
import { shapeHeadlandCorners } from './headlandPieces.js';
import type { HeadlandStyle } from './headlandPieces.js';

export type ShapedHeadlands = ReturnType<typeof shapeHeadlandCorners>;

/** The headland stage of one `planRoute` call (the same for every planning of it). */
export interface HeadlandStage<H extends { directionRadians: number }> {
  /** The field without its small no-go zones, and those zones (headland/smallObstacles.ts). */
  small: { field: PathsD; small: PathsD };
  /** The working heading, chosen on the full headlands' mainland. */
  chosen: H;
  shaped: ShapedHeadlands;
}

/**
 * The headlands of a field: small no-go zones get no rounds (headlands and tracks are planned on
 * the field without them), the full passes on `simple` (the field simplified where dense), the
 * heading `chooseHeading` picks on their mainland, and the passes driven for that heading.
 */
export function planHeadlandStage<H extends { directionRadians: number }>(field: PathsD, simple: PathsD, settings: PlanSettings, turnOptions: TurnOptions, chooseHeading: (field: PathsD, mainland: PathsD) => H): HeadlandStage<H> {
  const { widthMeters: w, turnRadiusMeters: R } = settings.machine, passes = settings.headlandPasses;
  const margin = passes * w + 2 * R;
  const small = withoutSmallObstacles(field, settings.smallObstacleSizeMeters, margin);
  const full = generateHeadlands(small.small.length > 0 ? withoutSmallObstacles(simple, settings.smallObstacleSizeMeters, margin).field : simple, passes, w, settings.headland.corners, R);
  const chosen = chooseHeading(small.field, full.mainland);
  return { small, chosen, shaped: shapeHeadlands(small.field, full, settings.headland, passes, w, chosen.directionRadians, turnOptions) };
}

/**
 * The headlands driven: the full ones, or turn-only ones where the tracks of `directionRadians`
 * end (headland/turnOnlyHeadlands.ts); corners rounded to the turning radius, or square with
 * corner turns where they fit (headland/corners.ts).
 */
export function shapeHeadlands(field: PathsD, full: Headlands, style: HeadlandStyle, passCount: number, widthMeters: number, directionRadians: number, turnOptions: TurnOptions): ShapedHeadlands {
  const headlands = style.mode === 'turnOnly' ? generateTurnOnlyHeadlands(field, passCount, widthMeters, directionRadians, style.corners) : full;
  return shapeHeadlandCorners(headlands, style, field, turnOptions, widthMeters);
}

/** What the plan reports of the headland style. */
export function headlandReport(style: HeadlandStyle, shaped: ShapedHeadlands): { mode: HeadlandStyle['mode']; corners?: 'rounded' | 'square'; squareCorners?: number; roundedCorners?: number } {
  return { mode: style.mode, ...(style.corners ? { corners: style.corners, squareCorners: shaped.cornerTurns?.squareCorners.length ?? 0, roundedCorners: shaped.roundedCount } : {}) };
}

/** Passes in driving order: outermost first when the headlands are driven first, innermost first after the tracks. */
export function passDrivingOrder(passes: HeadlandPass[], headlandsFirst: boolean): HeadlandPass[] {
  return [...passes].sort((a, b) =>
    headlandsFirst ? a.passIndex - b.passIndex || (a.type === b.type ? 0 : a.type === 'ExteriorHeadland' ? -1 : 1) : b.passIndex - a.passIndex);
}

/** The outermost exterior passes' rings, flat xy (where refills leave the route for the depot). */
export function outermostExteriorRings(passes: HeadlandPass[]): Float64Array[] {
  return passes.filter((p) => p.type === 'ExteriorHeadland' && p.passIndex === 0).map((p) => ringToFlat(p.ring));
}
