/**
 * Tramlines: which of the drill's passes leave the sprayer's wheel lanes unsown, where, and which rows.
 * The drill controller's rhythm (`tramRhythm`) counts passes from the reference line: with k = sprayer
 * width ÷ drill width, the sprayer's centre lies at k·w/2 + j·k·w. With a full first pass and odd k
 * that is the centre of pass (k + 1)/2 (mod k), both lanes in it at ±gauge/2; with even k it is the
 * seam between passes k/2 and k/2 + 1, one lane in each, (w − gauge)/2 from their centres. A half-width
 * first pass moves the seams by w/2: even k gets the symmetric tramline (pass k/2 + 1), odd k the split
 * one (passes (k + 1)/2 and (k + 3)/2). The headland's tram loop lies at k·w/2 ± gauge/2 inside the
 * boundary: the drill's headland passes whose swath it crosses carry it.
 */
import type { LocalFrame } from '../geometry/projection.js';
import type { Plan, Position } from '../types.js';
import { acrossOf, type LaneGrid } from './laneGrid.js';
import type { TramLane, TramlinePass } from './types.js';

export interface TramSettings {
  /** Sprayer width ÷ drill width. */
  multiple: number;
  gaugeMeters: number;
  /** Tyre width + margin: the band shut off round each lane, meters. */
  shutOffWidthMeters: number;
  rowSpacingMeters?: number;
}

const mod = (a: number, k: number): number => ((a % k) + k) % k;

/**
 * The lanes the drill's pass `passNumber` (1 beside the reference line) carries: offsets from its centre
 * across the grid (+v, the side away from the reference line), empty for a pass without a tramline.
 */
export function tramRhythm(
  passNumber: number,
  k: number,
  firstPass: 'full' | 'half',
  widthMeters: number,
  gaugeMeters: number,
): number[] {
  const g2 = gaugeMeters / 2,
    edge = (widthMeters - gaugeMeters) / 2;
  const n = mod(passNumber, k);
  const odd = k % 2 === 1;
  const out: number[] = [];
  if (firstPass === 'full' ? odd : !odd) {
    const at = firstPass === 'full' ? (k + 1) / 2 : k / 2 + 1;
    if (n === mod(at, k)) out.push(-g2, g2);
    return out;
  }
  const lower = firstPass === 'full' ? k / 2 : (k + 1) / 2;
  // The pass below the seam carries the lane on its +v side, the one above on its −v side (k = 1: both).
  if (n === mod(lower, k)) out.push(edge);
  if (n === mod(lower + 1, k)) out.push(-edge);
  return out.sort((a, b) => a - b);
}

/** The drill's pass number from its centre's v (`tramRhythm`'s numbering). */
export function passNumberOf(grid: LaneGrid, acrossMeters: number): number {
  const d = (acrossMeters - grid.refAcrossMeters) / grid.baseWidthMeters;
  return grid.firstPass === 'full' ? Math.round(d + 0.5) : Math.round(d) + 1;
}

/** A lane at `acrossOffset` (+v) from a pass centre, as the drill sees it: right of its driving direction positive. */
function laneOf(offsetRight: number, passWidthMeters: number, tram: TramSettings): TramLane | undefined {
  const half = passWidthMeters / 2,
    b = tram.shutOffWidthMeters / 2;
  const from = Math.max(-half, offsetRight - b),
    to = Math.min(half, offsetRight + b);
  if (!(to > from)) return undefined;
  const lane: TramLane = {
    offsetMeters: round4(offsetRight),
    shutOffFromMeters: round4(from),
    shutOffToMeters: round4(to),
  };
  const s = tram.rowSpacingMeters;
  if (s !== undefined) {
    // Row r (from 1 at the left edge) runs at −half + (r − ½)·s from the centre, right positive.
    const rows: number[] = [];
    const count = Math.floor(passWidthMeters / s + 1e-9);
    for (let r = 1; r <= count; r++) {
      const at = -half + (r - 0.5) * s;
      if (at >= from && at <= to) rows.push(r);
    }
    lane.rows = rows;
  }
  return lane;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function localOf(frame: LocalFrame, coords: Position[]): number[] {
  const out: number[] = [];
  for (const [lon, lat] of coords) {
    const [x, y] = frame.toLocal(lon, lat);
    out.push(x, y);
  }
  return out;
}

/** Twice the signed area of a polyline closed by its chord (> 0: counter-clockwise, the inside on its left). */
function signedArea2(xy: number[]): number {
  let a = 0;
  const n = xy.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    a += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
  }
  return a;
}

/** Stretches of a headland pass this close to the lanes' direction (radians) run along them. */
const ALONG_LANES_RADIANS = (0.5 * Math.PI) / 180;

/**
 * The stretches of a headland pass that run along the lanes (the field's sides parallel to the tracks)
 * and carry tramline lanes there: the sprayer's lanes (k·w/2 + j·k·w ± gauge/2 from the reference
 * line) that cross the stretch's swath. A side of the field a whole number of sprayer widths from the
 * reference line has none; elsewhere the sprayer's last pass runs partly over the drill's headland.
 */
