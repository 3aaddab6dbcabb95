/**
 * Headland passes as route pieces, and the request's headland style.
 *
 * A closed pass is a loop piece: the connect stage enters it where it is nearest and drives it
 * round once. An open pass (turn-only headlands) is driven from one end to the other: the
 * connect stage knows straight pieces with two ends, so each open pass goes in as a stand-in
 * track piece from its first point to its last (its own cell, so no neighbour turn or trimming
 * applies) and `restore` puts the pass's polyline and type back into the connected route. The
 * open passes are chained greedily, each entered at the end nearer to where the last one ended.
 * `restore` also drives square corners as corner turns (headland/corners.ts).
 */
import { PlanError } from '../errors.js';
import type { PathPlanRequest } from '../types.js';
import type { LocalSegment, Piece } from '../route/connectTracks.js';
import { makeLoop } from '../route/connectorRings.js';
import { passToFlat } from './generateHeadlands.js';
import type { HeadlandPass, Headlands } from './generateHeadlands.js';
import { insertCornerTurns, shapeCorners } from './corners.js';
import { Region } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import type { TurnOptions } from '../turns/types.js';

export type HeadlandMode = 'full' | 'turnOnly' | 'none';
export type HeadlandCorners = 'rounded' | 'square';

export interface HeadlandStyle {
  mode: HeadlandMode;
  /** Absent = the offset's own corners (as before the option existed). */
  corners?: HeadlandCorners;
}

/** `headland.mode` and `headland.corners` of a request, checked (unknown values are an `invalid-request`). */
export function readHeadlandStyle(request: PathPlanRequest): HeadlandStyle {
  const h = request.headland as { mode?: unknown; corners?: unknown } | undefined;
  const mode = h?.mode ?? 'full';
  if (mode !== 'full' && mode !== 'turnOnly' && mode !== 'none')
    throw new PlanError('invalid-request', `headland.mode must be "full", "turnOnly" or "none" (got ${JSON.stringify(mode)})`, [{ path: 'headland.mode', message: 'unknown headland mode' }]);
  const corners = h?.corners;
  if (corners !== undefined && corners !== 'rounded' && corners !== 'square')
    throw new PlanError('invalid-request', `headland.corners must be "rounded" or "square" (got ${JSON.stringify(corners)})`, [{ path: 'headland.corners', message: 'unknown corner style' }]);
  return corners ? { mode, corners } : { mode };
}

/** Square corners kept on the passes and what is needed to drive them as corner turns. */
export interface CornerTurns {
  squareCorners: { x: number; y: number }[];
  region: Region;
  turnOptions: TurnOptions;
}

/**
 * Applies `headland.corners` to the passes (rounded: arcs of radius R; square: kept where a corner
 * turn fits, else rounded). Without a corner style the passes are returned as the offset made them.
 */
export function shapeHeadlandCorners(headlands: Headlands, style: HeadlandStyle, field: PathsD, turnOptions: TurnOptions): { headlands: Headlands; cornerTurns?: CornerTurns; roundedCount: number } {
  if (!style.corners || headlands.passes.length === 0) return { headlands, roundedCount: 0 };
  const region = new Region(field);
  const r = shapeCorners(headlands.passes, style.corners, turnOptions.turnRadiusMeters, region, turnOptions);
  return {
    headlands: { ...headlands, passes: r.passes },
    roundedCount: r.roundedCount,
    ...(r.squareCorners.length > 0 ? { cornerTurns: { squareCorners: r.squareCorners, region, turnOptions } } : {}),
  };
}

export interface HeadlandRoutePieces {
  /** Pieces in driving order (closed loops as given, then the open passes chained). */
  pieces: Piece[];
  /** The connected route with the stand-in track segments of open passes turned back into passes. */
  restore(segments: LocalSegment[]): LocalSegment[];
}

/**
 * Route pieces for the headland passes, in the order given (`order` lists passes of `passes`).
 * Stand-in tracks of open passes are numbered from `firstStandInIndex` (past the real tracks).
 */
export function headlandRoutePieces(passes: HeadlandPass[], order: HeadlandPass[], firstStandInIndex: number, cornerTurns?: CornerTurns): HeadlandRoutePieces {
  const pieces: Piece[] = [];
  for (const p of order) {
    if (p.open) continue;
    pieces.push({ kind: 'headland', type: p.type, headlandIndex: passes.indexOf(p), loop: makeLoop(passToFlat(p), Infinity) });
  }
  const open = order.filter((p) => p.open);
  const standIns = new Map<number, { pass: HeadlandPass; headlandIndex: number; forward: boolean }>();
  if (open.length > 0) {
    const left = open.slice();
    let cx = left[0].ring[0].x, cy = left[0].ring[0].y;
    while (left.length > 0) {
      let best = 0, bestForward = true, bestD = Infinity;
      left.forEach((p, i) => {
        const a = p.ring[0], b = p.ring[p.ring.length - 1];
        const da = Math.hypot(a.x - cx, a.y - cy), db = Math.hypot(b.x - cx, b.y - cy);
        if (da < bestD - 1e-9) { bestD = da; best = i; bestForward = true; }
        if (db < bestD - 1e-9) { bestD = db; best = i; bestForward = false; }
      });
      const p = left.splice(best, 1)[0];
      const a = p.ring[0], b = p.ring[p.ring.length - 1];
      const [s, e] = bestForward ? [a, b] : [b, a];
      const trackIndex = firstStandInIndex + standIns.size;
      standIns.set(trackIndex, { pass: p, headlandIndex: passes.indexOf(p), forward: bestForward });
      // Its own cell and a line far from every other: never a neighbour turn, never trimmed.
      pieces.push({ kind: 'track', trackIndex, line: -1e6 * (1 + standIns.size), cell: -1 - standIns.size, sx: s.x, sy: s.y, ex: e.x, ey: e.y });
      cx = e.x;
      cy = e.y;
    }
  }
  return {
    pieces,
    restore(segments) {
      const withCorners = (segs: LocalSegment[]): LocalSegment[] =>
        cornerTurns ? insertCornerTurns(segs, cornerTurns.squareCorners, cornerTurns.region, cornerTurns.turnOptions) : segs;
      if (standIns.size === 0) return withCorners(segments);
      return withCorners(segments.map((seg) => {
        const si = seg.type === 'Track' && seg.trackIndex !== undefined ? standIns.get(seg.trackIndex) : undefined;
        if (!si) return seg;
        const flat = passToFlat(si.pass);
        let xy = flat;
        if (!si.forward) {
          xy = new Float64Array(flat.length);
          for (let i = 0, n = flat.length / 2; i < n; i++) {
            xy[2 * i] = flat[2 * (n - 1 - i)];
            xy[2 * i + 1] = flat[2 * (n - 1 - i) + 1];
          }
        }
        return { type: si.pass.type, xy, headlandIndex: si.headlandIndex };
      }));
    },
  };
}
