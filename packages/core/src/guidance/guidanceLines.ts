/**
 * Guidance lines for displays: every plan carries
 * - `AB` lines: per cell, its reference track's two ends (A, B) and the A→B heading, for
 *   straight tracks (a display repeats the line every width); cells with headings of their own
 *   get their own AB line;
 * - `APlus`: one point and heading per track direction (the same guidance from one point);
 * - `Curve` lines: per cell of curved tracks, its reference track (the curve a display offsets
 *   every width); then the innermost headland pass of each field part and round each no-go
 *   zone, closed curves a display can offset.
 * Headings are bearings, degrees clockwise from north, [0, 360).
 * Geometry is in the local frame here; `toGuidanceOutput` projects it for the Plan.
 */
import type { LocalFrame } from '../geometry/projection.js';
import { flatToLonLat } from '../geometry/projection.js';
import type { Position } from '../types.js';
import { hypot } from '../geometry/vec.js';

export type GuidanceLineType = 'AB' | 'APlus' | 'Curve';

export interface LocalGuidanceLine {
  type: GuidanceLineType;
  /** Flat xy: A then B for AB, the point and a point 1 m ahead for APlus, the curve's points for Curve. */
  xy: Float64Array;
  cell?: number;
  trackIndex?: number;
  closed?: boolean;
}

/** The plan's guidance line (plain JSON, lon/lat). */
export interface GuidanceLine {
  index: number;
  type: GuidanceLineType;
  name: string;
  /** AB: the line A→B; APlus: a Point; Curve: the curve (closed when it repeats its first point). */
  geometry: { type: 'LineString'; coordinates: Position[] } | { type: 'Point'; coordinates: Position };
  headingDegrees?: number;
  a?: Position;
  b?: Position;
  point?: Position;
  cell?: number;
  trackIndex?: number;
  lengthMeters?: number;
}

export function bearingDegrees(dx: number, dy: number): number {
  const b = 90 - (Math.atan2(dy, dx) * 180) / Math.PI;
  return Math.round((((b % 360) + 360) % 360) * 1e6) / 1e6;
}

export interface GuidanceTrack {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  v: number;
  /** Curved tracks: the centre line (flat xy) from (x0, y0) to (x1, y1). */
  xy?: Float64Array;
}

/**
 * AB (or Curve, for curved tracks) per cell on its first track across, one A+ per straight track direction, curves for
 * the headland rings.
 */
export function generateGuidanceLines(
  tracks: GuidanceTrack[],
  cellOf: ArrayLike<number>,
  curves: { xy: Float64Array; closed: boolean }[],
): LocalGuidanceLine[] {
  const out: LocalGuidanceLine[] = [];
  const firstOfCell = new Map<number, number>();
  for (let i = 0; i < tracks.length; i++) {
    const k = cellOf[i];
    const j = firstOfCell.get(k);
    if (j === undefined || tracks[i].v < tracks[j].v) firstOfCell.set(k, i);
  }
  const refs = [...firstOfCell.entries()].sort((a, b) => a[0] - b[0]);
  for (const [cell, i] of refs) {
    const t = tracks[i];
    if (t.xy) out.push({ type: 'Curve', xy: t.xy, cell, trackIndex: i, closed: false });
    else out.push({ type: 'AB', xy: Float64Array.of(t.x0, t.y0, t.x1, t.y1), cell, trackIndex: i });
  }
  // One A+ per straight track direction, on the first cell (by index) with that direction; the cell of track 0 first.
  const seen = new Set<number>();
  const first = firstOfCell.get(cellOf[0]);
  for (const i of [...(first !== undefined ? [first] : []), ...refs.map((r) => r[1])]) {
    const t = tracks[i];
    if (t.xy) continue;
    const l = hypot(t.x1 - t.x0, t.y1 - t.y0) || 1;
    let d = Math.atan2(t.y1 - t.y0, t.x1 - t.x0) % Math.PI;
    if (d < 0) d += Math.PI;
    const key = Math.round(d * 1e4) % Math.round(Math.PI * 1e4);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      type: 'APlus',
      xy: Float64Array.of(t.x0, t.y0, t.x0 + (t.x1 - t.x0) / l, t.y0 + (t.y1 - t.y0) / l),
      trackIndex: i,
    });
  }
  for (const c of curves) out.push({ type: 'Curve', xy: c.xy, closed: c.closed });
  return out;
}

export function toGuidanceOutput(frame: LocalFrame, lines: LocalGuidanceLine[]): GuidanceLine[] {
  return lines.map((g, index) => {
    const coords = flatToLonLat(frame, g.xy);
    const n = g.xy.length;
    const head = bearingDegrees(g.xy[2] - g.xy[0], g.xy[3] - g.xy[1]);
    if (g.type === 'APlus') {
      const out: GuidanceLine = {
        index,
        type: 'APlus',
        name: `A+ ${index + 1}`,
        geometry: { type: 'Point', coordinates: coords[0] },
        point: coords[0],
        headingDegrees: head,
      };
      if (g.trackIndex !== undefined) out.trackIndex = g.trackIndex;
      return out;
    }
    let len = 0;
    for (let i = 2; i < n; i += 2) len += hypot(g.xy[i] - g.xy[i - 2], g.xy[i + 1] - g.xy[i - 1]);
    const out: GuidanceLine = {
      index,
      type: g.type,
      name: g.type === 'AB' ? `AB ${index + 1}` : `Curve ${index + 1}`,
      geometry: { type: 'LineString', coordinates: coords },
      lengthMeters: Math.round(len * 1000) / 1000,
    };
    if (g.type === 'AB') {
      out.a = coords[0];
      out.b = coords[coords.length - 1];
      out.headingDegrees = bearingDegrees(g.xy[n - 2] - g.xy[0], g.xy[n - 1] - g.xy[1]);
    }
    if (g.cell !== undefined) out.cell = g.cell;
    if (g.trackIndex !== undefined) out.trackIndex = g.trackIndex;
    return out;
  });
}
