/** Shared set-up of tests that draw fields in meters: a local frame near 11° E 48° N and polygons in it. */
import { createLocalFrame } from '../geometry/projection.js';
import type { PathsD } from '../geometry/clipper.js';
import type { GeoJsonPolygon } from '../types.js';

export const frame = createLocalFrame([[11, 48]]);

/** A GeoJSON polygon (lon/lat) of rings given in meters in `frame`, each closed here. */
export function polygon(...rings: [number, number][][]): GeoJsonPolygon {
  return {
    type: 'Polygon',
    coordinates: rings.map((r) => {
      const ll = r.map(([x, y]) => frame.toLonLat(x, y));
      return [...ll, ll[0]];
    }),
  };
}

/** The same rings as local paths. */
export const local = (...rings: [number, number][][]): PathsD => rings.map((r) => r.map(([x, y]) => ({ x, y })));
