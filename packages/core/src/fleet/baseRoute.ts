/**
 * The route the shares are cut from: a single-machine plan's route read into the fleet's local frame,
 * as working blocks (one working pass each) and the connector runs between them. A share is a run of
 * consecutive blocks with the connectors inside it, driven as planned or backwards (every piece
 * reversed, in reverse order: the same curvature, the same cusps), so every share is drivable as the
 * single route is; the connectors where the route is cut are not driven.
 */
import type { LocalFrame } from '../geometry/projection.js';
import type { Plan, Position, RouteSegment } from '../types.js';
import { polylineLength } from '../geometry/vec.js';

export interface BasePiece {
  segment: RouteSegment;
  /** Local xy (the fleet's frame). */
  xy: Float64Array;
  lengthMeters: number;
  working: boolean;
  /** The working pass it is (`base:type:index:occurrence`), for working pieces. */
  passId?: string;
  /** The track it is (`base:Track:index`): two machines are never on one track at once. */
  passKey?: string;
  /** Bounding box [minX, minY, maxX, maxY] of xy. */
  box: [number, number, number, number];
  /** For a headland pass cut in parts: which part (consecutive parts of one share are joined again in the output). */
  part?: number;
}

export interface BaseRoute {
  /** Which single-machine plan (0 for a fleet of one width). */
  baseIndex: number;
  plan: Plan;
  pieces: BasePiece[];
  /** Index in `pieces` of each working block, in driving order. */
  blocks: number[];
}

const WORK_TYPES = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);

/**
 * A plan's route in the fleet's frame, cut into working blocks; headland passes (long loops) are cut in parts of
 * at most `partMeters` so that a share may end inside one.
 */
export function readBaseRoute(plan: Plan, frame: LocalFrame, baseIndex: number, partMeters = Infinity): BaseRoute {
  const seen = new Map<string, number>();
  const route = [...plan.route].sort((a, b) => a.sequence - b.sequence);
  const pieces: BasePiece[] = route
    .map((segment) => {
      const xy = new Float64Array(segment.coordinates.length * 2);
      segment.coordinates.forEach((p, i) => {
        const [x, y] = frame.toLocal(p[0], p[1]);
        xy[2 * i] = x;
        xy[2 * i + 1] = y;
      });
      const working = WORK_TYPES.has(segment.type);
      const piece: BasePiece = { segment, xy, lengthMeters: polylineLength(xy), working, box: boxOf(xy) };
      if (working) {
        const key = `${baseIndex}:${segment.type}:${segment.trackIndex ?? segment.headlandIndex ?? segment.sequence}`;
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        piece.passId = `${key}:${n}`;
        if (segment.type === 'Track') piece.passKey = key;
      }
      return !working ? [piece] : cutPass(piece, partMeters, frame);
    })
    .flat();
  const blocks: number[] = [];
  pieces.forEach((p, i) => {
    if (p.working) blocks.push(i);
  });
  return { baseIndex, plan, pieces, blocks };
}

/** A cut sits inside a straight edge at least this far from its ends (never near a corner of the pass), meters. */
const CUT_CLEAR_METERS = 5;

/**
 * A working pass in parts of about `partMeters`, each cut inside a straight edge at least CUT_CLEAR_METERS from its
 * ends (no kink where two parts meet); a long straight edge (a track) may take several cuts.
 */
function cutPass(piece: BasePiece, partMeters: number, frame: LocalFrame): BasePiece[] {
  const parts = Math.ceil(piece.lengthMeters / partMeters);
  if (!(parts > 1) || !Number.isFinite(parts)) return [piece];
  const xy = piece.xy;
  const n = xy.length / 2;
  const out: BasePiece[] = [];
  let startXY: number[] = [xy[0], xy[1]],
    startIndex = 1,
    done = 0,
    lastCut = -Infinity;
  for (let i = 1; i < n; i++) {
    const l = Math.hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
    for (let j = out.length + 1; j < parts && l >= 2 * CUT_CLEAR_METERS; j++) {
      const target = (j * piece.lengthMeters) / parts;
      if (target > done + l) break;
      const at = Math.min(done + l - CUT_CLEAR_METERS, Math.max(done + CUT_CLEAR_METERS, target));
      if (at < lastCut + CUT_CLEAR_METERS) continue;
      const u = (at - done) / l;
      const cut = [
        xy[2 * i - 2] + (xy[2 * i] - xy[2 * i - 2]) * u,
        xy[2 * i - 1] + (xy[2 * i + 1] - xy[2 * i - 1]) * u,
      ];
      out.push(partOf(piece, startXY, startIndex, i - 1, cut, frame, out.length));
      startXY = cut;
      startIndex = i;
      lastCut = at;
    }
    done += l;
  }
  out.push(partOf(piece, startXY, startIndex, n - 1, undefined, frame, out.length));
  return out.length > 1 ? out : [piece];
}

