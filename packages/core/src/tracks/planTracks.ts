/**
 * The track stage as the pipeline calls it: the working heading (preferred, or searched on the
 * full headlands' mainland), then the tracks — curved offsets of the boundary when asked and one
 * fits, straight otherwise; with a searched heading, cells re-tracked at their own heading where
 * cheaper (tracks/cellHeadings.ts); ends pushed out towards the mainland's edge
 * (tracks/extendTracks.ts) — and the cell of each track.
 */
import { PlanError } from '../errors.js';
import type { Plan } from '../types.js';
import type { PathsD } from '../geometry/clipper.js';
import { generateTracks } from './generateTracks.js';
import type { Track, TrackSet } from './generateTracks.js';
import { assignCellHeadings } from './cellHeadings.js';
import type { CellTracks } from './cellHeadings.js';
import { generateCurvedTracks } from './curvedTracks.js';
import { extendTracks } from './extendTracks.js';
import type { TrackExtension } from './extendTracks.js';
import { groupCells } from './cells.js';
import type { Region } from '../geometry/region.js';
import { swerveTracks } from './swerveTracks.js';
import { generateStripTracks, plannedPasses, withStripCells } from './strips.js';
import { patchThreshold, type SwathPass } from '../geometry/unworked.js';
import { DEFAULTS, type PlanSettings } from '../request/normalizeRequest.js';
import type { LocalField } from '../geometry/prepareField.js';
import type { HeadlandStage } from '../headland/planHeadlands.js';
import { searchHeading } from './searchHeading.js';
import { referenceAcrossMeters } from '../request/trackReference.js';

/** Track direction (radians CCW from +x, [0, π)) → bearing in degrees clockwise from north, [0, 180). */
export function directionToBearingDegrees(directionRadians: number): number {
  let b = 90 - (directionRadians * 180) / Math.PI;
  b = ((b % 180) + 180) % 180;
  return Math.round(b * 1e6) / 1e6;
}

/** Bearing in degrees clockwise from north → track direction, radians CCW from +x, [0, π). */
export function bearingToDirectionRadians(bearingDegrees: number): number {
  let a = ((90 - bearingDegrees) * Math.PI) / 180;
  a %= Math.PI;
  return a < 0 ? a + Math.PI : a;
}

export interface ChosenHeading {
  directionRadians: number;
  heading: Plan['heading'];
}

/** The preferred heading; else the searched one (`search`, called only then); north when there is no mainland. */
export function chooseHeading(
  preferredHeadingDegrees: number | undefined,
  hasMainland: boolean,
  search: () => number,
): ChosenHeading {
  if (preferredHeadingDegrees !== undefined)
    return {
      directionRadians: bearingToDirectionRadians(preferredHeadingDegrees),
      heading: { degrees: preferredHeadingDegrees, source: 'preferred' },
    };
  if (!hasMainland) return { directionRadians: Math.PI / 2, heading: { degrees: 0, source: 'search' } };
  const directionRadians = search();
  return { directionRadians, heading: { degrees: directionToBearingDegrees(directionRadians), source: 'search' } };
}

/**
 * The heading of a planning: the preferred one, else searched on the full headlands' mainland
 * (tracks/searchHeading.ts).
 */
export function fieldHeading(settings: PlanSettings, field: PathsD, mainland: PathsD): ChosenHeading {
  const { widthMeters: w, turnRadiusMeters: R } = settings.machine;
  return chooseHeading(
    settings.preferredHeadingDegrees,
    mainland.length > 0,
    () => searchHeading(field, mainland, w, R).directionRadians,
  );
}

export type StripMode = 'all' | 'single' | 'none';

