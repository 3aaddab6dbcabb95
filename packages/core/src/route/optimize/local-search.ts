/**
 * Anytime improvement of an item order: 2-opt with end flips and Or-opt (segments of 1-3 items,
 * either way round) over neighbour lists with don't-look bits, then an iterated local search
 * (seeded segment-limited double-bridge kicks) until the time or iteration budget runs out or
 * `maxStallKicks` kicks in a row brought nothing.
 *
 * Costs must be symmetric (see OrderingProblem.transitionCost): reversing a stretch of the route
 * then changes only the two links at its ends.
 */
import type { ItemOrder, OrderingProblem } from '../order/problem.js';
import { linkCost } from '../order/problem.js';
import { seededRandom } from '../../geometry/random.js';
import { TransitionMemo, buildNeighbourLists } from './transitions.js';
import type { NeighbourLists } from './transitions.js';

export interface LocalSearchOptions {
  /**
   * Milliseconds clock injected by the caller (core reads no clock). Absent = only iteration budgets stop the search.
   */
  now?: () => number;
  /** Hard limit on the search time, milliseconds (needs `now`). */
  maxTimeMilliseconds?: number;
  /** Start time on the `now` clock the limit is measured from (default: when the search starts). */
  startedAtMilliseconds?: number;
  /** Maximum number of kicks (perturbations); default 20 × maxStallKicks. */
  maxKicks?: number;
  /** Stop after this many kicks in a row without improvement; default min(1000, 50 + 2n). */
  maxStallKicks?: number;
  /** Neighbour list length per end; default 10. */
  neighbourCount?: number;
  /** Seed of the kick generator; default derived from the instance size. */
  seed?: number;
  /** The call's wall-clock cap (clock.ts): true once it has passed; the search stops there (`time-limit`). */
  stop?: () => boolean;
}

export type StopReason = 'local-optimum' | 'converged' | 'time-limit' | 'iteration-limit';

export interface LocalSearchResult {
  order: ItemOrder;
  cost: number;
  /** Improving moves applied (2-opt, flips, Or-opt), kicks included. */
  iterations: number;
  kicks: number;
  stoppedBy: StopReason;
}

const EPS = 1e-7;

/**
 * Improves `initial` (a valid order) and returns the best order found; never worse than `initial`
 * under the problem's cost.
 */
export function improveOrder(
  problem: OrderingProblem,
  initial: ItemOrder,
  options: LocalSearchOptions = {},
  shared?: { memo: TransitionMemo; neighbours: NeighbourLists },
): LocalSearchResult {
  const memo = shared?.memo ?? new TransitionMemo(problem);
  const nb = shared?.neighbours ?? buildNeighbourLists(problem, memo.lookup, options.neighbourCount ?? 10);
  return new OrderSearch({ ...problem, transitionCost: memo.lookup }, memo, initial, options, nb).run(options);
}

/**
 * The search state of one improveOrder call. A class rather than closures over locals: the
 * methods are the same functions for every call, so the engine's optimised code for them stays
 * valid from one plan to the next instead of being rebuilt for each call's new closures.
 */
class OrderSearch {
  readonly n: number;
  readonly order: Int32Array;
  readonly pos: Int32Array;
  readonly flip: Uint8Array;
  readonly fixedOrientation: Uint8Array | undefined;
  readonly now: (() => number) | undefined;
  readonly startedAt: number;
  readonly limitMs: number;
  readonly stop?: () => boolean;
  current = 0;
  iterations = 0;
  stopped: StopReason | undefined = undefined;
  // don't-look bits as a FIFO of items
  readonly queue: Int32Array;
  readonly queued: Uint8Array;
  qHead = 0;
  qTail = 0;
  qSize = 0;
  // positions changed since the last accepted state (restored from the best on a failed kick)
  dirtyLo: number;
  dirtyHi = -1;
  readonly segItems = new Int32Array(3);
  readonly segFlips = new Uint8Array(3);

