/**
 * `closestPairs` (route/traversal.ts): where two connector rings come closest. Its samples are
 * measured once per pair of rings, whichever way round a traversal asks: the pairs must be those
 * of measuring afresh each time.
 */
import { describe, expect, it } from 'vitest';
import { Region } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import { seededRandom } from '../geometry/random.js';
import { buildConnectorRings, nearestOnLoop, poseOnLoop } from '../turns/connectorRings.js';
import type { LoopPath } from '../turns/connectorRings.js';
import { closestPairs } from './traversal.js';
import type { RingPair } from './traversal.js';

/**
 * Every sample measured afresh, a stable sort by distance, the first `count` in sight and 10 m apart along the first
 * loop.
 */
function byMeasuringAll(l1: LoopPath, l2: LoopPath, count: number, region: Region): RingPair[] {
  const swap = l2.lengthMeters < l1.lengthMeters;
  const small = swap ? l2 : l1,
    big = swap ? l1 : l2;
  const n = Math.max(4, Math.ceil(small.lengthMeters / 5));
  const all: RingPair[] = [];
  for (let i = 0; i < n; i++) {
    const ss = (small.lengthMeters * i) / n;
    const p = poseOnLoop(small, ss, 1);
    const q = nearestOnLoop(big, p.x, p.y);
    all.push(swap ? { s1: q.s, s2: ss, d: q.distance } : { s1: ss, s2: q.s, d: q.distance });
  }
  all.sort((a, b) => a.d - b.d);
  const kept: RingPair[] = [];
  for (const c of all) {
    const p = poseOnLoop(l1, c.s1, 1),
      q = poseOnLoop(l2, c.s2, 1);
    if (!region.segmentClear(p.x, p.y, q.x, q.y)) continue;
    if (kept.every((k) => Math.abs(k.s1 - c.s1) > 10)) kept.push(c);
    if (kept.length >= count) break;
  }
  return kept;
}

/** A 500 × 300 m field with holes: squares (parallel edges: many samples at equal distance) and random polygons. */
function field(rnd: () => number): PathsD {
  const out: PathsD = [
    [
      { x: 0, y: 0 },
      { x: 500, y: 0 },
      { x: 500, y: 300 },
      { x: 0, y: 300 },
    ],
  ];
  for (const [cx, cy] of [
    [100, 100],
    [100, 200],
    [250, 150],
  ])
    out.push([
      { x: cx - 15, y: cy - 15 },
      { x: cx - 15, y: cy + 15 },
      { x: cx + 15, y: cy + 15 },
      { x: cx + 15, y: cy - 15 },
    ]);
  for (let k = 0; k < 3; k++) {
    const cx = 360 + k * 40 + rnd() * 10,
      cy = 60 + k * 90,
      m = 7;
    const ring = Array.from({ length: m }, (_, i) => {
      const a = (-2 * Math.PI * i) / m,
        r = 8 + rnd() * 12;
      return { x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) };
    });
    out.push(ring); // clockwise: a hole
  }
  return out;
}

describe('closestPairs', () => {
  it('gives the pairs of measuring afresh, for every pair of rings both ways round, ties included', () => {
    const rnd = seededRandom(5);
    let compared = 0;
    for (let f = 0; f < 3; f++) {
      const holes = field(rnd);
      const region = new Region(holes);
      const rings = buildConnectorRings(holes, 8, 6);
      expect(rings.length).toBeGreaterThan(4);
      for (const a of rings) {
        for (const b of rings) {
          if (a === b) continue;
          for (const count of [1, 3]) {
            expect(closestPairs(a, b, count, region)).toEqual(byMeasuringAll(a, b, count, region));
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
