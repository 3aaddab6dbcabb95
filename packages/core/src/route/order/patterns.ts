/**
 * Fixed track patterns over m tracks numbered 0..m−1 across the field (by rank). Each returns the
 * visiting order as a list of those numbers. The exact patterns are documented, with a picture,
 * in docs/route-orders.md.
 */

/** 0, 1, 2, …, m−1: every turn joins neighbouring tracks. */
export function boustrophedonPattern(m: number): number[] {
  const out = new Array<number>(m);
  for (let i = 0; i < m; i++) out[i] = i;
  return out;
}

/**
 * Skip pattern: with skipCount s the tracks fall into s + 1 classes by index modulo s + 1; class 0
 * is worked upwards, class 1 downwards, class 2 upwards, … Inside a class every turn spans s + 1
 * tracks (so with spacing (s + 1)·w ≥ 2R no turn needs a loop); only the turn from one class to the
 * next, at the field's side, is narrower. s = 1 is the classic snake 0, 2, 4, …, 5, 3, 1.
 */
export function snakePattern(m: number, skipCount: number): number[] {
  const p = Math.max(1, Math.floor(skipCount) + 1);
  if (p === 1) return boustrophedonPattern(m);
  const out: number[] = [];
  for (let r = 0; r < p && r < m; r++) {
    const cls: number[] = [];
    for (let i = r; i < m; i += p) cls.push(i);
    if (r % 2 === 1) cls.reverse();
    for (const i of cls) out.push(i);
  }
  return out;
}

/** Outside in: 0, m−1, 1, m−2, … Every turn goes the same way round; spans shrink to 1 in the middle. */
export function spiralPattern(m: number): number[] {
  const out: number[] = [];
  let lo = 0;
  let hi = m - 1;
  while (lo <= hi) {
    out.push(lo++);
    if (lo <= hi) out.push(hi--);
  }
  return out;
}

/**
 * Clustered spiral with skipCount s: the tracks are cut into clusters of q = 2s + 3 consecutive
 * tracks (the remainder joins the last cluster, so a cluster holds q..2q−1 tracks). Inside a
 * cluster of size c, with h = ⌈c / 2⌉, the machine circles: 0, h, 1, h+1, 2, h+2, …, i.e. it
 * alternates between the cluster's lower and upper half, always turning the same way round. Every
 * turn spans h or h − 1 ≥ s + 1 tracks (skips at least s tracks), so turns stay wide; from one
 * cluster to the next the span is ⌊c / 2⌋ + 1. With fewer than q tracks the single cluster uses
 * the same rule (spans may then be narrower: there are not enough tracks).
 */
export function clusteredSpiralPattern(m: number, skipCount: number): number[] {
  const s = Math.max(0, Math.floor(skipCount));
  const q = 2 * s + 3;
  const out: number[] = [];
  const clusters = Math.max(1, Math.floor(m / q));
  let start = 0;
  for (let c = 0; c < clusters; c++) {
    const size = c === clusters - 1 ? m - start : q;
    const h = Math.ceil(size / 2);
    for (let i = 0; i < h; i++) {
      out.push(start + i);
      if (h + i < size) out.push(start + h + i);
    }
    start += size;
  }
  return out;
}
