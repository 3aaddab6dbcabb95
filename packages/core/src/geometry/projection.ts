/**
 * Local metric frame: a transverse Mercator (scale factor 1) centred on the field, so that
 * planar x/y in meters are within micrometers of ground distances over a field's extent.
 * lon/lat exist only at the edges of the pipeline: `toLocalFrame` in, `fromLocalFrame` out.
 */
import proj4 from 'proj4';
import type { Position } from '../types.js';

export interface LocalFrame {
  /** Centre of the projection, [lon, lat] degrees. */
  readonly originLonLat: Position;
  /** The proj4 definition used (for reports). */
  readonly definition: string;
  toLocal(lon: number, lat: number): [number, number];
  toLonLat(x: number, y: number): Position;
}

/** A frame centred on the bounding-box centre of the given positions. */
export function createLocalFrame(positions: Iterable<Position>): LocalFrame {
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (const p of positions) {
    if (p[0] < minLon) minLon = p[0];
    if (p[0] > maxLon) maxLon = p[0];
    if (p[1] < minLat) minLat = p[1];
    if (p[1] > maxLat) maxLat = p[1];
  }
  const lon0 = (minLon + maxLon) / 2;
  const lat0 = (minLat + maxLat) / 2;
  const definition = `+proj=tmerc +lat_0=${lat0} +lon_0=${lon0} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`;
  const conv = proj4('EPSG:4326', definition);
  // proj4's converter between these two goes through its generic transform (point checks, axis and datum
  // steps that are no-ops here: the frame has no datum, no prime meridian, no unit factor, 'enu' axes) to the
  // projection's own forward and inverse in radians; called directly they give the same numbers, without
  // the per-point objects (a plan's every output point is projected). Non-finite input keeps proj4's error.
  const projection = new proj4.Proj(definition);
  return {
    originLonLat: [lon0, lat0],
    definition,
    toLocal(lon, lat) {
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) return conv.forward([lon, lat]) as [number, number];
      const r = projection.forward({ x: lon * DEG_TO_RAD, y: lat * DEG_TO_RAD });
      return r ? [r.x, r.y] : (conv.forward([lon, lat]) as [number, number]);
    },
    toLonLat(x, y) {
      if (!Number.isFinite(x) || !Number.isFinite(y)) return conv.inverse([x, y]) as [number, number];
      const r = projection.inverse({ x, y });
      return r ? [r.x * RAD_TO_DEG, r.y * RAD_TO_DEG] : (conv.inverse([x, y]) as [number, number]);
    },
  };
}

/** proj4's own constants (lib/constants/values.js): the same doubles as π/180 and 180/π. */
const DEG_TO_RAD = 0.017453292519943295;
const RAD_TO_DEG = 57.29577951308232;

/** Projects a flat xy array (x0,y0,x1,y1,…) to lon/lat positions, rounded to ~1 mm (8 decimals). */
export function flatToLonLat(frame: LocalFrame, xy: ArrayLike<number>): Position[] {
  const out: Position[] = new Array(xy.length / 2);
  for (let i = 0; i < out.length; i++) {
    const p = frame.toLonLat(xy[2 * i], xy[2 * i + 1]);
    out[i] = [roundDeg(p[0]), roundDeg(p[1])];
  }
  return out;
}

/** 1e-9 degrees ≈ 0.1 mm: enough for 0.05 m continuity, short enough for JSON. */
export function roundDeg(v: number): number {
  return Math.round(v * 1e9) / 1e9;
}
