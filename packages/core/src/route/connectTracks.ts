/**
 * Route assembly: working pieces (tracks in visit order, headland passes) joined by turns
 * and connectors that respect the minimum turning radius and stay inside the field.
 *
 * Between neighbouring tracks (same cell, ≤ 3 widths apart) the first turn candidate from
 * `turns/` that lies inside the field is taken; if none fits, both track ends are pulled
 * back a little (1, 2, 4 m) and the turn retried, then a headland traversal (onto a
 * connector ring, along it, off again) is used. Far transitions (other cells, headland
 * passes) use a traversal first and a direct manoeuvre inside the field second. What still
 * does not fit becomes a straight connector with a `turn-not-fitted` warning — `checkPlan`
 * reports it; nothing is hidden. A headland pass that cannot be entered from where the machine is
 * is put off once and tried again after the next pass; what still cannot is left out with a
 * `headland-pass-skipped` warning.
 */
import { turnSpanLines } from './skipTurns.js';
import type { Pose } from '../turns/types.js';
import type { Track } from '../tracks/generateTracks.js';
import { loopDistanceAtLeast, nearestOnLoop } from '../turns/connectorRings.js';
import { objectKey, poseKey, remember } from './connectionMemo.js';
import { sameRingAs } from '../geometry/swaths.js';
import { reversedPolyline } from '../geometry/vec.js';
import type { LocalSegment, Piece } from '../turns/path.js';
import {
  hurried,
  timeIsUp,
  tooLate,
  MAX_FAILED_SEARCHES,
  loopDirections,
  curveBetween,
  trackStart,
  trackEnd,
  endPose,
  spendJoin,
} from './connectContext.js';
import type { RouteContext, TrackVisit, Conn } from './connectContext.js';
import { enterHeadland, inPocket, passHasJunction } from './headlandEntry.js';
import { lateFallback } from './connectors.js';
import { tryDirect } from './traversal.js';
import {
  connectShortened,
  enterFromShortened,
  withShorteningBudget,
  connectNeighbours,
  connectFar,
} from './shortening.js';

export type { LocalSegment, LocalWarning, Piece } from '../turns/path.js';
export type { LengthBudget, RouteContext, ShorteningBudget, TrackVisit } from './connectContext.js';
export { tryBridgedTraversal, tryDirect, tryTraversal } from './traversal.js';
export { trySearch, tryWaypointChain } from './connectors.js';

/** Builds track pieces for a visit order. `cellOf` groups neighbours. */
export function trackPieces(
  tracks: Track[],
  visits: TrackVisit[],
  cellOf: Int32Array,
): Extract<Piece, { kind: 'track' }>[] {
  return visits.map((v) => {
    const t = tracks[v.trackIndex];
    return v.forward
      ? {
          kind: 'track',
          trackIndex: v.trackIndex,
          line: t.line,
          cell: cellOf[v.trackIndex],
          sx: t.x0,
          sy: t.y0,
          ex: t.x1,
          ey: t.y1,
          ...(t.xy ? { xy: t.xy } : {}),
        }
      : {
          kind: 'track',
          trackIndex: v.trackIndex,
          line: t.line,
          cell: cellOf[v.trackIndex],
          sx: t.x1,
          sy: t.y1,
          ex: t.x0,
          ey: t.y0,
          ...(t.xy ? { xy: reversedPolyline(t.xy) } : {}),
        };
  });
}

/** Joins the pieces, in order, into route segments (turns and connectors in between). */
export function connectTracks(pieces: Piece[], ctx: RouteContext): LocalSegment[] {
  return new PieceJoiner(pieces, ctx).run();
}

type TrackPiece = Extract<Piece, { kind: 'track' }>;
type PassPiece = Extract<Piece, { kind: 'headland' }>;
type Pending = { seg: LocalSegment; piece?: TrackPiece };

