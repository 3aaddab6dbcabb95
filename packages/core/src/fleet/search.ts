/**
 * The fleet's layout searched on its timetable: which run of the route each machine works, which
 * way round it drives it, and who gives way. It starts from the min–max cuts (partition.ts), every
 * share driven as planned, and improves by first-improvement local search over three moves — a share
 * driven the other way round, a cut moved by 1, 2 or 4 blocks, a machine put first in the priority
 * order — each judged by scheduling the whole fleet (schedule.ts): fewer unresolved conflicts first,
 * then the shorter makespan, then less waiting. The search stops when no move improves or the work
 * budget (distance comparisons, counted) is spent: the same input gives the same layout on any machine.
 */
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { BaseRoute, BasePiece, Share } from './baseRoute.js';
import { sharePieces } from './baseRoute.js';
import { blockSums, orderAndCut } from './partition.js';
import { scheduleFleet } from './schedule.js';
import type { ScheduleCutoff, ScheduleSettings, TimedPath, Timetable } from './schedule.js';
import { pieceSeconds } from './timing.js';
import { approachSeconds } from './approach.js';
import type { Approaches } from './approach.js';

/** The work (distance comparisons) the layout search may spend. */
export const FLEET_SEARCH_WORK = 60_000_000;
const CUT_STEPS = [1, -1, 2, -2, 4, -4];

/** Machines (indices into the fleet) that work one base route. */
export interface FleetGroup {
  base: BaseRoute;
  machines: number[];
}

export interface GroupLayout {
  /** Machines (fleet indices) in the order of their shares along the route. */
  order: number[];
  /** First block of each share; last entry = number of blocks. */
  cuts: number[];
  reversed: boolean[];
}

export interface Layout {
  groups: GroupLayout[];
  /** Scheduling priority (fleet indices): earlier machines never wait for later ones. */
  priority: number[];
}

export interface Evaluated {
  layout: Layout;
  /** Per fleet machine: its pieces in driving order and their seconds. */
  pieces: BasePiece[][];
  timetable: Timetable;
}

export interface SearchResult {
  best: Evaluated;
  moves: number;
  work: number;
  evaluations: number;
  /** The shares' pieces as they were timed, for a search that goes on from this one (searchLayout's `timed`). */
  shares: ShareCache;
}

function cloneLayout(l: Layout): Layout {
  return {
    groups: l.groups.map((g) => ({ order: [...g.order], cuts: [...g.cuts], reversed: [...g.reversed] })),
    priority: [...l.priority],
  };
}

/** Shares already read, with their times (key: machine, base, first and last block, way round). */
export type ShareCache = Map<string, { pieces: BasePiece[]; seconds: number[]; points: number }>;

/**
 * Schedules one layout; `work` counts the points of the shares read anew and the scheduler's comparisons. With a
 * `cutoff`, scheduling stops once the layout cannot beat it (the timetable is `abandoned`).
 */
export function evaluateLayout(
  groups: readonly FleetGroup[],
  machines: readonly ResolvedMachine[],
  layout: Layout,
  settings: ScheduleSettings,
  cache: ShareCache = new Map(),
  cutoff?: ScheduleCutoff,
  approaches: Approaches = [],
): Evaluated & { work: number } {
  const pieces: BasePiece[][] = machines.map(() => []);
  const paths: TimedPath[] = machines.map(() => ({ pieces: [], seconds: [] }));
  let work = 0;
  layout.groups.forEach((gl, g) => {
    gl.order.forEach((m, p) => {
      const share: Share = { base: g, from: gl.cuts[p], to: gl.cuts[p + 1] - 1, reversed: gl.reversed[p] };
      const key = `${m}:${g}:${share.from}:${share.to}:${share.reversed ? 1 : 0}`;
      let hit = cache.get(key);
      if (!hit) {
        const ps = sharePieces(groups[g].base, share);
        const points = ps.reduce((s, x) => s + x.xy.length / 2, 0);
        hit = { pieces: ps, seconds: pieceSeconds(ps, machines[m]), points };
        cache.set(key, hit);
        work += points;
      }
      pieces[m] = hit.pieces;
      paths[m] = { pieces: hit.pieces, seconds: hit.seconds };
      const ready = approachSeconds(approaches[m], hit.pieces);
      if (ready > 0) paths[m].readySeconds = ready;
    });
  });
  const timetable = scheduleFleet(paths, layout.priority, settings, cutoff);
  return { layout, pieces, timetable, work: work + timetable.work };
}

function better(a: Timetable, b: Timetable): boolean {
  if (a.abandoned) return false;
  if (a.unresolved !== b.unresolved) return a.unresolved < b.unresolved;
  if (a.makespanSeconds < b.makespanSeconds - 1e-6) return true;
  if (a.makespanSeconds > b.makespanSeconds + 1e-6) return false;
  return waitSum(a) < waitSum(b) - 1e-6;
}

function waitSum(t: Timetable): number {
  return t.waits.reduce((s, w) => s + w.durationSeconds, 0);
}

