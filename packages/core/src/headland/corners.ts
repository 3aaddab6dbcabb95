/**
 * Headland pass corners (`headland.corners`).
 *
 * Both styles start from passes offset with mitred joins (headland/generateHeadlands.ts), so that
 * every corner of the field, convex or reflex, and every corner round a no-go zone is a sharp vertex.
 * - `rounded`: each corner of a closed pass (a vertex where the pass turns by 20° or more) is
 *   replaced by an arc of radius R tangent to both sides (the machine drives it in one sweep);
 *   where the sides are too short for that (the arc may use at most half of each side), the
 *   largest radius the sides allow, and where the arc would leave the field (or enter a no-go
 *   zone) half that, then a quarter, else the corner stays sharp. The field's corner beyond the
 *   arc is left unworked by that pass.
 * - `square`: the passes are offset with mitred joins (sharp at every corner) and each corner is
 *   driven as a corner turn: the machine works up to the corner point, lifts, turns in the corner's
 *   neighbourhood (a three-point Reeds-Shepp turn when reversing is allowed, a forward loop
 *   otherwise) and sets off working along the next side from the same point. A corner is kept
 *   square only where such a turn, in both driving directions, stays inside the field (no-go
 *   zones excluded) and both its sides are at least 2 m long; elsewhere it is rounded as above. `insertCornerTurns`
 * puts the turns into   the connected route as `Turn` segments (`connectorKind: 'corner'`).
 */
import { Clipper, EndType, JoinType } from 'clipper2-ts';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { PRECISION } from '../geometry/clipper.js';
import type { Region } from '../geometry/region.js';
import { candidateInside, turnCandidates } from '../turns/index.js';
import type { TurnOptions, TurnPath } from '../turns/types.js';
import type { HeadlandPass } from './types.js';
import type { LocalSegment } from '../turns/path.js';
import { hypot } from '../geometry/vec.js';

/** A vertex turning by at least this much is a corner. */
export const CORNER_MIN_RADIANS = (20 * Math.PI) / 180;
/**
 * A square corner needs both sides at least this long (a mitre squared off, or a corner followed by a bend, is
 * rounded).
 */
const MIN_SQUARE_SIDE_METERS = 2;
/** Candidate corner turns tried (shortest first). */
const MAX_CANDIDATES = 12;

/** Inward offset with mitred joins: sharp corners at the field's reflex corners too (mitre limit 4 × the offset). */
export function offsetMitred(paths: PathsD, deltaMeters: number): PathsD {
  return Clipper.inflatePathsD(paths, deltaMeters, JoinType.Miter, EndType.Polygon, 4, PRECISION, 0.01);
}

function wrap(a: number): number {
  while (a > Math.PI) a -= 2 * Math.PI;
  while (a <= -Math.PI) a += 2 * Math.PI;
  return a;
}

/** The shortest corner turn from (x, y) heading hIn to the same point heading hOut that stays in the region. */
export function cornerTurn(
  x: number,
  y: number,
  hIn: number,
  hOut: number,
  region: Region,
  turnOptions: TurnOptions,
): TurnPath | undefined {
  let cands: TurnPath[];
  try {
    cands = turnCandidates({ x, y, headingRadians: hIn }, { x, y, headingRadians: hOut }, turnOptions);
  } catch {
    return undefined;
  }
  for (let i = 0; i < cands.length && i < MAX_CANDIDATES; i++) if (candidateInside(cands[i], region)) return cands[i];
  return undefined;
}

export interface CornerResult {
  passes: HeadlandPass[];
  /** Square corners kept (local xy), where `insertCornerTurns` adds the corner turns. */
  squareCorners: { x: number; y: number }[];
  /** Corners rounded (all of them with `rounded`; those without room for a corner turn with `square`). */
  roundedCount: number;
}

/** Arc points from the tangent point on the incoming side to the one on the outgoing side. */
function fillet(
  prev: { x: number; y: number },
  c: { x: number; y: number },
  next: { x: number; y: number },
  t: number,
  turn: number,
): PathD {
  const l1 = hypot(c.x - prev.x, c.y - prev.y),
    l2 = hypot(next.x - c.x, next.y - c.y);
  const d1x = (c.x - prev.x) / l1,
    d1y = (c.y - prev.y) / l1;
  const d2x = (next.x - c.x) / l2,
    d2y = (next.y - c.y) / l2;
  const ax = c.x - t * d1x,
    ay = c.y - t * d1y;
  const r = t / Math.tan(Math.abs(turn) / 2);
  const side = turn > 0 ? 1 : -1; // left turn: centre to the left
  const cx = ax - side * d1y * r,
    cy = ay + side * d1x * r;
  const a0 = Math.atan2(ay - cy, ax - cx);
  const steps = Math.max(2, Math.ceil(Math.abs(turn) / (Math.PI / 90)));
  const out: PathD = [];
  for (let k = 0; k <= steps; k++) {
    const a = a0 + (turn * k) / steps;
    out.push({ x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) });
  }
  const bx = c.x + t * d2x,
    by = c.y + t * d2y;
  out[out.length - 1] = { x: bx, y: by };
  return out;
}

