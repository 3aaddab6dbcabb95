/**
 * The day's order of fields (sequencing/sequence.ts): exact (Held-Karp) for a few fields, iterated local search
 * beyond, both over costs precomputed once.
 */
import { seededRandom } from '../geometry/random.js';

/** Costs precomputed once: legs between every visit's exit and every other visit's entry. */
export interface Problem {
  n: number;
  /** Flat visit list: field of each visit and its offset. */
  visitField: number[];
  firstVisit: number[];
  visitCount: number[];
  /** cost / distance / time of depot → entry(v), exit(v) → end, exit(u) → entry(v). */
  fromDepot: Float64Array;
  toEnd: Float64Array;
  between: Float64Array; // V × V
  work: Float64Array; // objective cost of working visit v
}

/** Held-Karp over (set of fields done, last visit). */
export function solveExact(p: Problem): number[] {
  const { n, visitField, firstVisit, visitCount } = p;
  const V = visitField.length;
  const full = (1 << n) - 1;
  const dp = new Float64Array((full + 1) * V).fill(Infinity);
  const parent = new Int32Array((full + 1) * V).fill(-1);
  for (let v = 0; v < V; v++) dp[(1 << visitField[v]) * V + v] = p.fromDepot[v] + p.work[v];
  for (let mask = 1; mask <= full; mask++) {
    for (let u = 0; u < V; u++) {
      const cu = dp[mask * V + u];
      if (cu === Infinity) continue;
      for (let f = 0; f < n; f++) {
        if (mask & (1 << f)) continue;
        const next = mask | (1 << f);
        for (let v = firstVisit[f]; v < firstVisit[f] + visitCount[f]; v++) {
          const c = cu + p.between[u * V + v] + p.work[v];
          if (c < dp[next * V + v]) {
            dp[next * V + v] = c;
            parent[next * V + v] = u;
          }
        }
      }
    }
  }
  let best = -1,
    bestCost = Infinity;
  for (let v = 0; v < V; v++) {
    const c = dp[full * V + v] + p.toEnd[v];
    if (c < bestCost) {
      bestCost = c;
      best = v;
    }
  }
  const seq: number[] = [];
  let mask = full,
    v = best;
  while (v >= 0) {
    seq.push(v);
    const u = parent[mask * V + v];
    mask &= ~(1 << visitField[v]);
    v = u;
  }
  return seq.reverse();
}

/** Best visit per field for a fixed field order (Viterbi over visits). */
function bestVisits(p: Problem, order: number[]): { seq: number[]; cost: number } {
  const { firstVisit, visitCount } = p;
  const V = p.visitField.length;
  let prev: { v: number; cost: number; back: number }[] = [];
  const layers: { v: number; cost: number; back: number }[][] = [];
  for (let k = 0; k < order.length; k++) {
    const f = order[k];
    const layer: { v: number; cost: number; back: number }[] = [];
    for (let v = firstVisit[f]; v < firstVisit[f] + visitCount[f]; v++) {
      if (k === 0) {
        layer.push({ v, cost: p.fromDepot[v] + p.work[v], back: -1 });
        continue;
      }
      let best = Infinity,
        back = -1;
      prev.forEach((q, qi) => {
        const c = q.cost + p.between[q.v * V + v];
        if (c < best) {
          best = c;
          back = qi;
        }
      });
      layer.push({ v, cost: best + p.work[v], back });
    }
    layers.push(layer);
    prev = layer;
  }
  let bi = 0,
    bc = Infinity;
  prev.forEach((q, qi) => {
    const c = q.cost + p.toEnd[q.v];
    if (c < bc) {
      bc = c;
      bi = qi;
    }
  });
  const seq: number[] = new Array(order.length);
  for (let k = order.length - 1; k >= 0; k--) {
    const q = layers[k][bi];
    seq[k] = q.v;
    bi = q.back;
  }
  return { seq, cost: bc };
}

/** Objective cost of a field order with the best visit per field (Viterbi, no allocation). */
function orderCost(p: Problem, order: ArrayLike<number>, n: number, a: Float64Array, b: Float64Array): number {
  const { firstVisit, visitCount } = p;
  const V = p.visitField.length;
  let prev = a,
    cur = b;
  let f = order[0];
  let pf = firstVisit[f],
    pc = visitCount[f];
  for (let i = 0; i < pc; i++) prev[i] = p.fromDepot[pf + i] + p.work[pf + i];
  for (let k = 1; k < n; k++) {
    f = order[k];
    const cf = firstVisit[f],
      cc = visitCount[f];
    for (let j = 0; j < cc; j++) {
      const v = cf + j;
      let best = Infinity;
      for (let i = 0; i < pc; i++) {
        const c = prev[i] + p.between[(pf + i) * V + v];
        if (c < best) best = c;
      }
      cur[j] = best + p.work[v];
    }
    const t = prev;
    prev = cur;
    cur = t;
    pf = cf;
    pc = cc;
  }
  let best = Infinity;
  for (let i = 0; i < pc; i++) {
    const c = prev[i] + p.toEnd[pf + i];
    if (c < best) best = c;
  }
  return best;
}

