/**
 * The output stage: the plan as JSON in lon/lat — the route's segments, the tracks as driven,
 * their end nodes, the boundary, headlands, obstacles, the warnings (with where they are), the
 * optimizer's report — and the extras (output/planExtras.ts).
 */
import type { ZoneWarning } from '../route/zones.js';
import type { FieldGeometry, Plan, PlanMetrics, PlanWarning, Position, RouteSegment } from '../types.js';
import { FURROW_VERSION } from '../version.js';
import type { LocalFrame } from '../geometry/projection.js';
import { flatToLonLat, roundDeg } from '../geometry/projection.js';
import { areaOf, groupPolygons, ringToFlat } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import { pointInRing } from '../geometry/pointInRing.js';
import { polylineLength } from '../geometry/vec.js';
import { bandsAlong } from '../geometry/activeSwath.js';
import type { LocalSegment, LocalWarning } from '../turns/path.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import type { Headlands } from '../headland/generateHeadlands.js';
import { passToFlat } from '../headland/generateHeadlands.js';
import type { Track } from '../tracks/generateTracks.js';
import { zonesToPlan } from './zonesToPlan.js';
import type { LocalZone } from '../route/zones.js';

export interface PlanOutputInput {
  frame: LocalFrame;
  field: PathsD;
  obstacles: PathsD;
  input: PlanSettings;
  metrics: PlanMetrics;
  heading: Plan['heading'];
  headlandStyle: Record<string, unknown>;
  headlands: Headlands;
  tracks: Track[];
  cellOf: Int32Array;
  /** The route as driven (refill detours included). */
  segments: LocalSegment[];
  /** The route before refill detours (the tracks as driven are read from it). */
  connected: LocalSegment[];
  warnings: LocalWarning[];
  /** The route's zones (joined by transit legs), local. */
  zones: LocalZone[];
  /** The route stage's report (`plan.optimizer`). */
  optimizer: Record<string, unknown>;
  refillPoints?: unknown[];
  /** Staging area, local frame. */
  staging?: [number, number];
}

/** Warnings in lon/lat. */
export function toPlanWarnings(frame: LocalFrame, warnings: LocalWarning[]): PlanWarning[] {
  return warnings.map((wn) => {
    const pw: PlanWarning = { code: wn.code, message: wn.message };
    const z = wn as ZoneWarning;
    if (z.line) pw.geometry = { type: 'LineString', coordinates: flatToLonLat(frame, z.line) };
    else if (wn.x !== undefined && wn.y !== undefined)
      pw.geometry = { type: 'Point', coordinates: flatToLonLat(frame, [wn.x, wn.y])[0] };
    if (z.sequence !== undefined) pw.sequence = z.sequence;
    return pw;
  });
}

/**
 * A centre-line pass's sections along the piece driven (tracks/centreLine.ts), per coordinate:
 * the active width and the middle of the active band off the centre line (+ = left of the
 * direction of travel), m, to the millimetre.
 */
function activeWidths(xy: Float64Array, t: Track): { activeWidthsMeters: number[]; activeOffsetsMeters: number[] } {
  const b = bandsAlong(xy, t.xy!, t.activeRightMeters!, t.activeLeftMeters!);
  const cm = (v: number): number => Math.round(v * 1000) / 1000 || 0;
  return {
    activeWidthsMeters: Array.from(b.hi, (h, i) => cm(h - b.lo[i])),
    activeOffsetsMeters: Array.from(b.hi, (h, i) => cm((h + b.lo[i]) / 2)),
  };
}

