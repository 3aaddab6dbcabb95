/**
 * A plan as AgOpenGPS field folders (the files as AgOpenGPS's GPS/IO/*.cs reads and writes them):
 * Field.txt (origin), Boundary.txt (fence rings), Headland.txt (inner edge of the headland),
 * TrackLines.txt (AB lines and curves) and RecPath.txt (the whole route, to drive back). AgOpenGPS
 * keeps one outer fence per field: a MultiPolygon is written as one folder per polygon, each with
 * the whole route as its recorded path.
 */
import type { FieldGeometry, Plan, Position, Ring, RouteSegment } from '@furrow/core';
import { contextFeaturesOf, polygonsOf, routeInOrder } from '@furrow/format-geojson';
import JSZip from 'jszip';
import {
  densifyLine,
  densifyRing,
  inRing,
  isStraight,
  lineHeadings,
  meanHeading,
  offsetRing,
  oriented,
  ringHeadings,
  signedAreaTwice,
} from './geometry.js';
import { headingRadians, toLocal, type LocalPlane, type LocalPoint } from './localPlane.js';

/** TrackMode values of AgOpenGPS (GPS/Classes/CTrack.cs). */
export const TRACK_MODE_AB = 2;
export const TRACK_MODE_CURVE = 4;
/** Largest spacing of curve points, meters (AgOpenGPS spaces recorded curves at 1.6 m). */
export const CURVE_POINT_SPACING_METERS = 1.6;
/** Fewest points of a curve track (older TrackLines loaders need at least 4). */
export const CURVE_MIN_POINTS = 4;

export interface AgOpenGpsOptions {
  /** Field name: the folder's name and Field.txt's third line (default "field"). */
  field?: string;
  /** Field.txt's date line (default 2000-01-01: the output depends on the plan alone). */
  date?: Date;
}

/** One fence ring as written: a hole may be marked drive-through (a passable zone). */
export interface FenceRing {
  ring: Ring;
  driveThrough: boolean;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** C#'s `yyyy-MMMM-dd hh:mm:ss tt` in the invariant culture, as AgOpenGPS dates Field.txt (UTC here). */
export function fieldDate(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const hours = date.getUTCHours();
  const hours12 = hours % 12 === 0 ? 12 : hours % 12;
  return (
    `${date.getUTCFullYear()}-${MONTHS[date.getUTCMonth()]}-${two(date.getUTCDate())} ` +
    `${two(hours12)}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} ${hours < 12 ? 'AM' : 'PM'}`
  );
}

/** `Math.Round(v, decimals).ToString(InvariantCulture)`: no trailing zeros, no "-0". */
export function formatNumber(value: number, decimals: number): string {
  const s = Number(value.toFixed(decimals)).toString();
  return s === '-0' ? '0' : s;
}

const en = (p: LocalPoint): string => `${formatNumber(p.eastingMeters, 3)},${formatNumber(p.northingMeters, 3)}`;
const enh = (p: LocalPoint, h: number): string => `${en(p)},${formatNumber(h, 5)}`;

/** The origin of a polygon's folder: the centre of its outer ring's bounding box, to 1e-8°. */
function originOf(outer: readonly Position[]): LocalPlane {
  let minLon = Infinity,
    maxLon = -Infinity,
    minLat = Infinity,
    maxLat = -Infinity;
  for (const [lon, lat] of outer) {
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
  }
  return {
    originLatitudeDegrees: Number(((minLat + maxLat) / 2).toFixed(8)),
    originLongitudeDegrees: Number(((minLon + maxLon) / 2).toFixed(8)),
  };
}

/** Field.txt: exactly its 9 lines. */
export function fieldTxt(name: string, plane: LocalPlane, date: Date): string {
  const origin = `${plane.originLatitudeDegrees},${plane.originLongitudeDegrees}`;
  return [fieldDate(date), '$FieldDir', name, '$Offsets', '0,0', 'Convergence', '0', 'StartFix', origin, ''].join('\n');
}

/** A lon/lat ring (closed or not) in the plane, without its closing point. */
function localRing(plane: LocalPlane, ring: readonly Position[]): LocalPoint[] {
  const open =
    ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1]
      ? ring.slice(0, -1)
      : ring;
  return open.map((p) => toLocal(plane, p));
}

/** AgOpenGPS's fence spacing (CFenceLine.FixFenceLine): 1.1 / 2.2 / 3.3 m by area, halved for holes. */
export function fenceSpacingMeters(outerAreaSquareMeters: number, isHole: boolean): number {
  const spacing = outerAreaSquareMeters < 200_000 ? 1.1 : outerAreaSquareMeters < 400_000 ? 2.2 : 3.3;
  return isHole ? spacing / 2 : spacing;
}

