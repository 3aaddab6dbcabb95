/**
 * The extra members of a plan, added after the route is built:
 * `guidanceLines` (always), `cells` (always), `crosshatches` (option useCrossHatches),
 * `trackExtension` (option extendTracks, with the coverage it gained), and `narrow-corridor`
 * warnings with their polygons. Metrics gain `extendTracksCoverageGainSquareMeters`,
 * `crosshatchCount` and `crosshatchCoveredSquareMeters` when those options are on.
 */
import type { PathPlanRequest, Plan, PlanWarning, Position } from '../types.js';
import type { LocalFrame } from '../geometry/projection.js';
import { flatToLonLat } from '../geometry/projection.js';
import { ringToFlat } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import type { Track } from '../tracks/generateTracks.js';
import type { HeadlandPass } from '../headland/generateHeadlands.js';
import { passToFlat } from '../headland/generateHeadlands.js';
import { computeCoverage } from '../geometry/computeCoverage.js';
import type { WorkingPass } from '../geometry/computeCoverage.js';
import { generateGuidanceLines, toGuidanceOutput, bearingDegrees } from '../guidance/guidanceLines.js';
import { cellOutlines } from '../tracks/cells.js';
import { findNarrowCorridors } from '../geometry/corridors.js';
import { planCrosshatches } from '../tracks/crosshatches.js';
import type { TrackExtension } from '../tracks/extendTracks.js';

export interface PlanExtrasInput {
  frame: LocalFrame;
  field: PathsD;
  workable: PathsD;
  tracks: Track[];
  /** Tracks before extendTracks, when the option moved them. */
  unextendedTracks?: Track[];
  extension?: TrackExtension;
  directionRadians: number;
  cellOf: ArrayLike<number>;
  headlandPasses: HeadlandPass[];
  passCount: number;
  widthMeters: number;
  turnRadiusMeters: number;
  options: readonly string[];
  /** The request as given, for the features accepted but not planned yet (warned about). */
  request?: PathPlanRequest;
  /** The call's wall-clock cap (clock.ts `SafetyCap.hurry`): past it the narrow corridors are not looked for. */
  hurry?: (what: string) => boolean;
}

/** What the wall-clock cap cuts here (the `time-limit` warning). */
export const CUT_CORRIDORS = 'the narrow corridors were not looked for (no `narrow-corridor` warnings)';

function r2(v: number): number {
  return Math.round(v * 100) / 100;
}

function trackPasses(tracks: Track[], w: number): WorkingPass[] {
  return tracks.map((t) => ({ xy: Float64Array.of(t.x0, t.y0, t.x1, t.y1), widthMeters: w }));
}