/** Rounds or squares the corners of the passes. */
export function shapeCorners(
  passes: HeadlandPass[],
  corners: 'rounded' | 'square',
  turnRadiusMeters: number,
  region: Region,
  turnOptions: TurnOptions,
): CornerResult {
  const R = turnRadiusMeters;
  const squareCorners: { x: number; y: number }[] = [];
  let roundedCount = 0;
  const out = passes.map((p): HeadlandPass => {
    const ring = p.ring;
    const n = ring.length;
    if (n < 3) return p;
    const len = new Float64Array(n); // len[k] = edge k → k+1
    for (let k = 0; k < n; k++) {
      const a = ring[k],
        b = ring[(k + 1) % n];
      len[k] = hypot(b.x - a.x, b.y - a.y);
    }
    const next: PathD = [];
    for (let k = 0; k < n; k++) {
      const prev = ring[(k + n - 1) % n],
        c = ring[k],
        nx = ring[(k + 1) % n];
      const hIn = Math.atan2(c.y - prev.y, c.x - prev.x),
        hOut = Math.atan2(nx.y - c.y, nx.x - c.x);
      const turn = wrap(hOut - hIn);
      if (Math.abs(turn) < CORNER_MIN_RADIANS || len[(k + n - 1) % n] === 0 || len[k] === 0) {
        next.push(c);
        continue;
      }
      if (
        corners === 'square' &&
        len[(k + n - 1) % n] >= MIN_SQUARE_SIDE_METERS &&
        len[k] >= MIN_SQUARE_SIDE_METERS &&
        cornerTurn(c.x, c.y, hIn, hOut, region, turnOptions) &&
        cornerTurn(c.x, c.y, wrap(hOut + Math.PI), wrap(hIn + Math.PI), region, turnOptions)
      ) {
        squareCorners.push({ x: c.x, y: c.y });
        next.push(c);
        continue;
      }
      let t = Math.min(R * Math.tan(Math.min(Math.abs(turn), 3) / 2), 0.5 * len[(k + n - 1) % n], 0.5 * len[k]);
      let arc: PathD | undefined;
      for (let tries = 0; tries < 3 && !arc; tries++, t /= 2) {
        const a = fillet(prev, c, nx, t, turn);
        const flat = new Float64Array(2 * a.length);
        a.forEach((q, i) => {
          flat[2 * i] = q.x;
          flat[2 * i + 1] = q.y;
        });
        if (region.containsPolyline(flat)) arc = a;
      }
      if (!arc) {
        next.push(c);
        continue;
      }
      for (const q of arc) next.push(q);
      roundedCount++;
    }
    return { ...p, ring: next };
  });
  return { passes: out, squareCorners, roundedCount };
}

/**
 * Splits the headland pass segments of a connected route at its square corners and drives each
 * corner as a corner turn (for the direction the pass is actually driven in). A corner whose
 * turn does not fit that way round is left as it is.
 */
export function insertCornerTurns(
  segments: LocalSegment[],
  squareCorners: { x: number; y: number }[],
  region: Region,
  turnOptions: TurnOptions,
): LocalSegment[] {
  if (squareCorners.length === 0) return segments;
  const key = (x: number, y: number): string => `${Math.round(x * 1e4)},${Math.round(y * 1e4)}`;
  const at = new Set(squareCorners.map((c) => key(c.x, c.y)));
  const out: LocalSegment[] = [];
  for (const seg of segments) {
    if (seg.type !== 'ExteriorHeadland' && seg.type !== 'InteriorHeadland') {
      out.push(seg);
      continue;
    }
    const xy = seg.xy;
    const n = xy.length / 2;
    let from = 0;
    for (let i = 1; i < n - 1; i++) {
      if (!at.has(key(xy[2 * i], xy[2 * i + 1]))) continue;
      let j = i - 1;
      while (j > 0 && xy[2 * j] === xy[2 * i] && xy[2 * j + 1] === xy[2 * i + 1]) j--;
      let k = i + 1;
      while (k < n - 1 && xy[2 * k] === xy[2 * i] && xy[2 * k + 1] === xy[2 * i + 1]) k++;
      const hIn = Math.atan2(xy[2 * i + 1] - xy[2 * j + 1], xy[2 * i] - xy[2 * j]);
      const hOut = Math.atan2(xy[2 * k + 1] - xy[2 * i + 1], xy[2 * k] - xy[2 * i]);
      if (Math.abs(wrap(hOut - hIn)) < CORNER_MIN_RADIANS) continue;
      const turn = cornerTurn(xy[2 * i], xy[2 * i + 1], hIn, hOut, region, turnOptions);
      if (!turn) continue;
      out.push({ ...seg, xy: xy.slice(2 * from, 2 * i + 2) });
      const t: LocalSegment = {
        type: 'Turn',
        xy: Float64Array.from(turn.points),
        turnType: turn.turnType,
        connector: 'corner',
      };
      if (turn.cusps.length > 0 || turn.startsReversed) t.reverse = true;
      out.push(t);
      from = i;
    }
    out.push(from === 0 ? seg : { ...seg, xy: xy.slice(2 * from) });
  }
  return out;
}
