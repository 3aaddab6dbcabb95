/**
 * Greedy construction over item ends: from the start (fixed start end, else the cheapest entry),
 * always drive to the cheapest listed unvisited end, falling back to the nearest unvisited end
 * (Euclidean) when the neighbour list is exhausted. O(n · k) plus the fallbacks' tree searches.
 */
import Flatbush from 'flatbush';
import type { ItemOrder, OrderingProblem } from '../order/problem.js';
import type { NeighbourLists } from './transitions.js';

export function greedyOrder(
  problem: OrderingProblem,
  transition: (a: number, b: number) => number,
  nb: NeighbourLists,
): ItemOrder {
  const n = problem.itemCount;
  if (n === 0) return { sequence: [], flipped: [] };
  const ends = 2 * n;
  const xy = problem.endXY;
  const fixed = problem.fixedOrientation;
  const visited = new Uint8Array(n);
  const lastItem = problem.finishEnd !== undefined ? problem.finishEnd >> 1 : -1;
  let remaining = n;
  if (lastItem >= 0) {
    visited[lastItem] = 1;
    remaining--;
  }
  const legalEntry = (end: number): number => (fixed?.[end >> 1] ? end & ~1 : end);

  let start: number;
  if (problem.startEnd !== undefined) start = problem.startEnd;
  else {
    start = -1;
    let bestCost = Infinity;
    const entryCost = problem.entryCost;
    for (let e = 0; e < ends; e++) {
      if (visited[e >> 1] || legalEntry(e) !== e) continue;
      const c = entryCost ? entryCost(e) : 0;
      if (c < bestCost) {
        bestCost = c;
        start = e;
      }
    }
    if (start < 0) start = lastItem === 0 && n > 1 ? 2 : 0;
  }

  const sequence: number[] = [];
  const flipped: boolean[] = [];
  const visit = (entryEnd: number): number => {
    const item = entryEnd >> 1;
    if (!visited[item]) remaining--;
    visited[item] = 1;
    sequence.push(item);
    flipped.push((entryEnd & 1) === 1);
    return entryEnd ^ 1;
  };

  let index: Flatbush | undefined;
  // a start on the finish item (one item, or conflicting ends) drives it first
  const finishPending = lastItem >= 0 && start >> 1 !== lastItem;
  let exit = visit(legalEntry(start));
  const kk = nb.k;
  while (remaining > 0) {
    let next = -1;
    let bestCost = Infinity;
    for (let t = 0; t < nb.count[exit]; t++) {
      const b = nb.ends[exit * kk + t];
      if (visited[b >> 1]) continue;
      const e = legalEntry(b);
      const c = e === b ? nb.costs[exit * kk + t] : transition(exit, e);
      if (c < bestCost) {
        bestCost = c;
        next = e;
      }
    }
    if (next < 0) {
      if (!index) {
        index = new Flatbush(ends);
        for (let e = 0; e < ends; e++) index.add(xy[2 * e], xy[2 * e + 1], xy[2 * e], xy[2 * e + 1]);
        index.finish();
      }
      const found = index.neighbors(xy[2 * exit], xy[2 * exit + 1], 1, Infinity, (i) => !visited[i >> 1]);
      next = legalEntry(found[0]);
    }
    exit = visit(next);
  }
  if (finishPending) {
    const entryEnd = legalEntry(problem.finishEnd! ^ 1);
    sequence.push(lastItem);
    flipped.push((entryEnd & 1) === 1);
  }
  return { sequence, flipped };
}
