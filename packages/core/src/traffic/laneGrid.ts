/**
 * The lane grid of a traffic system: one reference line (the AB line, or the line along the chosen
 * heading touching the field) and, across it, the lines each operation's tracks lie on. In the track
 * frame (v = −sin θ · x + cos θ · y, θ the track direction) the reference line is v = refAcrossMeters
 * and passes are counted from it towards +v: the drill's pass n (n = 1 beside the line) has its centre
 * at (n − ½)·w (full first pass) or (n − 1)·w (half first pass, the first pass half-width at w/4); a
 * sprayer k·w wide drives at k·w/2 + j·k·w (its first pass beside the line, full width); every other
 * machine m·w wide on the drill's centres, every m-th.
 */
import type { PathsD } from '../geometry/clipper.js';
import type { LocalFrame } from '../geometry/projection.js';
import { generateTracks } from '../tracks/generateTracks.js';
import type { Position } from '../types.js';

export interface LaneGrid {
  /** Bearing of the lanes, degrees clockwise from north, and the track direction it gives (radians). */
  headingDegrees: number;
  directionRadians: number;
  /** v of the reference line. */
  refAcrossMeters: number;
  baseWidthMeters: number;
  firstPass: 'full' | 'half';
}

/** v of a point of the local frame in the grid's track frame. */
export function acrossOf(grid: Pick<LaneGrid, 'directionRadians'>, x: number, y: number): number {
  return -Math.sin(grid.directionRadians) * x + Math.cos(grid.directionRadians) * y;
}

/** The lowest v of the field's outer rings: the default reference line touches the field there. */
export function fieldEdgeAcross(field: PathsD, directionRadians: number): number {
  let vmin = Infinity;
  for (const ring of field)
    for (const p of ring) vmin = Math.min(vmin, -Math.sin(directionRadians) * p.x + Math.cos(directionRadians) * p.y);
  return vmin;
}

/** v of the drill's pass centres modulo w, from the reference line: w/2 (full first pass) or 0 (half). */
export function drillPhaseMeters(grid: Pick<LaneGrid, 'firstPass' | 'baseWidthMeters'>): number {
  return grid.firstPass === 'full' ? grid.baseWidthMeters / 2 : 0;
}

/** v of one line of an operation's tracks: sprayers on the tramline centres, others on the drill's centres. */
export function operationLineAcross(grid: LaneGrid, kind: string, widthMeters: number): number {
  return grid.refAcrossMeters + (kind === 'sprayer' ? widthMeters / 2 : drillPhaseMeters(grid));
}

/**
 * `tracks.referenceLine` (request/trackReference.ts) putting a planning's tracks on the lines at
 * v = `lineAcrossMeters` (+ multiples of its width): a point of the reference line and the offset,
 * right of the heading positive.
 */
export function referenceLineOption(
  grid: LaneGrid,
  frame: LocalFrame,
  lineAcrossMeters: number,
): { point: Position; offsetMeters: number } {
  const th = grid.directionRadians,
    b = (grid.headingDegrees * Math.PI) / 180;
  // The point of the reference line nearest the frame's origin, and v per meter to the right of the heading (±1).
  const x = -Math.sin(th) * grid.refAcrossMeters,
    y = Math.cos(th) * grid.refAcrossMeters;
  const perMeter = -Math.sin(th) * Math.cos(b) - Math.cos(th) * Math.sin(b);
  return { point: frame.toLonLat(x, y), offsetMeters: (lineAcrossMeters - grid.refAcrossMeters) / perMeter };
}

/** Lines at v = `lineAcrossMeters` + i·`stepMeters` inside `field`, as lon/lat segments. */
export function linesInField(
  field: PathsD,
  grid: LaneGrid,
  frame: LocalFrame,
  lineAcrossMeters: number,
  stepMeters: number,
): Position[][] {
  const set = generateTracks(field, grid.directionRadians, stepMeters, 0, lineAcrossMeters);
  return set.tracks.map((t) => [frame.toLonLat(t.x0, t.y0), frame.toLonLat(t.x1, t.y1)]);
}