/** The plan JSON of a route in the local frame. */
export function assemblePlan(x: PlanOutputInput): Plan {
  const { frame, input, headlands } = x;
  const m = input.machine;
  const w = m.widthMeters;
  const warnings = toPlanWarnings(frame, x.warnings);
  const route: RouteSegment[] = x.segments.map((s, i) => {
    const seg: RouteSegment = {
      sequence: i,
      type: s.type,
      coordinates: flatToLonLat(frame, s.xy),
      lengthMeters: round3(polylineLength(s.xy)),
    };
    if (s.type === 'Track' || s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland')
      seg.widthMeters =
        s.type === 'Track' && s.trackIndex !== undefined ? (x.tracks[s.trackIndex]?.widthMeters ?? w) : w;
    const t = s.type === 'Track' && s.trackIndex !== undefined ? x.tracks[s.trackIndex] : undefined;
    if (t?.xy && t.activeLeftMeters && t.activeRightMeters) Object.assign(seg, activeWidths(s.xy, t));
    if (s.turnType) seg.turnType = s.turnType;
    if (s.trackIndex !== undefined) seg.trackIndex = s.trackIndex;
    if (s.headlandIndex !== undefined) seg.headlandIndex = s.headlandIndex;
    if (s.connector) seg.connectorKind = s.connector;
    if (s.reverse) seg.reverse = true;
    return seg;
  });
  // Tracks as driven (after any trimming for turns), by index.
  const drivenTrack = new Map<number, Float64Array>();
  for (const s of x.connected)
    if (s.type === 'Track' && s.trackIndex !== undefined) drivenTrack.set(s.trackIndex, s.xy);
  const tracks = x.tracks.map((t, i) => {
    const xy = drivenTrack.get(i) ?? Float64Array.from([t.x0, t.y0, t.x1, t.y1]);
    return {
      index: i,
      line: t.line,
      cell: x.cellOf[i],
      coordinates: flatToLonLat(frame, xy),
      lengthMeters: round3(polylineLength(xy)),
      ...(t.widthMeters !== undefined ? { widthMeters: round3(t.widthMeters) } : {}),
    };
  });
  return {
    version: FURROW_VERSION,
    metrics: x.metrics,
    heading: x.heading,
    route,
    boundary: boundaryOf(frame, x.field),
    warnings,
    tracks,
    headlandStyle: x.headlandStyle,
    ...(headlands.band
      ? {
          headlandAreas: groupPolygons(headlands.band).map((rings) => ({
            type: 'Polygon',
            coordinates: rings.map((r) => ringLonLat(frame, r)),
          })),
        }
      : {}),
    headlands: headlands.passes.map((p, i) => ({
      index: i,
      type: p.type,
      passIndex: p.passIndex,
      coordinates: flatToLonLat(frame, passToFlat(p)),
    })),
    obstacles: x.obstacles.map((r) => ({ type: 'Polygon', coordinates: [ringLonLat(frame, r)] })),
    nodes: trackNodes(frame, x.tracks),
    machine: { ...m },
    headlandPasses: input.headlandPasses,
    options: input.options,
    routeOptions: input.requestedRouteOptions,
    frame: { definition: frame.definition, originLonLat: frame.originLonLat.map(roundDeg) },
    zones: zonesToPlan(x.zones, route, frame),
    optimizer: x.optimizer,
    ...(x.refillPoints ? { refillPoints: x.refillPoints } : {}),
    ...(x.staging ? { stagingArea: frame.toLonLat(x.staging[0], x.staging[1]).map(roundDeg) } : {}),
    ...(input.accessPoints.length > 0 ? { accessPoints: input.accessPoints.map((p) => [p[0], p[1]]) } : {}),
  };
}

/**
 * Candidate entry / exit nodes (routeOptions.startPointNodeIndex / endPointNodeIndex): node 2i is
 * track i's end at (x0, y0), node 2i + 1 its end at (x1, y1), whichever way the track is driven.
 */
function trackNodes(
  frame: LocalFrame,
  tracks: Track[],
): { index: number; trackIndex: number; end: 'start' | 'end'; position: Position }[] {
  const nodes: { index: number; trackIndex: number; end: 'start' | 'end'; position: Position }[] = [];
  tracks.forEach((tr, i) => {
    nodes.push({ index: nodes.length, trackIndex: i, end: 'start', position: flatToLonLat(frame, [tr.x0, tr.y0])[0] });
    nodes.push({ index: nodes.length, trackIndex: i, end: 'end', position: flatToLonLat(frame, [tr.x1, tr.y1])[0] });
  });
  return nodes;
}

function ringLonLat(frame: LocalFrame, ring: { x: number; y: number }[]): Position[] {
  return flatToLonLat(frame, ringToFlat(ring));
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Field polygons (local) → GeoJSON Polygon / MultiPolygon in lon/lat, rings in RFC 7946 order. */
function boundaryOf(frame: LocalFrame, field: PathsD): FieldGeometry {
  // Group holes with their shells by containment of a vertex.
  const shells: PathsD = [],
    holes: PathsD = [];
  for (const r of field) (areaOf([r]) > 0 ? shells : holes).push(r);
  const polys: Position[][][] = shells.map((s) => [ringLonLat(frame, s)]);
  for (const h of holes) {
    const p = h[0];
    const k = shells.findIndex((s) => pointInRing(p.x, p.y, s));
    if (k >= 0) polys[k].push(ringLonLat(frame, h));
  }
  return polys.length === 1 ? { type: 'Polygon', coordinates: polys[0] } : { type: 'MultiPolygon', coordinates: polys };
}