/** The fields in nearest-neighbour order (each the cheapest to reach and work from the last visit), from the depot. */
function nearestNeighbourOrder(p: Problem): number[] {
  const { n, firstVisit, visitCount } = p;
  const V = p.visitField.length;
  const done = new Uint8Array(n);
  const start: number[] = [];
  let lastVisit = -1; // -1: still at the depot
  for (let k = 0; k < n; k++) {
    let bestF = -1,
      bestV = -1,
      bestC = Infinity;
    for (let f = 0; f < n; f++) {
      if (done[f]) continue;
      for (let v = firstVisit[f]; v < firstVisit[f] + visitCount[f]; v++) {
        const c = (lastVisit < 0 ? p.fromDepot[v] : p.between[lastVisit * V + v]) + p.work[v];
        if (c < bestC) {
          bestC = c;
          bestF = f;
          bestV = v;
        }
      }
    }
    done[bestF] = 1;
    start.push(bestF);
    lastVisit = bestV;
  }
  return start;
}

/** `best` kicked into `work`: a double bridge A B C D → A C B D with three random cut points. */
function kicked(best: Int32Array, work: Int32Array, random: () => number): void {
  const n = best.length;
  const cuts = [
    1 + Math.floor(random() * (n - 1)),
    1 + Math.floor(random() * (n - 1)),
    1 + Math.floor(random() * (n - 1)),
  ].sort((x, y) => x - y);
  const [c1, c2, c3] = cuts;
  if (c1 === c2 || c2 === c3) {
    // Degenerate cut: swap two random fields instead.
    work.set(best);
    const x = Math.floor(random() * n),
      y = Math.floor(random() * n);
    const t = work[x];
    work[x] = work[y];
    work[y] = t;
  } else {
    let w = 0;
    for (let k = 0; k < c1; k++) work[w++] = best[k];
    for (let k = c2; k < c3; k++) work[w++] = best[k];
    for (let k = c1; k < c2; k++) work[w++] = best[k];
    for (let k = c3; k < n; k++) work[w++] = best[k];
  }
}

/**
 * Nearest neighbour, then iterated local search: or-opt (move a run of 1-3 fields) and
 * 2-opt (reverse a stretch) to a local optimum, double-bridge kicks from the best order.
 * Bounded by a number of order evaluations that scales inversely with the instance size,
 * and stopped after 100 kicks in a row without improvement. Deterministic (seeded kicks).
 */
export function solveHeuristic(p: Problem): number[] {
  const { n, visitCount } = p;
  const V = p.visitField.length;
  const start = nearestNeighbourOrder(p);
  let maxVisits = 1;
  for (let f = 0; f < n; f++) maxVisits = Math.max(maxVisits, visitCount[f]);
  const sa = new Float64Array(maxVisits),
    sb = new Float64Array(maxVisits);
  const cand = new Int32Array(n);
  // Work budget: about 1.5e7 inner steps whatever the size (well under a second here).
  let budget = Math.max(2000, Math.floor(1.5e7 / (n * maxVisits * maxVisits)));
  const evaluate = (order: ArrayLike<number>): number => {
    budget--;
    return orderCost(p, order, n, sa, sb);
  };

  const localSearch = (order: Int32Array, cost: number): number => {
    let improved = true;
    while (improved && budget > 0) {
      improved = false;
      // or-opt: move order[i .. i+len) before position j of the rest.
      for (let len = 1; len <= 3 && len < n; len++) {
        for (let i = 0; i + len <= n && budget > 0; i++) {
          for (let j = 0; j <= n - len && budget > 0; j++) {
            if (j === i) continue;
            // Build: rest = order without the block; insert block at j of rest.
            let w = 0;
            for (let k = 0, r = 0; k < n; k++) {
              if (k >= i && k < i + len) continue;
              if (r === j) for (let b = 0; b < len; b++) cand[w++] = order[i + b];
              cand[w++] = order[k];
              r++;
            }
            if (w < n) for (let b = 0; b < len; b++) cand[w++] = order[i + b];
            const c = evaluate(cand);
            if (c < cost - 1e-9) {
              order.set(cand);
              cost = c;
              improved = true;
            }
          }
        }
      }
      // 2-opt: reverse order[i .. j].
      for (let i = 0; i < n - 1 && budget > 0; i++) {
        for (let j = i + 1; j < n && budget > 0; j++) {
          for (let k = 0; k < n; k++) cand[k] = k < i || k > j ? order[k] : order[i + j - k];
          const c = evaluate(cand);
          if (c < cost - 1e-9) {
            order.set(cand);
            cost = c;
            improved = true;
          }
        }
      }
    }
    return cost;
  };

  const best = Int32Array.from(start);
  let bestCost = localSearch(best, evaluate(best));
  const random = seededRandom(0x5eed ^ (n * 7919 + V));
  const work = new Int32Array(n);
  // Stop after 100 kicks in a row that found nothing better.
  for (let stall = 0; budget > 0 && n >= 4 && stall < 100; stall++) {
    kicked(best, work, random);
    const c = localSearch(work, evaluate(work));
    if (c < bestCost - 1e-9) {
      best.set(work);
      bestCost = c;
      stall = -1;
    }
  }
  return bestVisits(p, Array.from(best)).seq;
}
