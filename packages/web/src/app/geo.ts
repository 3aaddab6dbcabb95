/**
 * Map geometry for the plan view: a local metric projection of lon/lat (equirectangular
 * about the data's centre, good to well under a pixel at field scale), bounds and SVG paths.
 * Pure functions, no DOM: unit-tested in Node.
 */
export type Position = [number, number];

export interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

export interface Feature {
  type: 'Feature';
  geometry: Geometry | null;
  properties: Record<string, unknown> | null;
}

export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
  metrics?: Record<string, unknown>;
  version?: string;
  [extra: string]: unknown;
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

const EARTH_RADIUS_METERS = 6_371_008.8;
const DEG_TO_RAD = Math.PI / 180;

/** lon/lat → planar meters (x east, y north) about a fixed origin. */
export interface Projection {
  originLonDegrees: number;
  originLatDegrees: number;
  project(p: Position): Position;
}

export function makeProjection(originLonDegrees: number, originLatDegrees: number): Projection {
  const kx = EARTH_RADIUS_METERS * DEG_TO_RAD * Math.cos(originLatDegrees * DEG_TO_RAD);
  const ky = EARTH_RADIUS_METERS * DEG_TO_RAD;
  return {
    originLonDegrees,
    originLatDegrees,
    project: (p) => [(p[0] - originLonDegrees) * kx, (p[1] - originLatDegrees) * ky],
  };
}

/** Calls `visit` for every position of a geometry (any GeoJSON type, nested collections too). */
export function forEachPosition(geometry: Geometry | null | undefined, visit: (p: Position) => void): void {
  if (!geometry) return;
  if (geometry.type === 'GeometryCollection') {
    for (const g of geometry.geometries ?? []) forEachPosition(g, visit);
    return;
  }
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (c.length >= 2 && typeof c[0] === 'number' && typeof c[1] === 'number') {
      visit(c as Position);
      return;
    }
    for (const child of c) walk(child);
  };
  walk(geometry.coordinates);
}