/** The min–max cuts of every group, each share driven as planned, machines prioritised in fleet order. */
export function initialLayout(groups: readonly FleetGroup[], machines: readonly ResolvedMachine[]): Layout {
  return {
    groups: groups.map((g) => {
      const cut = orderAndCut(
        blockSums(g.base),
        g.machines.map((m) => machines[m]),
      );
      const order = cut.order.map((i) => g.machines[i]);
      return { order, cuts: cut.cuts, reversed: order.map(() => false) };
    }),
    priority: machines.map((_, i) => i),
  };
}

/** Every move from a layout, in a fixed order (`swaps`: two machines also exchange their shares). */
function* moves(layout: Layout, swaps = false): Generator<Layout> {
  for (let g = 0; g < layout.groups.length; g++) {
    const gl = layout.groups[g];
    if (swaps)
      for (let p = 0; p < gl.order.length; p++)
        for (let q = p + 1; q < gl.order.length; q++) {
          const next = cloneLayout(layout);
          [next.groups[g].order[p], next.groups[g].order[q]] = [gl.order[q], gl.order[p]];
          yield next;
        }
    for (let p = 0; p < gl.order.length; p++) {
      const next = cloneLayout(layout);
      next.groups[g].reversed[p] = !gl.reversed[p];
      yield next;
    }
    for (let c = 1; c < gl.cuts.length - 1; c++)
      for (const step of CUT_STEPS) {
        const at = gl.cuts[c] + step;
        if (at <= gl.cuts[c - 1] || at >= gl.cuts[c + 1]) continue;
        const next = cloneLayout(layout);
        next.groups[g].cuts[c] = at;
        yield next;
      }
  }
  for (let i = 1; i < layout.priority.length; i++) {
    const next = cloneLayout(layout);
    const [m] = next.priority.splice(i, 1);
    next.priority.unshift(m);
    yield next;
  }
}

/** Shares driven either way round (all combinations) at most this many machines per route. */
const MAX_START_SHARES = 4;

/**
 * The starts tried besides the initial layout: for a route shared by at most MAX_START_SHARES machines, every
 * combination of its shares' ways round, each with every machine first in the priority (the rest in order).
 */
function* startLayouts(layout: Layout): Generator<Layout> {
  const shares = layout.groups.map((g) => g.order.length);
  if (shares.some((n) => n > MAX_START_SHARES)) return;
  const total = shares.reduce((a, b) => a + b, 0);
  for (let mask = 0; mask < 1 << total; mask++)
    for (let first = 0; first < layout.priority.length; first++) {
      if (mask === 0 && first === 0) continue;
      const next = cloneLayout(layout);
      let bit = 0;
      for (const g of next.groups)
        for (let p = 0; p < g.reversed.length; p++) g.reversed[p] = ((mask >> bit++) & 1) === 1;
      const [m] = next.priority.splice(first, 1);
      next.priority.unshift(m);
      yield next;
    }
}

/**
 * Local search from the initial layout, then from the best of several starts, within FLEET_SEARCH_WORK. `timed`: a
 * search of the same groups with no budget (the initial layout timed, as it comes), to go on from.
 */
export function searchLayout(
  groups: readonly FleetGroup[],
  machines: readonly ResolvedMachine[],
  settings: ScheduleSettings,
  workBudget: number = FLEET_SEARCH_WORK,
  approaches: Approaches = [],
  timed?: SearchResult,
): SearchResult {
  const cache: ShareCache = timed?.shares ?? new Map();
  // Machines that come from start points may also exchange shares (the nearest share to each).
  const swaps = approaches.some((a) => a !== undefined);
  const initial = timed
    ? undefined
    : evaluateLayout(groups, machines, initialLayout(groups, machines), settings, cache, undefined, approaches);
  let best: Evaluated = initial ?? timed!.best;
  const state = { work: initial?.work ?? timed!.work, evaluations: timed?.evaluations ?? 1, count: 0 };
  // Each layout is scheduled only as far as it can still beat the one it is compared with.
  const evaluate = (layout: Layout, toBeat: Timetable): Evaluated & { work: number } => {
    const e = evaluateLayout(groups, machines, layout, settings, cache, toBeat, approaches);
    state.work += e.work;
    state.evaluations++;
    return e;
  };
  // First-improvement local search from `from`.
  const descend = (from: Evaluated): Evaluated => {
    let at = from;
    let improved = true;
    while (improved && state.work < workBudget) {
      improved = false;
      for (const next of moves(at.layout, swaps)) {
        if (state.work >= workBudget) break;
        const e = evaluate(next, at.timetable);
        if (better(e.timetable, at.timetable)) {
          at = e;
          state.count++;
          improved = true;
          break;
        }
      }
    }
    return at;
  };
  best = descend(best);
  // Then other starts from the local optimum's cuts (every way round of the shares, every machine first); the best
  // of them, if better, is searched from again: never worse than the first descent.
  let restart: Evaluated | undefined;
  for (const start of startLayouts(best.layout)) {
    if (state.work >= workBudget) break;
    const e = evaluate(start, (restart ?? best).timetable);
    if (better(e.timetable, (restart ?? best).timetable)) restart = e;
  }
  if (restart) best = descend(restart);
  return { best, moves: state.count, work: state.work, evaluations: state.evaluations, shares: cache };
}