/** connectTracks' state as it walks the pieces: the segments so far, the machine's pose, the queue. */
class PieceJoiner {
  private readonly out: Pending[] = [];
  private cur: Pose | undefined;
  private prev: Piece | undefined;
  // A headland pass is left where it was joined, heading the same way; in a thin strip that can
  // be a pocket nothing leaves. When the piece right after a pass cannot be reached, the pass is
  // taken out again (with a warning) and the piece retried from where the machine was before it
  // (one pass back: deeper undoing cascades).
  // Passes driven since the last track, innermost last: each can be undone once.
  private readonly passStack: {
    outLength: number;
    cur: Pose | undefined;
    prev: Piece | undefined;
    warnings: number;
    piece: PassPiece;
    /** The length budget left before the pass (`RouteContext.lengthBudget`): given back where it is undone. */
    leftMeters: number | undefined;
  }[] = [];
  // Passes already swapped with the last pass (swapWithLastPass): once each.
  private readonly swapped = new Set<Piece>();
  // Runs of headland passes are driven nearest-first from wherever the machine is (a pass
  // around a hole next, rather than one across the field): reorder them as they come.
  private readonly queue: Piece[];
  // A pass that cannot be entered from where the machine is (an inner pass in a narrow arm of the
  // field, far from here) is put off once, within its run of passes, and tried again from where a
  // later pass leaves the machine; the pose it failed from, so it is not tried from there again.
  private readonly putOff = new Map<Piece, Pose | undefined>();

  constructor(
    pieces: Piece[],
    private readonly ctx: RouteContext,
  ) {
    this.queue = pieces.slice();
  }

  run(): LocalSegment[] {
    const queue = this.queue;
    for (let i = 0; i < queue.length; i++) {
      // past the caller's deadline: stop (the connection is marked aborted and not used)
      if (timeIsUp(this.ctx)) break;
      if (this.cur !== undefined && queue[i].kind === 'headland') this.nearestPassFirst(i, this.cur);
      const p = queue[i];
      // where the piece is not driven now, the queue index the loop goes on from
      const resume = p.kind === 'track' ? this.driveTrack(p, i) : this.drivePass(p, i);
      if (resume !== undefined) {
        i = resume;
        continue;
      }
      this.prev = p;
    }
    // Tracks may have been trimmed by later turns: their geometry is final only now.
    for (const o of this.out) {
      if (o.piece)
        o.seg.xy = o.piece.xy
          ? curveBetween(o.piece.xy, o.piece.sx, o.piece.sy, o.piece.ex, o.piece.ey)
          : Float64Array.from([o.piece.sx, o.piece.sy, o.piece.ex, o.piece.ey]);
    }
    return this.out.map((o) => o.seg);
  }

  private push(c: Conn, type: 'Turn' | 'Connector'): void {
    const seg: LocalSegment = { type, xy: Float64Array.from(c.xy), connector: c.kind };
    // under a length budget a join nothing fits spends it all: the caller has no use for the connection
    spendJoin(this.ctx, c);
    if (type === 'Turn') seg.turnType = c.turnType ?? 'Dubins';
    else if (c.turnType) seg.turnType = c.turnType;
    if (c.reverse) seg.reverse = true;
    this.out.push({ seg });
  }

  /** Of the run of headland passes starting at queue index i, the nearest to `cur` is put first. */
  private nearestPassFirst(i: number, cur: Pose): void {
    const queue = this.queue;
    let j = i,
      best = i,
      bestD = Infinity;
    while (j < queue.length && queue[j].kind === 'headland') {
      const q = queue[j] as PassPiece;
      // (a pass put off from here is not a candidate; one whose bounding box is no nearer than the best so far cannot
      // win: not measured)
      const d =
        this.putOff.get(q) === cur || loopDistanceAtLeast(q.loop, cur.x, cur.y) >= bestD - 1e-9
          ? Infinity
          : nearestOnLoop(q.loop, cur.x, cur.y).distance;
      if (d < bestD - 1e-9) {
        bestD = d;
        best = j;
      }
      j++;
    }
    if (best !== i) [queue[i], queue[best]] = [queue[best], queue[i]];
  }

