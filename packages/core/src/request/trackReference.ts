/**
 * `tracks.referenceLine`: puts the straight tracks on a fixed set of lines (a lane grid) instead of
 * the offset the track stage would choose. The lines run along `tracks.preferredDirectionDegrees`;
 * the reference line is the line through `point` along that heading, and the track centre lines lie
 * at `offsetMeters + i · machine.widthMeters` (i any integer) to its right (to the left where the
 * offset is negative), seen facing along the heading. Machines whose widths are multiples of one base
 * width, given the same line, drive the same lanes (`traffic/`, controlled traffic).
 */
import { PlanError } from '../errors.js';
import type { Position } from '../types.js';

/** |offsetMeters| at most this: a lane grid's offset is a fraction of a width in practice. */
export const MAX_REFERENCE_OFFSET_METERS = 10_000;

export interface TrackReference {
  /** [lon, lat] of a point on the reference line. */
  point: Position;
  /** Offset of the track lines from the reference line, meters, positive to the right of the heading. */
  offsetMeters: number;
}

function fail(path: string, message: string): never {
  throw new PlanError('invalid-request', `${path}: ${message}`, [{ path, message }]);
}

/** The request's `tracks.referenceLine`, validated; undefined when absent. Needs a preferred heading. */
export function readTrackReference(req: Record<string, unknown>): TrackReference | undefined {
  const t = req.tracks as Record<string, unknown> | undefined;
  const v = t?.referenceLine;
  if (v === undefined || v === null) return undefined;
  const path = 'tracks.referenceLine';
  if (typeof v !== 'object' || Array.isArray(v)) fail(path, 'must be an object { point: [lon, lat], offsetMeters }');
  const r = v as Record<string, unknown>;
  const p = r.point;
  const ok = Array.isArray(p) && p.length >= 2 && p.every((x) => typeof x === 'number' && Number.isFinite(x));
  if (!ok) fail(`${path}.point`, 'must be a [lon, lat] position');
  const [lon, lat] = p as number[];
  if (Math.abs(lon) > 180 || Math.abs(lat) > 90)
    fail(`${path}.point`, `[${lon}, ${lat}] is not a [lon, lat] position (is the order [lon, lat]?)`);
  const o = r.offsetMeters ?? 0;
  if (typeof o !== 'number' || !Number.isFinite(o) || Math.abs(o) > MAX_REFERENCE_OFFSET_METERS)
    fail(
      `${path}.offsetMeters`,
      `must be a number of meters from -${MAX_REFERENCE_OFFSET_METERS} to ${MAX_REFERENCE_OFFSET_METERS}`,
    );
  if (typeof t?.preferredDirectionDegrees !== 'number')
    fail(path, 'needs tracks.preferredDirectionDegrees: the reference line runs along the preferred heading');
  if (t?.trackType === 'curved') fail(path, 'applies to straight tracks only (tracks.trackType "straight")');
  return { point: [lon, lat], offsetMeters: o };
}

/**
 * The across-track coordinate (v = −sin θ · x + cos θ · y, θ the track direction in the local frame)
 * of the track lines, modulo nothing: any line of the grid. `pointLocal` is the reference point in the
 * local frame, `bearingDegrees` the heading as the request gave it.
 */
export function referenceAcrossMeters(
  pointLocal: readonly [number, number],
  offsetMeters: number,
  bearingDegrees: number,
  directionRadians: number,
): number {
  const b = (bearingDegrees * Math.PI) / 180;
  // Right of bearing b, in the local frame (x east, y north): (cos b, −sin b).
  const x = pointLocal[0] + offsetMeters * Math.cos(b),
    y = pointLocal[1] - offsetMeters * Math.sin(b);
  return -Math.sin(directionRadians) * x + Math.cos(directionRadians) * y;
}