/** The fence rings in the plane: outer clockwise, holes counter-clockwise (as AgOpenGPS turns them), densified. */
function fenceRings(plane: LocalPlane, rings: readonly FenceRing[]): LocalPoint[][] {
  const outer = localRing(plane, rings[0].ring);
  const area = Math.abs(signedAreaTwice(outer)) / 2;
  return rings.map((r, i) => densifyRing(oriented(localRing(plane, r.ring), i === 0), fenceSpacingMeters(area, i > 0)));
}

/** Boundary.txt: `$Boundary`, then per ring its drive-through flag, the point count and `E,N,H` lines. */
export function boundaryTxt(rings: readonly FenceRing[], local: readonly LocalPoint[][]): string {
  const out = ['$Boundary'];
  local.forEach((ring, i) => {
    out.push(rings[i].driveThrough ? 'True' : 'False', String(ring.length));
    const headings = ringHeadings(ring);
    ring.forEach((p, j) => out.push(enh(p, headings[j])));
  });
  return out.join('\n') + '\n';
}

/**
 * Headland.txt: per fence ring the inner edge of its headland (the outer ring shrunk by the
 * exterior headland's depth, a hole grown by the interior one's), or 0 points; only the header
 * when the outer ring has none (as AgOpenGPS writes it).
 */
export function headlandTxt(
  rings: readonly FenceRing[],
  local: readonly LocalPoint[][],
  depths: { exteriorMeters: number; interiorMeters: number },
): string {
  const out = ['$Headland'];
  const lines = local.map((ring, i) => {
    if (rings[i].driveThrough) return undefined;
    const depth = i === 0 ? -depths.exteriorMeters : depths.interiorMeters;
    if (depth === 0) return i === 0 ? undefined : ring;
    const edge = offsetRing(ring, depth);
    return edge && densifyRing(oriented(edge, i === 0), 1.1);
  });
  if (!lines[0]) return out.join('\n') + '\n';
  for (const line of lines) {
    out.push(String(line?.length ?? 0));
    if (!line) continue;
    const headings = ringHeadings(line);
    line.forEach((p, j) => out.push(enh(p, headings[j])));
  }
  return out.join('\n') + '\n';
}

/** A line for TrackLines.txt: a polyline, or one point and a heading (an A+ line). */
export interface TrackLine {
  name: string;
  coordinates: Position[];
  /** Degrees clockwise from north, for an A+ line (one point). */
  headingDegrees?: number;
}

/** Length of the AB line written for an A+ line (a point and a heading), meters. */
export const A_PLUS_LENGTH_METERS = 100;

/** An A+ line's points: A, and B `A_PLUS_LENGTH_METERS` along the heading. */
function aPlusPoints(a: LocalPoint, headingDegrees: number): LocalPoint[] {
  const h = (headingDegrees * Math.PI) / 180;
  const b = {
    eastingMeters: a.eastingMeters + A_PLUS_LENGTH_METERS * Math.sin(h),
    northingMeters: a.northingMeters + A_PLUS_LENGTH_METERS * Math.cos(h),
  };
  return [a, b];
}

/** TrackLines.txt: AB lines (mode 2, no points) when straight within 5 cm, curves (mode 4, ≥ 4 points) otherwise. */
export function trackLinesTxt(plane: LocalPlane, lines: readonly TrackLine[]): string {
  const out = ['$TrackLines'];
  for (const line of lines) {
    let local = dedupe(line.coordinates.map((p) => toLocal(plane, p)));
    if (local.length === 1 && typeof line.headingDegrees === 'number')
      local = aPlusPoints(local[0], line.headingDegrees);
    if (local.length < 2) continue;
    const a = local[0];
    const b = local[local.length - 1];
    const straight = local.length === 2 || isStraight(local);
    if (straight && (a.eastingMeters !== b.eastingMeters || a.northingMeters !== b.northingMeters)) {
      out.push(line.name, formatNumber(headingRadians(a, b), 5), en(a), en(b), '0', String(TRACK_MODE_AB), 'True', '0');
      continue;
    }
    const points = densifyLine(local, CURVE_POINT_SPACING_METERS, CURVE_MIN_POINTS);
    const headings = lineHeadings(points);
    out.push(line.name, formatNumber(meanHeading(headings), 5), en(a), en(b), '0', String(TRACK_MODE_CURVE));
    out.push('True', String(points.length));
    points.forEach((p, j) => out.push(enh(p, headings[j])));
  }
  return out.join('\n') + '\n';
}

function dedupe(points: LocalPoint[]): LocalPoint[] {
  return points.filter(
    (p, i) =>
      i === 0 ||
      Math.abs(p.eastingMeters - points[i - 1].eastingMeters) >= 5e-4 ||
      Math.abs(p.northingMeters - points[i - 1].northingMeters) >= 5e-4,
  );
}