  private skipPass(p: PassPiece): void {
    const ctx = this.ctx;
    // Left out, loudly: its area counts as uncovered in the metrics.
    ctx.warnings.push({
      code: 'headland-pass-skipped',
      message:
        `headland pass ${p.headlandIndex} (${p.type}, ${Math.round(p.loop.lengthMeters)} m) cannot be ` +
        `joined and left by a forward path within the turning radius inside the field; it is left out of the ` +
        `route and its area counts as uncovered`,
      x: p.loop.xy[0],
      y: p.loop.xy[1],
      headlandIndex: p.headlandIndex,
      // a pass with no junction a forward path can join and leave is entered from nowhere (enterHeadland)
      ...(passHasJunction(p.loop, loopDirections(p.loop, ctx.headlandWinding), ctx, false)
        ? {}
        : { shapeOnly: true as const }),
    });
  }

  private undoLastPass(warningsBefore: number): boolean {
    const lp = this.passStack[this.passStack.length - 1];
    if (!lp || this.prev !== lp.piece) return false;
    // Only a pass that left the machine in a pocket is to blame.
    if (this.cur && !inPocket(this.cur, this.ctx.region, this.ctx.turnOptions.turnRadiusMeters)) return false;
    // One pass back only: deeper undoing cascades where the next piece is hard for other reasons.
    this.passStack.length = 0;
    this.out.length = lp.outLength;
    if (this.ctx.lengthBudget && lp.leftMeters !== undefined) this.ctx.lengthBudget.leftMeters = lp.leftMeters;
    this.cur = lp.cur;
    this.prev = lp.prev;
    this.ctx.warnings.length = Math.min(lp.warnings, warningsBefore);
    this.skipPass(lp.piece);
    return true;
  }

  // A pass that cannot be entered from where the last pass left the machine is tried from where
  // the machine was before that pass, the last pass then put off after it — once per pass, and
  // only for a pass longer than the last one (at worst the shorter is left out). Returns the queue
  // index the loop goes on from (its next piece is p), or undefined where it does not swap.
  private swapWithLastPass(p: PassPiece, i: number): number | undefined {
    const lp = this.passStack[this.passStack.length - 1];
    if (
      !lp ||
      this.prev !== lp.piece ||
      this.swapped.has(p) ||
      lp.cur === undefined ||
      p.loop.lengthMeters <= lp.piece.loop.lengthMeters
    )
      return undefined;
    const queue = this.queue;
    const j = queue.indexOf(lp.piece);
    if (j < 0 || j >= i) return undefined;
    this.swapped.add(p);
    this.passStack.pop();
    this.out.length = lp.outLength;
    if (this.ctx.lengthBudget && lp.leftMeters !== undefined) this.ctx.lengthBudget.leftMeters = lp.leftMeters;
    this.cur = lp.cur;
    this.prev = lp.prev;
    this.ctx.warnings.length = lp.warnings;
    // p next, from there; the last pass after it (not first again from this pose), then the passes
    // tried after the last one (their warnings undone with it) again
    queue.splice(i, 1);
    queue.splice(j, 1, p, lp.piece);
    this.putOff.set(lp.piece, this.cur);
    return j - 1;
  }

