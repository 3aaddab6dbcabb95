/**
 * AgOpenGPS's local plane (AgOpenGPS.Core/Models/Base/LocalPlane.cs): northing from the latitude
 * difference at the origin's meters per degree of latitude, easting from the longitude difference
 * at the meters per degree of longitude of the point's own latitude. Headings are radians clockwise
 * from grid north in [0, 2π).
 */
import type { Position } from '@furrow/core';

const RAD_PER_DEGREE = Math.PI / 180;
const TWO_PI = 2 * Math.PI;

/** Meters per degree of latitude at a latitude (degrees), as AgOpenGPS computes it. */
export function metersPerDegreeLatitude(latitudeDegrees: number): number {
  const phi = latitudeDegrees * RAD_PER_DEGREE;
  return 111132.92 - 559.82 * Math.cos(2 * phi) + 1.175 * Math.cos(4 * phi) - 0.0023 * Math.cos(6 * phi);
}

/** Meters per degree of longitude at a latitude (degrees), as AgOpenGPS computes it. */
export function metersPerDegreeLongitude(latitudeDegrees: number): number {
  const phi = latitudeDegrees * RAD_PER_DEGREE;
  return 111412.84 * Math.cos(phi) - 93.5 * Math.cos(3 * phi) + 0.118 * Math.cos(5 * phi);
}

/** A field's local plane: its origin (Field.txt `StartFix`). */
export interface LocalPlane {
  originLatitudeDegrees: number;
  originLongitudeDegrees: number;
}

/** Easting and northing in meters in the local plane. */
export interface LocalPoint {
  eastingMeters: number;
  northingMeters: number;
}

/** [lon, lat] → local easting / northing (meters). */
export function toLocal(plane: LocalPlane, p: Position): LocalPoint {
  return {
    northingMeters: (p[1] - plane.originLatitudeDegrees) * metersPerDegreeLatitude(plane.originLatitudeDegrees),
    eastingMeters: (p[0] - plane.originLongitudeDegrees) * metersPerDegreeLongitude(p[1]),
  };
}

/** Local easting / northing (meters) → [lon, lat]. */
export function toWgs84(plane: LocalPlane, eastingMeters: number, northingMeters: number): Position {
  const lat = plane.originLatitudeDegrees + northingMeters / metersPerDegreeLatitude(plane.originLatitudeDegrees);
  const lon = plane.originLongitudeDegrees + eastingMeters / metersPerDegreeLongitude(lat);
  return [lon, lat];
}

/** Heading from a to b, radians clockwise from grid north in [0, 2π). */
export function headingRadians(a: LocalPoint, b: LocalPoint): number {
  const h = Math.atan2(b.eastingMeters - a.eastingMeters, b.northingMeters - a.northingMeters);
  return h < 0 ? h + TWO_PI : h >= TWO_PI ? h - TWO_PI : h;
}
