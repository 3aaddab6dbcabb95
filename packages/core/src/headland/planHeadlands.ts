/**
 * The headland stage's steps as the pipeline calls them: the passes for the chosen heading
 * (full perimeter, or turn-only where the tracks end), their corners shaped, and the passes in
 * driving order as route pieces.
 */
import type { PathsD } from '../geometry/clipper.js';
import type { TurnOptions } from '../turns/types.js';
import type { Headlands, HeadlandPass } from './generateHeadlands.js';
import { generateTurnOnlyHeadlands } from './turnOnlyHeadlands.js';
import { shapeHeadlandCorners } from './headlandPieces.js';
import type { HeadlandStyle } from './headlandPieces.js';

export type ShapedHeadlands = ReturnType<typeof shapeHeadlandCorners>;

/**
 * The headlands driven: the full ones, or turn-only ones where the tracks of `directionRadians`
 * end (headland/turnOnlyHeadlands.ts); corners rounded to the turning radius, or square with
 * corner turns where they fit (headland/corners.ts).
 */
export function shapeHeadlands(field: PathsD, full: Headlands, style: HeadlandStyle, passCount: number, widthMeters: number, directionRadians: number, turnOptions: TurnOptions): ShapedHeadlands {
  const headlands = style.mode === 'turnOnly' ? generateTurnOnlyHeadlands(field, passCount, widthMeters, directionRadians, style.corners) : full;
  return shapeHeadlandCorners(headlands, style, field, turnOptions);
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