export interface TrackStageInput {
  field: PathsD;
  mainland: PathsD;
  widthMeters: number;
  turnRadiusMeters: number;
  chosen: ChosenHeading;
  preferredHeadingDegrees?: number;
  curved: boolean;
  /** Whether cells may take headings of their own (a searched heading, full headlands). */
  cellHeadingsAllowed: boolean;
  /** Extend the ends all the way (option extendTracks) rather than by DEFAULTS.trackExtensionFraction. */
  fullExtension: boolean;
  /** Headland passes the plan has (with no track either, nothing fits). */
  passCount: number;
  /**
   * The passes' rings and the workable area: what they leave gets strip passes (tracks/strips.ts) unless `strips` is
   * false.
   */
  passRings: PathsD;
  workable: PathsD;
  fieldAreaSquareMeters: number;
  /** Strip passes: all a strip needs, one through the largest strip, or none. */
  strips: StripMode;
  /**
   * Strips up to three widths wide driven along their centre line where that works more of them
   * (tracks/centreLine.ts); default false: straight strip passes only (choice/ plans both as variants).
   */
  centreLines?: boolean;
  /** Centre-line tours started the other way round (choice/ `tours-turned`). */
  toursTurned?: boolean;
  /**
   * The ground another planning of the same passes left (choice/ `left-over`): its strip passes are
   * kept and each piece it left gets passes of its own (straight or along its centre line), in
   * place of the strips the passes leave.
   */
  leftOver?: LeftOverGround;
  /** The boom's sections, left to right, m (machine.sections; absent: sections of any width). */
  sectionWidthsMeters?: readonly number[];
  /** The machine's curvature-rate limit, 1/m² (centre-line passes keep to it). */
  maxCurvatureRatePerSquareMeter?: number;
  /** Whether the machine may reverse (centre-line passes it could not join forward are then kept). */
  reverseAllowed?: boolean;
  /**
   * No-go zones without headland rounds (headland/smallObstacles.ts) the tracks swerve round, in `region` (the whole
   * field).
   */
  smallObstacles: PathsD;
  region: () => Region;
  /**
   * Called with the tracks as generated (one heading, before cells, extension and strip passes): true when the planning
   * is to be dropped (then none of those are made).
   */
  judgeHeadland?: (tracks: readonly Track[]) => boolean;
  /**
   * The call's wall-clock cap (clock.ts `SafetyCap.hurry`): past it (also while cells are weighed), no headings per
   * cell and no strip passes.
   */
  hurry?: (what: string) => boolean;
  /** `tracks.referenceLine`: the across-track coordinate of one line of the lane grid the straight tracks lie on. */
  gridAcrossMeters?: number;
}

/** The ground a planning's route left: its strip passes and the patches it did not work (local). */
export interface LeftOverGround {
  strips: readonly Track[];
  patches: readonly PathsD[];
}

export interface PlannedTracks {
  trackSet: TrackSet;
  directionRadians: number;
  heading: Plan['heading'];
  curved: boolean;
  cellTracks?: CellTracks;
  /** Cell of each track. */
  cellOf: Int32Array;
  /** Strip passes (the last tracks of `trackSet`). */
  stripCount: number;
  /** With the option extendTracks: the tracks before extension and what it moved. */
  fullExtension?: { unextendedTracks: Track[]; extension: TrackExtension };
}

/**
 * What a planning decides of its tracks: per-cell headings, strip passes, and the field's region (built on first use).
 */
export interface TrackPlanning {
  cellHeadingsAllowed: boolean;
  strips: StripMode;
  /** Centre-line passes in narrow strips (default false; `TrackStageInput.centreLines`; a variant, choice/). */
  centreLines?: boolean;
  /** Centre-line tours started the other way round (`TrackStageInput.toursTurned`). */
  toursTurned?: boolean;
  /** Passes over the ground another planning left (`TrackStageInput.leftOver`; a variant, choice/). */
  leftOver?: LeftOverGround;
  region: () => Region;
  judgeHeadland?: (tracks: readonly Track[]) => boolean;
  hurry?: (what: string) => boolean;
}

/** The track stage of a planning, on the prepared field and its headlands. */
export function planFieldTracks(
  settings: PlanSettings,
  prepared: LocalField,
  headlandStage: HeadlandStage<ChosenHeading>,
  planning: TrackPlanning,
): PlannedTracks {
  const {
    small,
    chosen,
    shaped: { headlands },
  } = headlandStage;
  return planTracks({
    field: small.field,
    mainland: headlands.mainland,
    widthMeters: settings.machine.widthMeters,
    turnRadiusMeters: settings.machine.turnRadiusMeters,
    chosen,
    ...(settings.preferredHeadingDegrees !== undefined
      ? { preferredHeadingDegrees: settings.preferredHeadingDegrees }
      : {}),
    curved: settings.trackType === 'curved',
    cellHeadingsAllowed: planning.cellHeadingsAllowed && settings.headland.mode !== 'turnOnly',
    fullExtension: settings.options.includes('extendTracks'),
    passCount: headlands.passes.length,
    passRings: headlands.passes.map((p) => p.ring),
    workable: prepared.workable,
    fieldAreaSquareMeters: prepared.fieldAreaSquareMeters,
    strips: planning.strips,
    ...(planning.centreLines !== undefined ? { centreLines: planning.centreLines } : {}),
    ...(planning.toursTurned ? { toursTurned: true } : {}),
    ...(planning.leftOver ? { leftOver: planning.leftOver } : {}),
    ...(settings.machine.sectionWidthsMeters ? { sectionWidthsMeters: settings.machine.sectionWidthsMeters } : {}),
    ...(settings.machine.maxCurvatureRatePerSquareMeter !== undefined
      ? { maxCurvatureRatePerSquareMeter: settings.machine.maxCurvatureRatePerSquareMeter }
      : {}),
    reverseAllowed: settings.machine.reverseAllowed,
    smallObstacles: small.small,
    region: planning.region,
    ...(planning.judgeHeadland ? { judgeHeadland: planning.judgeHeadland } : {}),
    ...(planning.hurry ? { hurry: planning.hurry } : {}),
    ...gridOf(settings, prepared, chosen.directionRadians),
  });
}