const WORKING = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);

/** Speeds of the plan's machine, km/h: working, in turns and connectors, in transport. */
function speedsKmh(plan: Plan): { working: number; turning: number; transport: number } {
  const m = (plan.machine ?? {}) as Record<string, unknown>;
  const kmh = (v: unknown, fallback: number): number => (typeof v === 'number' && v > 0 ? v : fallback) * 3.6;
  return {
    working: kmh(m.workingSpeedMetersPerSecond, 2.5),
    turning: kmh(m.turningSpeedMetersPerSecond, 1.5),
    transport: kmh(m.transportSpeedMetersPerSecond, 4),
  };
}

/**
 * RecPath.txt: the route pieces in driving order as one path, `E,N,H,speed km/h,autoBtn`; the
 * heading points to the next point, autoBtn (section Auto) is True on working passes.
 */
export function recPathTxt(plane: LocalPlane, pieces: readonly RouteSegment[], plan: Plan): string {
  const speeds = speedsKmh(plan);
  const points: { p: LocalPoint; speed: number; auto: boolean }[] = [];
  for (const piece of pieces) {
    const auto = WORKING.has(piece.type);
    const speed = auto ? speeds.working : piece.connectorKind === 'transport' ? speeds.transport : speeds.turning;
    for (const c of piece.coordinates) {
      const p = toLocal(plane, c);
      const last = points[points.length - 1];
      if (last && Math.abs(last.p.eastingMeters - p.eastingMeters) < 5e-4) {
        if (Math.abs(last.p.northingMeters - p.northingMeters) < 5e-4) {
          Object.assign(last, { speed, auto });
          continue;
        }
      }
      points.push({ p, speed, auto });
    }
  }
  const out = ['$RecPath', String(points.length)];
  points.forEach((x, i) => {
    const next = points[Math.min(i + 1, points.length - 1)];
    const prev = points[Math.max(i - 1, 0)];
    const h = i + 1 < points.length ? headingRadians(x.p, next.p) : headingRadians(prev.p, x.p);
    out.push(`${enh(x.p, h)},${formatNumber(x.speed, 1)},${x.auto ? 'True' : 'False'}`);
  });
  return out.join('\n') + '\n';
}

/** Exterior and interior headland depths of a plan, meters: distinct passes × working width. */
export function headlandDepths(plan: Plan): { exteriorMeters: number; interiorMeters: number } {
  const machine = (plan.machine ?? {}) as { widthMeters?: unknown };
  const pass = plan.route.find((s) => WORKING.has(s.type) && typeof s.widthMeters === 'number');
  const width = typeof machine.widthMeters === 'number' ? machine.widthMeters : (pass?.widthMeters ?? 0);
  const rings = Array.isArray(plan.headlands) ? (plan.headlands as { type?: unknown; passIndex?: unknown }[]) : [];
  const passes = (type: string): number => new Set(rings.filter((h) => h?.type === type).map((h) => h.passIndex)).size;
  const exterior = passes('ExteriorHeadland') || (typeof plan.headlandPasses === 'number' ? plan.headlandPasses : 0);
  const hasExteriorPasses = plan.route.some((s) => s.type === 'ExteriorHeadland');
  return {
    exteriorMeters: hasExteriorPasses ? exterior * width : 0,
    interiorMeters: passes('InteriorHeadland') * width,
  };
}

/** The plan's passable zones (drive-through holes in AgOpenGPS). */
function passableRings(plan: Plan): Ring[] {
  const obstacles = Array.isArray(plan.obstacles) ? (plan.obstacles as Record<string, unknown>[]) : [];
  const out: Ring[] = [];
  for (const o of obstacles) {
    const g = (o?.geometry ?? o) as { type?: unknown; coordinates?: unknown };
    if (o?.passable === true && g?.type === 'Polygon') out.push((g.coordinates as Ring[])[0]);
  }
  return out;
}

/** Index of the polygon holding a position (its outer ring), else `fallback`. */
function partOf(polygons: readonly Ring[][], p: Position | undefined, fallback: number): number {
  if (!p) return fallback;
  const i = polygons.findIndex((rings) => inRing(p, rings[0]));
  return i < 0 ? fallback : i;
}

const middle = (line: readonly Position[]): Position | undefined => line[Math.floor(line.length / 2)];

