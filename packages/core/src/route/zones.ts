/**
 * Zones: the pieces of one plan that the machine works without leaving the field. Parts the
 * machine cannot join inside the field (a multi-polygon's parts, parts joined only by necks
 * narrower than the machine) are joined by declared transit legs (`connectorKind: "transport"`),
 * and every transit leg carries a warning with its place. The route is split into zones at its
 * transit legs; each zone has its own start and end.
 *
 * This stage also keeps the rule "never off the field": a join that nothing fitted and that was
 * drawn straight across the boundary (no way inside the field was found between its ends) is a
 * transit leg too, declared and warned; any other route piece found off the field is warned with
 * its place. With access points (gates), transit legs run through the gate nearest to where the
 * machine leaves the zone and the one nearest to where it enters the next, and each zone names
 * the gates nearest its start and end.
 */
import { Region } from '../geometry/region.js';
import { areaOf, groupPolygons, offsetPolygons, shellCount } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import { outsideLength } from '../geometry/outsideLength.js';
import { densify, hypot, polylineLength } from '../geometry/vec.js';
import type { LocalSegment, LocalWarning } from '../turns/path.js';

/** Route geometry closer to the field than this counts as inside (checkPlan's tolerance). */
const OFF_FIELD_TOLERANCE_METERS = 0.1;

export interface LocalPoint {
  x: number;
  y: number;
}

export interface LocalZone {
  index: number;
  /** Route indices of the zone's first and last piece. */
  first: number;
  last: number;
  start: LocalPoint;
  end: LocalPoint;
  workingMeters: number;
  /** Index of the access point nearest the zone's start / end, with the distance to it. */
  entry?: { accessPoint: number; meters: number };
  exit?: { accessPoint: number; meters: number };
}

export interface ZonedRoute {
  segments: LocalSegment[];
  zones: LocalZone[];
  warnings: ZoneWarning[];
}

export interface ZoneWarning extends LocalWarning {
  /** The route piece the warning is about. */
  sequence?: number;
  /** Its geometry (flat xy), when the place is a line. */
  line?: Float64Array;
}

const isWork = (s: LocalSegment): boolean =>
  s.type === 'Track' || s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland';
const leavesByDesign = (s: LocalSegment): boolean =>
  s.type === 'Connector' && (s.connector === 'staging' || s.connector === 'refill');

function nearest(
  points: readonly LocalPoint[],
  x: number,
  y: number,
): { accessPoint: number; meters: number } | undefined {
  let best: { accessPoint: number; meters: number } | undefined;
  points.forEach((p, i) => {
    const d = hypot(p.x - x, p.y - y);
    if (!best || d < best.meters) best = { accessPoint: i, meters: d };
  });
  return best;
}

/** The leg redrawn through the gates nearest its two ends: straight stretches, points every 0.5 m. */
function throughGates(xy: Float64Array, gates: readonly LocalPoint[]): Float64Array {
  const n = xy.length;
  const a = nearest(gates, xy[0], xy[1]),
    b = nearest(gates, xy[n - 2], xy[n - 1]);
  if (!a || !b) return xy;
  const ga = gates[a.accessPoint],
    gb = gates[b.accessPoint];
  const pts = [xy[0], xy[1], ga.x, ga.y];
  if (b.accessPoint !== a.accessPoint) pts.push(gb.x, gb.y);
  pts.push(xy[n - 2], xy[n - 1]);
  return densify(pts, 0.5);
}

function firstOutside(region: Region, xy: Float64Array): LocalPoint {
  for (let i = 0; i < xy.length; i += 2)
    if (!region.contains(xy[i], xy[i + 1]) && region.distanceToEdge(xy[i], xy[i + 1]) > OFF_FIELD_TOLERANCE_METERS)
      return { x: xy[i], y: xy[i + 1] };
  return { x: xy[0], y: xy[1] };
}

/**
 * Which part of the field a point lies in, where the field falls apart for a machine of this width
 * (eroded by half the width less 25 cm): parts joined only by necks narrower than the machine.
 * Parts under 5 % of the eroded field are not told apart (-1, like points outside every part).
 * Undefined when the field does not fall apart. `rings`: the field eroded, the region's own or,
 * for a dense boundary, the field simplified (geometry/simplifyBoundary.ts: a neck is told within
 * its tolerance, at a fraction of the offset's cost).
 */