/** `tracks.referenceLine` in the planning's frame: the across-track coordinate of one grid line. */
function gridOf(settings: PlanSettings, prepared: LocalField, directionRadians: number): { gridAcrossMeters?: number } {
  const ref = settings.trackReference;
  if (!ref || settings.preferredHeadingDegrees === undefined) return {};
  const point = prepared.frame.toLocal(ref.point[0], ref.point[1]);
  return {
    gridAcrossMeters: referenceAcrossMeters(
      point,
      ref.offsetMeters,
      settings.preferredHeadingDegrees,
      directionRadians,
    ),
  };
}

/** What the wall-clock cap cuts here (the `time-limit` warning). */
const CUT_CELL_HEADINGS = 'cells were not given headings of their own';
const CUT_STRIPS = 'no strip passes were planned in the strips and slivers the headland passes leave';

export function planTracks(inp: TrackStageInput): PlannedTracks {
  const { field, mainland, widthMeters: w, turnRadiusMeters: R } = inp;
  let { directionRadians, heading } = inp.chosen;
  // trackType 'curved': offset curves of the boundary's longest smooth chain (tracks/curvedTracks.ts); straight when
  // none fits.
  const curvedSet = inp.curved && mainland.length > 0 ? generateCurvedTracks(field, mainland, w, R) : undefined;
  const curved = curvedSet !== undefined && curvedSet.tracks.length > 0;
  if (curvedSet && curved) {
    directionRadians = curvedSet.directionRadians;
    if (inp.preferredHeadingDegrees === undefined)
      heading = { degrees: directionToBearingDegrees(directionRadians), source: 'search' };
  }
  const trackSet: TrackSet =
    curvedSet && curved
      ? curvedSet
      : mainland.length > 0
        ? generateTracks(
            mainland,
            directionRadians,
            w,
            DEFAULTS.trackExtensionFraction,
            inp.gridAcrossMeters,
            inp.passCount > 0,
          )
        : { directionRadians, tracks: [], lineCount: 0 };
  // The widen-or-keep step judges the tracks as generated (one heading, ends not extended): a planning it drops is
  // neither weighed in cells nor extended.
  if (inp.judgeHeadland?.(trackSet.tracks))
    return {
      trackSet,
      directionRadians,
      heading,
      curved,
      cellOf: new Int32Array(trackSet.tracks.length),
      stripCount: 0,
    };
  // Boustrophedon cells of the tracks; with a searched heading, each cell re-tracked at its own best heading when that
  // is cheaper. Past the cap (also while the cells are weighed) the cells keep the field heading.
  const cut = (): boolean => inp.hurry?.(CUT_CELL_HEADINGS) === true;
  const cellTracks =
    inp.cellHeadingsAllowed &&
    !curved &&
    inp.preferredHeadingDegrees === undefined &&
    trackSet.tracks.length > 0 &&
    !cut()
      ? assignCellHeadings(mainland, trackSet.tracks, directionRadians, w, R, cut)
      : undefined;
  if (cellTracks) trackSet.tracks = cellTracks.tracks;
  // Track ends pushed out towards where the swaths reach the mainland's edge: by
  // DEFAULTS.trackExtensionFraction of that by default, all of it with the option extendTracks (which reports its
  // gain).
  const unextendedTracks = trackSet.tracks;
  const extended =
    trackSet.tracks.length > 0 && !curved
      ? extendTracks(trackSet, mainland, field, w, w / 2, inp.fullExtension ? 1 : DEFAULTS.trackExtensionFraction)
      : undefined;
  if (extended) trackSet.tracks = extended.tracks;
  if (inp.smallObstacles.length > 0)
    trackSet.tracks = swerveTracks(trackSet.tracks, inp.smallObstacles, inp.region(), directionRadians, R);
  // Strips and slivers the passes leave, and fields narrower than the machine: passes of reduced width
  // (tracks/strips.ts).
  const strips = stripPasses(inp, trackSet);
  if (trackSet.tracks.length === 0 && inp.passCount === 0 && strips.length === 0)
    throw new PlanError(
      'no-workable-area',
      `the field is too small for a ${w} m machine: no track or headland pass fits`,
      [{ path: 'machine.widthMeters', message: 'no pass fits' }],
    );
  const trackCellOf = cellTracks ? cellTracks.cellOf : new Int32Array(trackSet.tracks.length);
  if (!cellTracks)
    groupCells(trackSet.tracks).forEach((c, i) => {
      for (const t of c) trackCellOf[t] = i;
    });
  const cellOf = withStripCells(trackCellOf, strips);
  trackSet.tracks = [...trackSet.tracks, ...strips];
  return {
    trackSet,
    directionRadians,
    heading,
    curved,
    ...(cellTracks ? { cellTracks } : {}),
    cellOf,
    stripCount: strips.length,
    ...(extended && inp.fullExtension ? { fullExtension: { unextendedTracks, extension: extended.extension } } : {}),
  };
}

