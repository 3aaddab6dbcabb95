/**
 * The headland stage's steps as the pipeline calls them: the passes for the chosen heading
 * (full perimeter, or turn-only where the tracks end), their corners shaped, and the passes in
 * driving order as route pieces.
 */
import type { PathD, PathsD } from '../geometry/clipper.js';
import { ringToFlat } from '../geometry/clipper.js';
import type { TurnOptions } from '../turns/types.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import { generateHeadlands } from './generateHeadlands.js';
import type { Headlands, HeadlandPass } from './generateHeadlands.js';
import { CLEARANCE_METERS, withoutSmallObstacles } from './smallObstacles.js';
import { swervePasses } from './swervePasses.js';
import { Region } from '../geometry/region.js';
import { boxOf } from '../geometry/nearBox.js';
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
 * The headlands of a field: small no-go zones get no rounds (headlands and tracks are planned on the
 * field without them), the full passes on `simple` (the field simplified where dense), the heading
 * `chooseHeading` picks on their mainland, and the passes driven for that heading. A small zone is
 * one CLEARANCE_METERS inside the field's edge and past the rounds (passes × w + CLEARANCE_METERS)
 * of every zone that keeps them; a pass whose centre line comes within
 * CLEARANCE_METERS of it swerves round it (headland/swervePasses.ts). A zone a pass cannot swerve
 * round (at a corner, or with no room) keeps its rounds, and the stage is planned again (at most
 * MAX_KEEP_ROUNDS times: then every small zone left keeps its rounds).
 */
export function planHeadlandStage<H extends { directionRadians: number }>(
  field: PathsD,
  simple: PathsD,
  settings: PlanSettings,
  turnOptions: TurnOptions,
  chooseHeading: (field: PathsD, mainland: PathsD) => H,
): HeadlandStage<H> {
  const { widthMeters: w } = settings.machine,
    passes = settings.headlandPasses,
    size = settings.smallObstacleSizeMeters;
  // near the boundary the exterior passes swerve round a pole; near a zone with rounds the pole keeps its rounds too
  const margin = { edge: CLEARANCE_METERS, hole: passes * w + CLEARANCE_METERS };
  // the box centres of the zones kept: a zone of `simple` is kept with its ring of `field` (simplifying moves a small
  // ring's vertices by centimetres)
  const kept: { x: number; y: number }[] = [];
  const isKept = (r: PathD): boolean => {
    const c = kept.length > 0 ? centreOf(r) : undefined;
    return c !== undefined && kept.some((k) => Math.hypot(k.x - c.x, k.y - c.y) < 0.5);
  };
  let region: Region | undefined;
  for (let round = 0; ; round++) {
    const small = withoutSmallObstacles(field, round < MAX_KEEP_ROUNDS ? size : 0, margin, isKept);
    // the passes on the simplified field without the same zones (a field kept as it is: those already found)
    const simpleField =
      small.small.length === 0
        ? simple
        : simple === field
          ? small.field
          : withoutSmallObstacles(simple, size, margin, isKept).field;
    const full = generateHeadlands(simpleField, passes, w, settings.headland.corners, turnOptions.turnRadiusMeters);
    const chosen = chooseHeading(small.field, full.mainland);
    const shaped = shapeHeadlands(
      small.field,
      full,
      settings.headland,
      passes,
      w,
      chosen.directionRadians,
      turnOptions,
    );
    let swerved: readonly HeadlandPass[] = shaped.headlands.passes;
    const cannot: PathD[] = [];
    for (const z of small.small) {
      const next = swervePasses(swerved, z, () => (region ??= new Region(field)), turnOptions.turnRadiusMeters);
      if (next) swerved = next;
      else cannot.push(z);
    }
    if (cannot.length === 0)
      return {
        small,
        chosen,
        shaped:
          swerved === shaped.headlands.passes
            ? shaped
            : { ...shaped, headlands: { ...shaped.headlands, passes: [...swerved] } },
      };
    kept.push(...cannot.map(centreOf));
  }
}

/** Plannings of the headland stage with small zones the passes come near kept, before every one is kept. */
const MAX_KEEP_ROUNDS = 3;

function centreOf(r: PathD): { x: number; y: number } {
  const b = boxOf([r]);
  return { x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 };
}

/**
 * The headlands driven: the full ones, or turn-only ones where the tracks of `directionRadians`
 * end (headland/turnOnlyHeadlands.ts); corners rounded to the turning radius, or square with
 * corner turns where they fit (headland/corners.ts).
 */
export function shapeHeadlands(
  field: PathsD,
  full: Headlands,
  style: HeadlandStyle,
  passCount: number,
  widthMeters: number,
  directionRadians: number,
  turnOptions: TurnOptions,
): ShapedHeadlands {
  const headlands =
    style.mode === 'turnOnly'
      ? generateTurnOnlyHeadlands(field, passCount, widthMeters, directionRadians, style.corners)
      : full;
  return shapeHeadlandCorners(headlands, style, field, turnOptions, widthMeters);
}

/** What the plan reports of the headland style. */
export function headlandReport(
  style: HeadlandStyle,
  shaped: ShapedHeadlands,
): { mode: HeadlandStyle['mode']; corners?: 'rounded' | 'square'; squareCorners?: number; roundedCorners?: number } {
  return {
    mode: style.mode,
    ...(style.corners
      ? {
          corners: style.corners,
          squareCorners: shaped.cornerTurns?.squareCorners.length ?? 0,
          roundedCorners: shaped.roundedCount,
        }
      : {}),
  };
}

/** Passes in driving order: outermost first when the headlands are driven first, innermost first after the tracks. */
export function passDrivingOrder(passes: HeadlandPass[], headlandsFirst: boolean): HeadlandPass[] {
  return [...passes].sort((a, b) =>
    headlandsFirst
      ? a.passIndex - b.passIndex || (a.type === b.type ? 0 : a.type === 'ExteriorHeadland' ? -1 : 1)
      : b.passIndex - a.passIndex,
  );
}

/** The outermost exterior passes' rings, flat xy (where refills leave the route for the depot). */
export function outermostExteriorRings(passes: HeadlandPass[]): Float64Array[] {
  return passes.filter((p) => p.type === 'ExteriorHeadland' && p.passIndex === 0).map((p) => ringToFlat(p.ring));
}