  /** Drives track p (queue index i), joined from where the machine is; i - 1 where it is retried. */
  private driveTrack(p: TrackPiece, i: number): number | undefined {
    const ctx = this.ctx;
    const prev = this.prev;
    if (this.cur !== undefined) {
      const warned = ctx.warnings.length;
      const neighbours =
        prev?.kind === 'track' &&
        prev.cell === p.cell &&
        Math.abs(prev.line - p.line) <= turnSpanLines(ctx.widthMeters, ctx.turnOptions.turnRadiusMeters);
      const from = this.cur,
        to = trackStart(p);
      // past the call's late moment: the shortest turn or nothing (drawn straight)
      let c = tooLate(ctx)
        ? (tryDirect(from, to, ctx, 1) ?? lateFallback(from, to, ctx, `the way to track ${p.trackIndex}`))
        : neighbours
          ? connectNeighbours(prev as TrackPiece, p, ctx)
          : remember(
              ctx.memo,
              ctx,
              `far ${poseKey(from)} ${poseKey(to)}`,
              MAX_FAILED_SEARCHES,
              () => connectFar(from, to, ctx, `the way to track ${p.trackIndex}`),
              `${p.trackIndex}`,
            );
      if (c.kind === 'unfitted' && this.undoLastPass(warned)) return i - 1;
      if (c.kind === 'unfitted' && ctx.shortenUnfitted?.start()) {
        // Shorten the tracks at this join until something fits: its warning replaces turn-not-fitted.
        const warnedAfter = ctx.warnings.length;
        const s = withShorteningBudget(ctx, (budgeted) =>
          connectShortened(prev?.kind === 'track' ? prev : undefined, from, p, budgeted),
        );
        if (s) {
          ctx.warnings.splice(warned, warnedAfter - warned);
          c = s;
        }
      }
      // a manoeuvre straight from one track of a cell to another is a turn, however many lines over
      this.push(
        c,
        neighbours || (c.kind === 'direct' && prev?.kind === 'track' && prev.cell === p.cell) ? 'Turn' : 'Connector',
      );
    }
    this.out.push({ seg: { type: 'Track', xy: new Float64Array(0), trackIndex: p.trackIndex }, piece: p });
    this.cur = trackEnd(p);
    this.passStack.length = 0;
    return undefined;
  }

  /** Drives headland pass p (queue index i); where it is not driven now, the index the loop goes on from. */
  private drivePass(p: PassPiece, i: number): number | undefined {
    const ctx = this.ctx;
    const queue = this.queue;
    const prev = this.prev;
    const before = {
      outLength: this.out.length,
      cur: this.cur,
      prev,
      warnings: ctx.warnings.length,
      leftMeters: ctx.lengthBudget?.leftMeters,
    };
    const from = this.cur;
    let entered =
      from && ctx.memo
        ? remember(ctx.memo, ctx, `pass ${objectKey(ctx.memo, p.loop)} ${poseKey(from)}`, MAX_FAILED_SEARCHES, () =>
            enterHeadland(from, p, ctx),
          )
        : enterHeadland(from, p, ctx);
    // The track before ends in a pocket: its end pulled back until the pass can be joined.
    if (!entered && prev?.kind === 'track' && !hurried(ctx)) entered = enterFromShortened(prev, p, ctx);
    if (!entered) {
      // Undo the previous pass only if this one could be joined from somewhere at all.
      if (
        passHasJunction(p.loop, loopDirections(p.loop, ctx.headlandWinding), ctx) &&
        this.undoLastPass(ctx.warnings.length)
      )
        return i - 1;
      if (!this.putOff.has(p) && queue[i + 1]?.kind === 'headland') {
        this.putOff.set(p, this.cur);
        queue.splice(i, 1);
        queue.splice(i + 1, 0, p);
        return i - 1;
      }
      const resume = this.swapWithLastPass(p, i);
      if (resume !== undefined) return resume;
      this.skipPass(p);
      return i;
    }
    const { conn, ring } = entered;
    if (conn) this.push(conn, 'Connector');
    const xy = Float64Array.from(ring);
    // the pass ring driven whole from its junction: its swath is the pass's (geometry/swaths.ts)
    sameRingAs(xy, p.loop.xy);
    this.out.push({ seg: { type: p.type, xy, headlandIndex: p.headlandIndex } });
    this.cur = endPose(ring);
    this.passStack.push({ ...before, piece: p });
    return undefined;
  }
}