/** The part from `startXY` through vertices from..to (inclusive) to `endXY` (or ending at vertex `to`). */
function partOf(
  piece: BasePiece,
  startXY: number[],
  from: number,
  to: number,
  endXY: number[] | undefined,
  frame: LocalFrame,
  part: number,
): BasePiece {
  const pts: number[] = [...startXY];
  for (let i = from; i <= to; i++) pts.push(piece.xy[2 * i], piece.xy[2 * i + 1]);
  if (endXY) pts.push(endXY[0], endXY[1]);
  const coords = piece.segment.coordinates;
  const coordinates: Position[] = [from === 1 && part === 0 ? coords[0] : frame.toLonLat(startXY[0], startXY[1])];
  for (let i = from; i <= to; i++) coordinates.push(coords[i]);
  if (endXY) coordinates.push(frame.toLonLat(endXY[0], endXY[1]));
  const xy = new Float64Array(pts);
  const segment: RouteSegment = { ...piece.segment, coordinates };
  // Sections per point go with the points: a cut point takes the values of the point before it.
  const perPoint = (v: number[]): number[] => {
    const out = [v[from - 1]];
    for (let i = from; i <= to; i++) out.push(v[i]);
    if (endXY) out.push(v[to]);
    return out;
  };
  const ws = piece.segment.activeWidthsMeters as number[] | undefined,
    os = piece.segment.activeOffsetsMeters as number[] | undefined;
  if (Array.isArray(ws) && Array.isArray(os) && ws.length === coords.length && os.length === coords.length) {
    segment.activeWidthsMeters = perPoint(ws);
    segment.activeOffsetsMeters = perPoint(os);
  } else {
    delete segment.activeWidthsMeters;
    delete segment.activeOffsetsMeters;
  }
  const passId = `${piece.passId}:${part}`;
  return { ...piece, segment, xy, lengthMeters: polylineLength(xy), part, passId, box: boxOf(xy) };
}

/** A share: blocks `from`..`to` (inclusive; empty when to < from) of one base route, maybe driven backwards. */
export interface Share {
  base: number;
  from: number;
  to: number;
  reversed: boolean;
}

/** The pieces a share drives, in its driving order (the route's lead-in and lead-out go with its first, last block). */
export function sharePieces(base: BaseRoute, share: Share): BasePiece[] {
  if (share.to < share.from) return [];
  const n = base.blocks.length;
  const first = share.from === 0 ? 0 : base.blocks[share.from];
  const last = share.to === n - 1 ? base.pieces.length - 1 : base.blocks[share.to];
  const out = base.pieces.slice(first, last + 1);
  if (!share.reversed) return out;
  return out.reverse().map((p) => ({ ...p, xy: reversedXY(p.xy), segment: reversedSegment(p.segment) }));
}

function reversedXY(xy: Float64Array): Float64Array {
  const out = new Float64Array(xy.length);
  for (let i = 0, j = xy.length - 2; j >= 0; i += 2, j -= 2) {
    out[i] = xy[j];
    out[i + 1] = xy[j + 1];
  }
  return out;
}

/**
 * A segment driven the other way: its points in reverse order, and its sections (a centre-line pass's active
 * widths and offsets per point) with them, the offsets mirrored (+ is left of the direction of travel).
 */
export function reversedSegment(s: RouteSegment): RouteSegment {
  const out: RouteSegment = { ...s, coordinates: [...s.coordinates].reverse() };
  const ws = s.activeWidthsMeters,
    os = s.activeOffsetsMeters;
  if (Array.isArray(ws)) out.activeWidthsMeters = [...(ws as number[])].reverse();
  if (Array.isArray(os)) out.activeOffsetsMeters = (os as number[]).map((o) => -o || 0).reverse();
  return out;
}

export function boxOf(xy: ArrayLike<number>): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < xy.length; i += 2) {
    if (xy[i] < b[0]) b[0] = xy[i];
    if (xy[i + 1] < b[1]) b[1] = xy[i + 1];
    if (xy[i] > b[2]) b[2] = xy[i];
    if (xy[i + 1] > b[3]) b[3] = xy[i + 1];
  }
  return b;
}