/**
 * Strips and slivers the passes leave, and fields narrower than the machine: passes of reduced width
 * (tracks/strips.ts), along the strip's centre line where `inp.centreLines` (tracks/centreLine.ts).
 */
function stripPasses(inp: TrackStageInput, trackSet: TrackSet): Track[] {
  if (inp.strips === 'none' || inp.hurry?.(CUT_STRIPS)) return [];
  if (inp.leftOver) return leftOverPasses(inp, trackSet, inp.leftOver);
  return stripsOver(inp, trackSet, inp.workable, plannedPasses(inp.passRings, trackSet.tracks, inp.widthMeters));
}

/**
 * The strip passes of the planning that left `left`, and passes over each piece it left (the
 * patches as they are: no swath of the planning reaches them), on lines after theirs.
 */
function leftOverPasses(inp: TrackStageInput, trackSet: TrackSet, left: LeftOverGround): Track[] {
  const out: Track[] = [...left.strips];
  let line = [...trackSet.tracks, ...left.strips].reduce((l, t) => Math.max(l, t.line), 0) + 4;
  for (const patch of left.patches) {
    const passes = stripsOver(inp, trackSet, patch, [], line, out.length);
    for (const t of passes) out.push(t);
    line = out.reduce((l, t) => Math.max(l, t.line), line) + 4;
  }
  return out;
}

/** Strip passes over what `passes` leave of `workable` (tracks/strips.ts). */
function stripsOver(
  inp: TrackStageInput,
  trackSet: TrackSet,
  workable: PathsD,
  passes: SwathPass[],
  firstLine?: number,
  stripsBefore = 0,
): Track[] {
  const { field, widthMeters: w, turnRadiusMeters: R } = inp;
  return generateStripTracks(workable, passes, {
    widthMeters: w,
    turnRadiusMeters: R,
    minStripArea: patchThreshold(inp.fieldAreaSquareMeters),
    field,
    othersDriven: inp.passCount > 0,
    // one pass through the middle of the largest strip: a field narrower than the machine, driven without a turn
    ...(inp.strips === 'single' ? { maxPassesPerStrip: 1, maxStrips: 1 } : {}),
    turnRoomMeters: (1 + Math.sqrt(3)) * R,
    centreLines: inp.centreLines === true,
    ...(inp.toursTurned ? { toursTurned: true } : {}),
    reverseAllowed: inp.reverseAllowed === true,
    othersCount: inp.passCount + trackSet.tracks.length + stripsBefore,
    ...(inp.sectionWidthsMeters ? { sectionWidthsMeters: inp.sectionWidthsMeters } : {}),
    ...(inp.maxCurvatureRatePerSquareMeter !== undefined
      ? { maxCurvatureRatePerSquareMeter: inp.maxCurvatureRatePerSquareMeter }
      : {}),
    firstLine: firstLine ?? trackSet.tracks.reduce((l, t) => Math.max(l, t.line), 0) + 4,
  });
}