function sideStretches(
  seg: Plan['route'][number],
  xy: number[],
  grid: LaneGrid,
  tram: TramSettings,
  passNumber: number,
): TramlinePass[] {
  const c = Math.cos(grid.directionRadians),
    s = Math.sin(grid.directionRadians);
  const w = seg.widthMeters ?? grid.baseWidthMeters,
    kw = tram.multiple * grid.baseWidthMeters;
  const out: TramlinePass[] = [];
  for (let i = 0; i + 3 < xy.length; i += 2) {
    const dx = xy[i + 2] - xy[i],
      dy = xy[i + 3] - xy[i + 1];
    const len = Math.hypot(dx, dy);
    if (len < 1 || Math.abs(c * dy - s * dx) / len > Math.sin(ALONG_LANES_RADIANS)) continue;
    const v = (acrossOf(grid, xy[i], xy[i + 1]) + acrossOf(grid, xy[i + 2], xy[i + 3])) / 2;
    const sign = c * dx + s * dy >= 0 ? -1 : 1;
    const lanes: TramLane[] = [];
    const j0 = Math.floor((v - w / 2 - grid.refAcrossMeters - kw / 2) / kw) - 1;
    for (let j = j0; j <= j0 + 3; j++)
      for (const side of [-1, 1]) {
        const at = grid.refAcrossMeters + kw / 2 + j * kw + (side * tram.gaugeMeters) / 2;
        const lane = Math.abs(at - v) < w / 2 ? laneOf(sign * (at - v), w, tram) : undefined;
        if (lane) lanes.push(lane);
      }
    if (lanes.length === 0) continue;
    out.push({
      sequence: seg.sequence,
      type: 'ExteriorHeadland',
      along: 'lanes',
      passNumber,
      lanes: lanes.sort((a, b) => a.offsetMeters - b.offsetMeters),
      coordinates: [seg.coordinates[i / 2], seg.coordinates[i / 2 + 1]],
    });
  }
  return out;
}

/**
 * Tramline passes of the drill's plan: its tracks by `tramRhythm`; its headland passes where the tram
 * loop crosses them (`along: 'boundary'`, the whole pass) and where they run along the lanes over a
 * sprayer pass (`along: 'lanes'`, the stretch).
 */
export function markTramlines(plan: Plan, frame: LocalFrame, grid: LaneGrid, tram: TramSettings): TramlinePass[] {
  const w = grid.baseWidthMeters;
  const c = Math.cos(grid.directionRadians),
    s = Math.sin(grid.directionRadians);
  const passIndexOf = new Map<number, number>();
  for (const h of (plan.headlands ?? []) as { index: number; passIndex?: number }[])
    if (h.passIndex !== undefined) passIndexOf.set(h.index, h.passIndex);
  const loop = (tram.multiple * w) / 2;
  const out: TramlinePass[] = [];
  for (const seg of plan.route) {
    const width = seg.widthMeters ?? w;
    const xy = localOf(frame, seg.coordinates);
    if (xy.length < 4) continue;
    let lanes: TramLane[] = [];
    let passNumber: number;
    if (seg.type === 'Track') {
      const n = xy.length;
      const v = (acrossOf(grid, xy[0], xy[1]) + acrossOf(grid, xy[n - 2], xy[n - 1])) / 2;
      // Right of travel is −v driving along +u, +v driving back.
      const sign = c * (xy[n - 2] - xy[0]) + s * (xy[n - 1] - xy[1]) >= 0 ? -1 : 1;
      passNumber = passNumberOf(grid, v);
      // Strip passes (narrower) off the grid keep no tramline.
      if (Math.abs(width - w) > 1e-6) continue;
      for (const o of tramRhythm(passNumber, tram.multiple, grid.firstPass, w, tram.gaugeMeters)) {
        const lane = laneOf(sign * o, width, tram);
        if (lane) lanes.push(lane);
      }
    } else if (seg.type === 'ExteriorHeadland' && typeof seg.headlandIndex === 'number') {
      const p = passIndexOf.get(seg.headlandIndex);
      if (p === undefined) continue;
      passNumber = p;
      const centre = (p - 0.5) * width;
      // Inward is left of travel on a counter-clockwise ring: right = −inward.
      const sign = signedArea2(xy) >= 0 ? -1 : 1;
      out.push(...sideStretches(seg, xy, grid, tram, p));
      for (const depth of [loop - tram.gaugeMeters / 2, loop + tram.gaugeMeters / 2]) {
        const lane = laneOf(sign * (depth - centre), width, tram);
        if (lane) lanes.push(lane);
      }
    } else continue;
    lanes = lanes.sort((a, b) => a.offsetMeters - b.offsetMeters);
    if (lanes.length > 0)
      out.push({
        sequence: seg.sequence,
        type: seg.type,
        along: seg.type === 'Track' ? 'lanes' : 'boundary',
        passNumber,
        lanes,
        coordinates: seg.coordinates,
      });
  }
  return out;
}