export function machineParts(
  region: Region,
  widthMeters: number,
  rings: PathsD = region.rings(),
): ((x: number, y: number) => number) | undefined {
  const eroded = offsetPolygons(rings, -Math.max(0.1, widthMeters / 2 - 0.25), 0.05);
  if (shellCount(eroded) < 2) return undefined;
  const parts = groupPolygons(eroded);
  const areas = parts.map((p) => areaOf(p));
  const total = areas.reduce((a, b) => a + b, 0);
  const regions = parts.map((p) => new Region(p));
  return (x, y) => {
    const k = regions.findIndex((r) => r.contains(x, y));
    return k >= 0 && areas[k] >= 0.05 * total ? k : -1;
  };
}

/** Splits the route into zones at its transit legs, declaring and warning every leg (see the file's comment). */
export function zoneRoute(
  input: LocalSegment[],
  region: Region,
  widthMeters: number,
  accessPoints: readonly LocalPoint[] = [],
  partsField?: PathsD,
): ZonedRoute {
  const warnings: ZoneWarning[] = [];
  const segments = input.map((s) => ({ ...s }));
  const partOf = machineParts(region, widthMeters, partsField);
  segments.forEach((s, i) => {
    if (isWork(s) || leavesByDesign(s) || s.connector === 'transport') return;
    if (partOf && s.xy.length >= 4) {
      // Through a neck narrower than the machine: the machine cannot pass it inside the field.
      const a = partOf(s.xy[0], s.xy[1]),
        b = partOf(s.xy[s.xy.length - 2], s.xy[s.xy.length - 1]);
      if (a >= 0 && b >= 0 && a !== b) {
        s.type = 'Connector';
        s.connector = 'transport';
        return;
      }
    }
    const off = outsideLength(region, s.xy, OFF_FIELD_TOLERANCE_METERS);
    if (off <= 0) return;
    if (s.type === 'Connector' && s.connector === 'unfitted') {
      // No way inside the field was found between its ends: a transit leg between two zones.
      s.connector = 'transport';
      return;
    }
    const p = firstOutside(region, s.xy);
    warnings.push({
      code: 'route-leaves-field',
      message:
        `route piece ${i} (${s.type}${s.connector ? `, ${s.connector}` : ''}) runs ${off.toFixed(1)} m ` +
        `outside the field; the machine cannot drive it as planned`,
      x: p.x,
      y: p.y,
      sequence: i,
    });
  });
  const zones: LocalZone[] = [];
  let first = 0;
  const close = (last: number): void => {
    if (last < first) return;
    const a = segments[first].xy,
      b = segments[last].xy;
    let work = 0;
    for (let k = first; k <= last; k++) if (isWork(segments[k])) work += polylineLength(segments[k].xy);
    const zone: LocalZone = {
      index: zones.length,
      first,
      last,
      start: { x: a[0], y: a[1] },
      end: { x: b[b.length - 2], y: b[b.length - 1] },
      workingMeters: work,
    };
    const entry = nearest(accessPoints, zone.start.x, zone.start.y),
      exit = nearest(accessPoints, zone.end.x, zone.end.y);
    if (entry) zone.entry = entry;
    if (exit) zone.exit = exit;
    zones.push(zone);
  };
  segments.forEach((s, i) => {
    if (s.type !== 'Connector' || s.connector !== 'transport') return;
    close(i - 1);
    first = i + 1;
    if (accessPoints.length > 0) s.xy = throughGates(s.xy, accessPoints);
    delete s.turnType;
    const length = polylineLength(s.xy);
    const off = outsideLength(region, s.xy, OFF_FIELD_TOLERANCE_METERS);
    warnings.push({
      code: 'transit-leg',
      message:
        `the route leaves the field between zone ${zones.length - 1} and zone ${zones.length}: a transit ` +
        `leg of ${length.toFixed(0)} m (${off.toFixed(0)} m of it outside the ` +
        `field${accessPoints.length > 0 ? ', through the nearest access points' : ''}) joins parts the machine ` +
        `cannot join inside the field (separate parts, or parts joined only by a neck narrower than the ` +
        `machine); drive it on a way you may use`,
      x: s.xy[0],
      y: s.xy[1],
      sequence: i,
      line: s.xy,
    });
  });
  close(segments.length - 1);
  return { segments, zones, warnings };
}