/** Folder names: the field's name, or `<name> 1`, `<name> 2`, … for the polygons of a MultiPolygon. */
function folderNames(name: string, count: number): string[] {
  const safe =
    name
      .replace(/[<>:"/\\|?*\u0000-\u001f]/g, '_')
      .trim()
      .slice(0, 64) || 'field';
  return count === 1 ? [safe] : Array.from({ length: count }, (_, i) => `${safe} ${i + 1}`);
}

/** The lines of a plan for TrackLines.txt: its guidance lines, then every working pass in driving order. */
function planLines(plan: Plan, route: readonly RouteSegment[]): TrackLine[] {
  const lines: TrackLine[] = [];
  for (const f of contextFeaturesOf(plan)) {
    if (f.properties.type !== 'GuidanceLine') continue;
    const name = `furrow ${typeof f.properties.name === 'string' ? f.properties.name : `Guidance ${lines.length + 1}`}`;
    const heading = f.properties.headingDegrees;
    if (f.geometry.type === 'LineString') lines.push({ name, coordinates: f.geometry.coordinates as Position[] });
    else if (f.geometry.type === 'Point' && typeof heading === 'number')
      lines.push({ name, coordinates: [f.geometry.coordinates as Position], headingDegrees: heading });
  }
  let tracks = 0;
  let headland = 0;
  for (const s of route) {
    if (s.type === 'Track') lines.push({ name: `Track ${++tracks}`, coordinates: s.coordinates });
    else if (WORKING.has(s.type)) lines.push({ name: `Headland ${++headland}`, coordinates: s.coordinates });
  }
  return lines;
}

/**
 * The plan as AgOpenGPS field folders, files by relative path (`<field>/Field.txt`, …): one folder
 * for a Polygon, one per polygon for a MultiPolygon, each with the lines that lie in it and the
 * whole route (transit legs included) as its RecPath.
 */
export function planToAgOpenGps(plan: Plan, options: AgOpenGpsOptions = {}): Record<string, string> {
  const date = options.date ?? new Date(Date.UTC(2000, 0, 1));
  const polygons = polygonsOf(plan.boundary as FieldGeometry);
  const names = folderNames(options.field ?? 'field', polygons.length);
  const route = routeInOrder(plan);
  const lines = planLines(plan, route);
  const passable = passableRings(plan);
  const depths = headlandDepths(plan);
  const files: Record<string, string> = {};
  polygons.forEach((rings, i) => {
    const plane = originOf(rings[0]);
    const fence: FenceRing[] = rings.map((ring) => ({ ring, driveThrough: false }));
    for (const ring of passable) if (partOf(polygons, ring[0], -1) === i) fence.push({ ring, driveThrough: true });
    const local = fenceRings(plane, fence);
    const dir = names[i];
    files[`${dir}/Field.txt`] = fieldTxt(dir, plane, date);
    files[`${dir}/Boundary.txt`] = boundaryTxt(fence, local);
    files[`${dir}/Headland.txt`] = headlandTxt(fence, local, depths);
    const own = lines.filter((l) => partOf(polygons, middle(l.coordinates), 0) === i);
    files[`${dir}/TrackLines.txt`] = trackLinesTxt(plane, own);
    // the whole route in every folder: the job can be driven back from whichever part is opened
    files[`${dir}/RecPath.txt`] = recPathTxt(plane, route, plan);
  });
  return files;
}

/**
 * Field boundaries (no plan) as AgOpenGPS folders: Field.txt, Boundary.txt and empty Headland,
 * TrackLines and RecPath files; passable zones become drive-through rings.
 */
export function boundaryToAgOpenGps(
  boundary: { geometry: FieldGeometry; passableZones?: { coordinates: Ring[] }[] },
  options: AgOpenGpsOptions = {},
): Record<string, string> {
  const polygons = polygonsOf(boundary.geometry);
  const names = folderNames(options.field ?? 'field', polygons.length);
  const date = options.date ?? new Date(Date.UTC(2000, 0, 1));
  const files: Record<string, string> = {};
  polygons.forEach((rings, i) => {
    const plane = originOf(rings[0]);
    const fence: FenceRing[] = rings.map((ring) => ({ ring, driveThrough: false }));
    for (const zone of boundary.passableZones ?? [])
      if (partOf(polygons, zone.coordinates[0][0], -1) === i)
        fence.push({ ring: zone.coordinates[0], driveThrough: true });
    const dir = names[i];
    files[`${dir}/Field.txt`] = fieldTxt(dir, plane, date);
    files[`${dir}/Boundary.txt`] = boundaryTxt(fence, fenceRings(plane, fence));
    files[`${dir}/Headland.txt`] = '$Headland\n';
    files[`${dir}/TrackLines.txt`] = '$TrackLines\n';
    files[`${dir}/RecPath.txt`] = '$RecPath\n0\n';
  });
  return files;
}

/** The folders zipped, as they go into AgOpenGPS's `Fields` folder. */
export async function zipAgOpenGps(files: Record<string, string | Uint8Array>): Promise<Uint8Array> {
  const zip = new JSZip();
  const date = new Date(Date.UTC(2020, 0, 1));
  for (const [path, data] of Object.entries(files)) zip.file(path, data, { date });
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', platform: 'UNIX' });
}