export function emptyBounds(): Bounds {
  return { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
}

export function isEmptyBounds(b: Bounds): boolean {
  return !(b.minX <= b.maxX && b.minY <= b.maxY);
}

export function extendBounds(b: Bounds, p: Position): void {
  if (p[0] < b.minX) b.minX = p[0];
  if (p[0] > b.maxX) b.maxX = p[0];
  if (p[1] < b.minY) b.minY = p[1];
  if (p[1] > b.maxY) b.maxY = p[1];
}

/** lon/lat bounds of geometries. */
export function lonLatBounds(geometries: Iterable<Geometry | null | undefined>): Bounds {
  const b = emptyBounds();
  for (const g of geometries) forEachPosition(g, (p) => extendBounds(b, p));
  return b;
}

/** A projection centred on the geometries' lon/lat bounds (undefined when there are no positions). */
export function projectionFor(geometries: Iterable<Geometry | null | undefined>): Projection | undefined {
  const b = lonLatBounds(geometries);
  if (isEmptyBounds(b)) return undefined;
  return makeProjection((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2);
}

function fmt(v: number): string {
  // Centimetre precision keeps the SVG small and exact enough at any useful zoom.
  return (Math.round(v * 100) / 100).toString();
}

/** SVG path data of a polyline in projected meters; y is flipped so north is up. */
export function linePath(coords: Position[], projection: Projection): string {
  let d = '';
  for (let i = 0; i < coords.length; i++) {
    const [x, y] = projection.project(coords[i]);
    d += `${i === 0 ? 'M' : 'L'}${fmt(x)} ${fmt(-y)}`;
  }
  return d;
}

/** SVG path data of polygon rings (outer + holes; draw with fill-rule evenodd). */
export function ringsPath(rings: Position[][], projection: Projection): string {
  return rings.map((r) => (r.length > 0 ? `${linePath(r, projection)}Z` : '')).join('');
}

/** SVG path data of any line or polygon geometry; points are not paths (empty string). */
export function geometryPath(geometry: Geometry | null | undefined, projection: Projection): string {
  if (!geometry) return '';
  const c = geometry.coordinates as unknown;
  switch (geometry.type) {
    case 'LineString':
      return linePath(c as Position[], projection);
    case 'MultiLineString':
      return (c as Position[][]).map((l) => linePath(l, projection)).join('');
    case 'Polygon':
      return ringsPath(c as Position[][], projection);
    case 'MultiPolygon':
      return (c as Position[][][]).map((p) => ringsPath(p, projection)).join('');
    case 'GeometryCollection':
      return (geometry.geometries ?? []).map((g) => geometryPath(g, projection)).join('');
    default:
      return '';
  }
}

/** Points of a geometry (Point / MultiPoint), for markers. */
export function geometryPoints(geometry: Geometry | null | undefined): Position[] {
  if (!geometry) return [];
  if (geometry.type === 'Point') return [geometry.coordinates as Position];
  if (geometry.type === 'MultiPoint') return geometry.coordinates as Position[];
  if (geometry.type === 'GeometryCollection') return (geometry.geometries ?? []).flatMap(geometryPoints);
  return [];
}

/** Projected bounds (y flipped, as drawn) of geometries. */
export function projectedBounds(geometries: Iterable<Geometry | null | undefined>, projection: Projection): Bounds {
  const b = emptyBounds();
  for (const g of geometries) {
    forEachPosition(g, (p) => {
      const [x, y] = projection.project(p);
      extendBounds(b, [x, -y]);
    });
  }
  return b;
}

/** A view box: what part of the projected plane the SVG shows. */
export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A view box showing `b` with a margin, at the aspect ratio of the viewport. */
export function fitViewBox(b: Bounds, viewportWidth: number, viewportHeight: number, marginRatio = 0.06): ViewBox {
  const w = Math.max(b.maxX - b.minX, 1);
  const h = Math.max(b.maxY - b.minY, 1);
  const cx = (b.minX + b.maxX) / 2;
  const cy = (b.minY + b.maxY) / 2;
  const aspect = viewportWidth > 0 && viewportHeight > 0 ? viewportWidth / viewportHeight : 1;
  let width = w * (1 + 2 * marginRatio);
  let height = h * (1 + 2 * marginRatio);
  if (width / height > aspect) height = width / aspect;
  else width = height * aspect;
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

/** Zooms a view box by `factor` (> 1 zooms in) keeping the point (px, py) in place. */
export function zoomViewBox(v: ViewBox, factor: number, px: number, py: number): ViewBox {
  const width = v.width / factor;
  const height = v.height / factor;
  return { x: px - (px - v.x) / factor, y: py - (py - v.y) / factor, width, height };
}

/** Moves a view box by (dx, dy) in projected meters. */
export function panViewBox(v: ViewBox, dx: number, dy: number): ViewBox {
  return { x: v.x + dx, y: v.y + dy, width: v.width, height: v.height };
}

/** Area of polygon rings in m² under a projection (outer minus holes), for display. */
export function ringsAreaSquareMeters(rings: Position[][], projection: Projection): number {
  let total = 0;
  rings.forEach((ring, i) => {
    let a = 0;
    for (let k = 0; k + 1 < ring.length; k++) {
      const [x1, y1] = projection.project(ring[k]);
      const [x2, y2] = projection.project(ring[k + 1]);
      a += x1 * y2 - x2 * y1;
    }
    total += (i === 0 ? 1 : -1) * Math.abs(a / 2);
  });
  return total;
}

/** The holes of a Polygon / MultiPolygon as Polygons. */
export function holesOf(g: Geometry): Geometry[] {
  const polys =
    g.type === 'Polygon'
      ? [g.coordinates as Position[][]]
      : g.type === 'MultiPolygon'
        ? (g.coordinates as Position[][][])
        : [];
  return polys.flatMap((rings) => rings.slice(1).map((ring) => ({ type: 'Polygon', coordinates: [ring] })));
}

/** A closed ring with corner `i` at `p` (corner 0 moves the closing corner with it). */
export function moveCorner(ring: readonly Position[], i: number, p: Position): Position[] {
  const out = ring.map((q) => [q[0], q[1]] as Position);
  out[i] = [p[0], p[1]];
  if (i === 0) out[out.length - 1] = [p[0], p[1]];
  return out;
}

/** A closed ring with a new corner `p` between corners `i` and `i + 1`. */
export function insertCorner(ring: readonly Position[], i: number, p: Position): Position[] {
  const out = ring.map((q) => [q[0], q[1]] as Position);
  out.splice(i + 1, 0, [p[0], p[1]]);
  return out;
}
