/**
 * Tours of a part's centre line (tracks/centreLine.ts) where its axis has junctions: one forward
 * pass that drives branch after branch, continuing at each junction into a branch not yet driven
 * (the straightest), and, where none is left at a junction, on through branches already driven
 * (the boom's sections off) to the nearest one still to drive, without turning back. A tour ends
 * at a dead end (a branch's free end) or where nothing is left that it can reach; the branches
 * left start tours of their own. Round a hole, a tour drives the ring and goes on: no join the
 * route would have to fit between passes in ground too narrow for R.
 */
import type { MedialBranch } from '../geometry/medialAxis.js';
import { polylineLength, reversedPolyline } from '../geometry/vec.js';
import { outward } from './centreLineBasics.js';

/** A tour turns at a junction by at most this (a bend of the strip beyond it is too tight for any R). */
export const MAX_TOUR_TURN_DEGREES = 120;
/** A tour drives at most this many times the length of the axis (branches driven again included). */
const MAX_TOUR_SHARE = 3;

export interface TourPath {
  /** Flat xy, the branches end to end. */
  xy: Float64Array;
  /** Whether it drives a branch again or comes back to a junction (its sections then go off over its own work). */
  revisits: boolean;
  /** Whether it starts on a branch with no dead end (a ring, or between two junctions): it may start the other way. */
  turnable: boolean;
}

interface End {
  b: number;
  atStart: boolean;
}

/** A branch driven one way: from its start node (`forward`) or from its end node. */
interface Leg {
  b: number;
  forward: boolean;
}

/**
 * The part's axis as tours, the longest branches' first; `turned`: a tour that starts on a branch
 * with no dead end starts it the other way round (choice/ `tours-turned`: where a bend cuts the
 * tour, which side of it the route can join depends on the way it goes).
 */
export function tourPaths(branches: MedialBranch[], turned = false): TourPath[] {
  const ends = new Map<number, End[]>();
  const add = (node: number, e: End): void => {
    let l = ends.get(node);
    if (!l) ends.set(node, (l = []));
    l.push(e);
  };
  branches.forEach((b, i) => {
    add(b.startNode, { b: i, atStart: true });
    add(b.endNode, { b: i, atStart: false });
  });
  const lengths = branches.map((b) => polylineLength(b.xy));
  const total = lengths.reduce((a, b) => a + b, 0);
  const driven = new Uint8Array(branches.length);
  const nodeAt = (l: Leg): number => (l.forward ? branches[l.b].endNode : branches[l.b].startNode);
  const deadEnd = (node: number): boolean => (ends.get(node)?.length ?? 0) <= 1;
  const cosMax = Math.cos((MAX_TOUR_TURN_DEGREES * Math.PI) / 180);
  /** The legs a tour may go on with from `l` (turning by MAX_TOUR_TURN_DEGREES at most). */
  const nextLegs = (l: Leg): Leg[] => {
    const node = nodeAt(l);
    const [ax, ay] = outward(branches[l.b], !l.forward);
    const out: { leg: Leg; c: number }[] = [];
    for (const e of ends.get(node) ?? []) {
      if (e.b === l.b && e.atStart === !l.forward) continue;
      const [ux, uy] = outward(branches[e.b], e.atStart);
      const c = -(ax * ux + ay * uy);
      if (c >= cosMax) out.push({ leg: { b: e.b, forward: e.atStart }, c });
    }
    return out.sort((p, q) => q.c - p.c || p.leg.b - q.leg.b).map((o) => o.leg);
  };
  const order = branches.map((_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
  const tours: TourPath[] = [];
  for (;;) {
    // start at a dead end of the longest branch left that has one, else at the longest left
    const left = order.filter((i) => !driven[i]);
    if (left.length === 0) break;
    const b0 = left.find((i) => deadEnd(branches[i].startNode) || deadEnd(branches[i].endNode)) ?? left[0];
    const turnable = !deadEnd(branches[b0].startNode) && !deadEnd(branches[b0].endNode);
    const legs: Leg[] = [{ b: b0, forward: !deadEnd(branches[b0].endNode) !== (turned && turnable) }];
    driven[b0] = 1;
    let length = lengths[b0];
    for (;;) {
      const last = legs[legs.length - 1];
      if (deadEnd(nodeAt(last))) break;
      const fresh = nextLegs(last).find((l) => !driven[l.b]);
      const way = fresh ? [fresh] : wayToUndriven(last, nextLegs, driven, lengths, nodeAt, deadEnd);
      if (!way) break;
      let add = 0;
      for (const l of way) add += lengths[l.b];
      if (length + add > MAX_TOUR_SHARE * total) break;
      for (const l of way) {
        legs.push(l);
        driven[l.b] = 1;
      }
      length += add;
    }
    tours.push({ ...tourOf(legs, branches), turnable });
  }
  return tours;
}

/** The shortest run of legs from `from` to a branch not yet driven, through driven ones (no dead end on the way). */
function wayToUndriven(
  from: Leg,
  nextLegs: (l: Leg) => Leg[],
  driven: Uint8Array,
  lengths: number[],
  nodeAt: (l: Leg) => number,
  deadEnd: (node: number) => boolean,
): Leg[] | undefined {
  const key = (l: Leg): number => 2 * l.b + (l.forward ? 1 : 0);
  const dist = new Map<number, number>([[key(from), 0]]);
  const prev = new Map<number, Leg>();
  const legOf = new Map<number, Leg>([[key(from), from]]);
  const open = [from];
  while (open.length > 0) {
    // the nearest open leg (few branches: a scan)
    let bi = 0;
    for (let i = 1; i < open.length; i++) if (dist.get(key(open[i]))! < dist.get(key(open[bi]))!) bi = i;
    const cur = open.splice(bi, 1)[0];
    const dc = dist.get(key(cur))!;
    if (cur !== from && !driven[cur.b]) {
      const way: Leg[] = [];
      for (let l: Leg | undefined = cur; l && l !== from; l = prev.get(key(l))) way.push(l);
      return way.reverse();
    }
    if (cur !== from && deadEnd(nodeAt(cur))) continue;
    for (const nx of nextLegs(cur)) {
      const k = key(nx),
        d = dc + lengths[nx.b];
      if (d >= (dist.get(k) ?? Infinity)) continue;
      dist.set(k, d);
      prev.set(k, cur);
      if (!legOf.has(k)) open.push(nx);
      legOf.set(k, nx);
    }
  }
  return undefined;
}

function tourOf(legs: Leg[], branches: MedialBranch[]): Omit<TourPath, 'turnable'> {
  const parts = legs.map((l) => (l.forward ? branches[l.b].xy : reversedPolyline(branches[l.b].xy)));
  let n = 0;
  for (let i = 0; i < parts.length; i++) n += parts[i].length - (i > 0 ? 2 : 0);
  const xy = new Float64Array(n);
  let o = 0;
  parts.forEach((p, i) => {
    const q = i > 0 ? p.subarray(2) : p;
    xy.set(q, o);
    o += q.length;
  });
  const seen = new Set<number>();
  let revisits = false;
  for (const l of legs) {
    if (seen.has(l.b)) revisits = true;
    seen.add(l.b);
  }
  const nodes = new Set<number>();
  for (const l of legs) {
    const node = l.forward ? branches[l.b].endNode : branches[l.b].startNode;
    if (nodes.has(node)) revisits = true;
    nodes.add(node);
  }
  return { xy, revisits };
}