  /** `problem`'s transitionCost is `memo`'s. */
  constructor(
    readonly problem: OrderingProblem,
    readonly memo: TransitionMemo,
    initial: ItemOrder,
    options: LocalSearchOptions,
    readonly nb: NeighbourLists,
  ) {
    const n = problem.itemCount;
    this.n = n;
    const now = options.now;
    this.startedAt = options.startedAtMilliseconds ?? (now ? now() : 0);
    this.limitMs = now && options.maxTimeMilliseconds !== undefined ? options.maxTimeMilliseconds : Infinity;
    if (options.stop) this.stop = options.stop;
    this.fixedOrientation = problem.fixedOrientation;
    this.order = new Int32Array(n);
    this.pos = new Int32Array(n);
    this.flip = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      this.order[k] = initial.sequence[k];
      this.pos[initial.sequence[k]] = k;
      this.flip[initial.sequence[k]] = initial.flipped[k] ? 1 : 0;
    }
    this.queue = new Int32Array(n + 1);
    this.queued = new Uint8Array(n);
    this.dirtyLo = n;
    this.now = now;
  }

  entry(k: number): number {
    return k < 0 || k >= this.n ? -1 : 2 * this.order[k] + this.flip[this.order[k]];
  }

  exit(k: number): number {
    return k < 0 || k >= this.n ? -1 : (2 * this.order[k] + this.flip[this.order[k]]) ^ 1;
  }

  /**
   * linkCost, with the transition taken from the memo by a direct method call: through the
   * problem's transitionCost closure every cost came back as a new heap number (4 GB of garbage
   * over the 88 corpus fields).
   */
  link(from: number, to: number): number {
    return from >= 0 && to >= 0 ? this.memo.cost(from, to) : linkCost(this.problem, from, to);
  }

  /** Link cost into position k (k = n: into the finish depot). */
  linkAt(k: number): number {
    return this.link(this.exit(k - 1), this.entry(k));
  }

  activate(k: number): void {
    if (k < 0 || k >= this.n) return;
    const item = this.order[k];
    if (this.queued[item]) return;
    this.queued[item] = 1;
    this.queue[this.qTail] = item;
    this.qTail = this.qTail === this.n ? 0 : this.qTail + 1;
    this.qSize++;
  }

  outOfTime(): boolean {
    if (this.stop?.()) {
      this.stopped = 'time-limit';
      return true;
    }
    if (this.limitMs === Infinity) return false;
    if (this.now!() - this.startedAt >= this.limitMs) {
      this.stopped = 'time-limit';
      return true;
    }
    return false;
  }

  touch(lo: number, hi: number): void {
    if (lo < this.dirtyLo) this.dirtyLo = lo;
    if (hi > this.dirtyHi) this.dirtyHi = hi;
  }

  hasFixed(i: number, j: number): boolean {
    const fixed = this.fixedOrientation;
    if (!fixed) return false;
    for (let k = i; k <= j; k++) if (fixed[this.order[k]]) return true;
    return false;
  }

  twoOptDelta(i: number, j: number): number {
    return (
      this.link(this.exit(i - 1), this.exit(j)) +
      this.link(this.entry(i), this.entry(j + 1)) -
      this.linkAt(i) -
      this.linkAt(j + 1)
    );
  }

  applyReverse(i: number, j: number): void {
    const { order, pos, flip } = this;
    for (let a = i, b = j; a <= b; a++, b--) {
      const ia = order[a];
      const ib = order[b];
      order[a] = ib;
      order[b] = ia;
      pos[ib] = a;
      pos[ia] = b;
    }
    for (let k = i; k <= j; k++) flip[order[k]] ^= 1;
    this.touch(i, j);
    this.activate(i - 1);
    this.activate(i);
    this.activate(j);
    this.activate(j + 1);
  }

  tryReverse(i: number, j: number): boolean {
    if (i > j || i < 0 || j >= this.n) return false;
    const d = this.twoOptDelta(i, j);
    if (d < -EPS && !this.hasFixed(i, j)) {
      this.applyReverse(i, j);
      this.current += d;
      this.iterations++;
      return true;
    }
    return false;
  }

  tryTwoOpt(p: number): boolean {
    // new link exit(p) — exit(q), then entry(p) — entry(q): reverse the stretch between them
    if (this.tryTwoOptAt(p, true) || this.tryTwoOptAt(p, false)) return true;
    // end flip and the stretches touching the depots
    return this.tryReverse(p, p) || this.tryReverse(0, p) || this.tryReverse(p, this.n - 1);
  }

  /** A 2-opt move joining the exits (`atExit`) or the entries of p and a near neighbour q. */
  private tryTwoOptAt(p: number, atExit: boolean): boolean {
    const nb = this.nb;
    const kk = nb.k;
    const a = atExit ? this.exit(p) : this.entry(p);
    const g = this.linkAt(atExit ? p + 1 : p);
    for (let t = 0; t < nb.count[a]; t++) {
      const c = nb.costs[a * kk + t];
      if (c >= g - EPS) break;
      const b = nb.ends[a * kk + t];
      const q = this.pos[b >> 1];
      if (q === p || b !== (atExit ? this.exit(q) : this.entry(q))) continue;
      const lo = Math.min(p, q),
        hi = Math.max(p, q);
      if (atExit ? this.tryReverse(lo + 1, hi) : this.tryReverse(lo, hi - 1)) return true;
    }
    return false;
  }

  /** Moves positions [i, i+len) to just after position t (original numbering), reversed or not. */
  applyMove(i: number, len: number, t: number, reversed: boolean): void {
    const { order, pos, flip, segItems, segFlips } = this;
    for (let s = 0; s < len; s++) {
      const src = reversed ? i + len - 1 - s : i + s;
      segItems[s] = order[src];
      segFlips[s] = flip[order[src]] ^ (reversed ? 1 : 0);
    }
    let dst: number;
    let lo: number;
    let hi: number;
    if (t < i) {
      order.copyWithin(t + 1 + len, t + 1, i);
      dst = t + 1;
      lo = t + 1;
      hi = i + len - 1;
    } else {
      order.copyWithin(i, i + len, t + 1);
      dst = t - len + 1;
      lo = i;
      hi = t;
    }
    for (let s = 0; s < len; s++) {
      order[dst + s] = segItems[s];
      flip[segItems[s]] = segFlips[s];
    }
    for (let k = lo; k <= hi; k++) pos[order[k]] = k;
    this.touch(lo, hi);
    this.activate(i - 1);
    this.activate(i);
    this.activate(dst - 1);
    this.activate(dst);
    this.activate(dst + len - 1);
    this.activate(dst + len);
    this.activate(lo - 1);
    this.activate(hi + 1);
  }

  tryOrOpt(p: number): boolean {
    const { nb, n } = this;
    const kk = nb.k;
    for (let len = 1; len <= 3 && len < n; len++) {
      for (let i = p - len + 1; i <= p; i++) {
        if (i < 0 || i + len > n) continue;
        const segIn = this.entry(i);
        const segOut = this.exit(i + len - 1);
        const removeGain = this.linkAt(i) + this.linkAt(i + len) - this.link(this.exit(i - 1), this.entry(i + len));
        if (removeGain <= EPS) continue;
        for (let side = 0; side < 2; side++) {
          const a = side === 0 ? segIn : segOut;
          for (let t = 0; t < nb.count[a]; t++) {
            const c = nb.costs[a * kk + t];
            if (c >= removeGain - EPS) break;
            const b = nb.ends[a * kk + t];
            const q = this.pos[b >> 1];
            if (q >= i && q < i + len) continue;
            let after: number;
            let reversed: boolean;
            if (b === this.exit(q)) {
              after = q; // link b -> a: a becomes the segment's new entry
              reversed = a === segOut;
            } else {
              after = q - 1; // link a -> b: a becomes the segment's new exit
              reversed = a === segIn;
            }
            if (after >= i - 1 && after <= i + len - 1) continue;
            if (reversed && this.hasFixed(i, i + len - 1)) continue;
            const newIn = reversed ? segOut : segIn;
            const newOut = reversed ? segIn : segOut;
            const d =
              this.link(this.exit(after), newIn) +
              this.link(newOut, this.entry(after + 1)) -
              this.linkAt(after + 1) -
              removeGain;
            if (d < -EPS) {
              this.applyMove(i, len, after, reversed);
              this.current += d;
              this.iterations++;
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  /** Runs the queue empty (or out of time). */
  descend(): boolean {
    const { queue, queued, pos, n } = this;
    let pops = 0;
    while (this.qSize > 0) {
      if ((++pops & 63) === 0 && this.outOfTime()) return false;
      const item = queue[this.qHead];
      this.qHead = this.qHead === n ? 0 : this.qHead + 1;
      this.qSize--;
      queued[item] = 0;
      const p = pos[item];
      if (this.tryTwoOpt(p) || this.tryOrOpt(pos[item])) this.activate(pos[item]);
    }
    return true;
  }

  /** A kick: a segment-limited double bridge, A B C D -> A C B D with |B|, |C| ≤ 30, its ends activated. */
  private doubleBridge(random: () => number, scratch: Int32Array): void {
    const { n, order, pos } = this;
    const maxSeg = Math.min(30, Math.floor((n - 1) / 3));
    const lb = 1 + Math.floor(random() * maxSeg);
    const lc = 1 + Math.floor(random() * maxSeg);
    const a = Math.floor(random() * (n - lb - lc + 1));
    const b = a + lb;
    const c = b + lc;
    const d =
      this.link(this.exit(a - 1), this.entry(b)) +
      this.link(this.exit(c - 1), this.entry(a)) +
      this.link(this.exit(b - 1), this.entry(c)) -
      this.linkAt(a) -
      this.linkAt(b) -
      this.linkAt(c);
    for (let k = a; k < c; k++) scratch[k] = order[k];
    let w = a;
    for (let k = b; k < c; k++) order[w++] = scratch[k];
    for (let k = a; k < b; k++) order[w++] = scratch[k];
    for (let k = a; k < c; k++) pos[order[k]] = k;
    this.touch(a, c - 1);
    this.current += d;
    this.activate(a - 1);
    this.activate(a);
    this.activate(a + lc - 1);
    this.activate(a + lc);
    this.activate(c - 1);
    this.activate(c);
  }

  /** Descends, then kicks until a budget or the stall limit stops the search. */
  run(options: LocalSearchOptions): LocalSearchResult {
    const { n, order, pos, flip, queue, queued } = this;
    const maxStall = options.maxStallKicks ?? Math.min(1000, 50 + 2 * n);
    const maxKicks = options.maxKicks ?? 20 * maxStall;
    const random = seededRandom(options.seed ?? 0x9e3779b9 ^ Math.imul(n, 2654435761));
    for (let k = 0; k < n; k++) this.current += this.problem.workCost[k];
    for (let k = 0; k <= n; k++) this.current += this.linkAt(k);

    for (let k = 0; k < n; k++) this.activate(k);
    const bestOrder = new Int32Array(n);
    const bestFlip = new Uint8Array(n);
    let kicks = 0;
    let stall = 0;
    if (n > 0 && !this.outOfTime()) {
      this.descend();
    }
    let best = this.current;
    bestOrder.set(order);
    bestFlip.set(flip);
    this.dirtyLo = n;
    this.dirtyHi = -1;

    const scratch = new Int32Array(n);
    const canKick = n >= 8;
    while (!this.stopped) {
      if (!canKick) {
        this.stopped = 'local-optimum';
        break;
      }
      if (stall >= maxStall) {
        this.stopped = 'converged';
        break;
      }
      if (kicks >= maxKicks) {
        this.stopped = 'iteration-limit';
        break;
      }
      if (this.outOfTime()) break;
      this.doubleBridge(random, scratch);
      kicks++;
      this.iterations++;
      this.descend();
      if (this.current < best - EPS) {
        best = this.current;
        for (let k = this.dirtyLo; k <= this.dirtyHi; k++) {
          bestOrder[k] = order[k];
          bestFlip[order[k]] = flip[order[k]];
        }
        stall = 0;
      } else {
        stall++;
        for (let k = this.dirtyLo; k <= this.dirtyHi; k++) {
          order[k] = bestOrder[k];
          flip[order[k]] = bestFlip[order[k]];
          pos[order[k]] = k;
        }
        this.current = best;
        // a partially run queue belongs to the discarded order
        while (this.qSize > 0) {
          queued[queue[this.qHead]] = 0;
          this.qHead = this.qHead === n ? 0 : this.qHead + 1;
          this.qSize--;
        }
      }
      this.dirtyLo = n;
      this.dirtyHi = -1;
    }

    const sequence = Array.from(bestOrder);
    const flipped = sequence.map((item) => bestFlip[item] === 1);
    return {
      order: { sequence, flipped },
      cost: best,
      iterations: this.iterations,
      kicks,
      stoppedBy: this.stopped ?? 'local-optimum',
    };
  }
}