export function addPlanExtras(plan: Plan, x: PlanExtrasInput): void {
  const { frame, widthMeters: w } = x;
  const lonLatRing = (xy: Float64Array): Position[] => flatToLonLat(frame, xy);

  // Guidance: AB per cell, A+, and the innermost headland passes (round the field parts, then round the no-go zones) as
  // curves.
  const innermost = x.headlandPasses
    .filter((p) => p.passIndex === x.passCount)
    .sort((a, b) => (a.type === b.type ? 0 : a.type === 'ExteriorHeadland' ? -1 : 1));
  const curves = innermost.map((p) => ({ xy: passToFlat(p), closed: true }));
  plan.guidanceLines = toGuidanceOutput(frame, generateGuidanceLines(x.tracks, x.cellOf, curves));

  // Cells (boustrophedon decomposition of the mainland), each with its own heading.
  plan.cells = cellOutlines(x.tracks, x.cellOf, x.directionRadians, w).map((c) => {
    const ringXY = new Float64Array(c.outline.length + 2);
    ringXY.set(c.outline);
    ringXY[c.outline.length] = c.outline[0];
    ringXY[c.outline.length + 1] = c.outline[1];
    return {
      index: c.index,
      trackCount: c.trackIndices.length,
      trackIndices: c.trackIndices,
      headingDegrees: c.headingDegrees,
      areaSquareMeters: r2(c.areaSquareMeters),
      geometry: { type: 'Polygon', coordinates: [lonLatRing(ringXY)] },
    };
  });

  // extendTracks: the coverage the extension gained, on the same basis (headland passes + tracks as generated).
  if (x.extension && x.unextendedTracks) {
    const headland: WorkingPass[] = x.headlandPasses.map((p) => ({ xy: passToFlat(p), widthMeters: w }));
    const before = computeCoverage(x.workable, [...headland, ...trackPasses(x.unextendedTracks, w)]);
    const after = computeCoverage(x.workable, [...headland, ...trackPasses(x.tracks, w)]);
    const gain = before.uncoveredSquareMeters - after.uncoveredSquareMeters;
    plan.trackExtension = {
      tracksExtended: x.extension.tracksExtended,
      addedLengthMeters: r2(x.extension.addedLengthMeters),
      coverageGainSquareMeters: r2(gain),
      uncoveredRatioWithout: Math.round(before.uncoveredRatio * 1e6) / 1e6,
    };
    plan.metrics.extendTracksCoverageGainSquareMeters = r2(gain);
  }

  // useCrossHatches: perpendicular passes over the ends the tracks leave unworked.
  if (x.options.includes('useCrossHatches')) {
    const minLength = Math.max(3 * w, 2 * x.turnRadiusMeters);
    const hatch = planCrosshatches(x.field, x.tracks, x.directionRadians, w, minLength);
    const hd = bearingDegrees(Math.cos(hatch.directionRadians), Math.sin(hatch.directionRadians));
    plan.crosshatches = hatch.passes.map((p, index) => {
      const coords = flatToLonLat(frame, [p.x0, p.y0, p.x1, p.y1]);
      return {
        index,
        geometry: { type: 'LineString', coordinates: coords },
        extensionPoints: coords,
        lengthMeters: Math.round(p.lengthMeters * 1000) / 1000,
        headingDegrees: hd,
        widthMeters: w,
      };
    });
    plan.metrics.crosshatchCount = hatch.passes.length;
    plan.metrics.crosshatchCoveredSquareMeters = r2(hatch.coveredSquareMeters);
    if (hatch.passes.length === 0)
      plan.warnings.push({
        code: 'crosshatches-empty',
        message:
          `useCrossHatches: no cross-hatch pass was made — nowhere do the tracks leave a stretch at the ` +
          `field's ends of at least ${r2(minLength)} m (3 × the width or 2 × the turning radius, whichever is ` +
          `longer) for one; \`crosshatches\` is empty`,
        feature: 'crosshatches',
      });
  }

  // Accepted but not planned as asked: say so instead of silently planning something else.
  const tracksIn = x.request?.tracks;
  if (tracksIn?.trackType === 'curved' && x.tracks.length > 0 && !x.tracks.some((t) => t.xy))
    plan.warnings.push({
      code: 'unsupported-track-type',
      message:
        'tracks.trackType "curved": no smooth boundary chain gave curved tracks inside the headland (warning, not ' +
        'an error): the tracks are straight',
      feature: 'tracks',
    });

  // Narrow corridors of the workable area (an opening of the whole field: not past the wall-clock cap).
  for (const c of x.hurry?.(CUT_CORRIDORS) ? [] : findNarrowCorridors(x.workable, w)) {
    const warning: PlanWarning = {
      code: 'narrow-corridor',
      message:
        `a part of the field of ${Math.round(c.areaSquareMeters)} m² is narrower than the ${w} m machine: ` +
        `no full-width pass fits there (passes of reduced width, sections off, work the strips they reach; ` +
        `\`unworked-area\` warnings list what is left)`,
      geometry: { type: 'Polygon', coordinates: c.polygon.map((r) => lonLatRing(ringToFlat(r))) },
    };
    plan.warnings.push(warning);
  }
}
