import { describe, expect, it } from 'vitest';
import type { PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { hypot } from '../geometry/vec.js';
import { buildWaypoints, shortestWaypointPath } from './waypointPath.js';
import type { Waypoints } from './waypointPath.js';
import { seededRandom } from '../geometry/random.js';

/** The plain A*: every sight line from a tested before the search (what the lazy one must reproduce). */
function eagerPath(
  wp: Waypoints,
  region: Region,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number[] | undefined {
  const n = wp.xs.length;
  const X = [...wp.xs, ax, bx],
    Y = [...wp.ys, ay, by];
  const dist = new Array<number>(n + 2).fill(Infinity),
    prev = new Array<number>(n + 2).fill(-1),
    done = new Array<boolean>(n + 2).fill(false);
  const h = X.map((x, i) => hypot(x - bx, Y[i] - by));
  dist[n] = 0;
  for (;;) {
    let u = -1,
      fu = Infinity;
    for (let i = 0; i < n + 2; i++)
      if (!done[i] && dist[i] + h[i] < fu) {
        fu = dist[i] + h[i];
        u = i;
      }
    if (u < 0) return undefined;
    if (u === n + 1) break;
    done[u] = true;
    for (let v = 0; v < n + 2; v++) {
      if (done[v] || v === n) continue;
      const d = dist[u] + hypot(X[v] - X[u], Y[v] - Y[u]);
      if (d < dist[v] && region.segmentClear(X[u], Y[u], X[v], Y[v])) {
        dist[v] = d;
        prev[v] = u;
      }
    }
  }
  const out: number[] = [];
  for (let v = prev[n + 1]; v !== n && v >= 0; v = prev[v]) out.unshift(X[v], Y[v]);
  return out;
}

/** A 600 × 400 m field with a bay cut into it and `holes` square no-go zones. */
function fieldWithHoles(rnd: () => number, holes: number): PathsD {
  const shell = [
    { x: 0, y: 0 },
    { x: 600, y: 0 },
    { x: 600, y: 400 },
    { x: 320, y: 400 },
    { x: 300, y: 120 },
    { x: 280, y: 400 },
    { x: 0, y: 400 },
  ];
  const out: PathsD = [shell];
  for (let k = 0; k < holes; k++) {
    const cx = 40 + rnd() * 520,
      cy = 40 + rnd() * 320,
      s = 5 + rnd() * 25;
    if (Math.abs(cx - 300) < s + 30) continue;
    out.push([
      { x: cx - s, y: cy - s },
      { x: cx - s, y: cy + s },
      { x: cx + s, y: cy + s },
      { x: cx + s, y: cy - s },
    ]); // clockwise: a hole
  }
  return out;
}

describe('shortestWaypointPath', () => {
  // The sight lines from the start are tested only as nodes are settled: the path must be the plain A*'s, point for
  // point.
  it('finds exactly the path of the A* that tests every sight line from the start first, round holes and a bay', () => {
    const rnd = seededRandom(11);
    let compared = 0,
      blocked = 0;
    for (let f = 0; f < 6; f++) {
      const field = fieldWithHoles(rnd, 4 + f * 3);
      const region = new Region(field);
      const wp = buildWaypoints(field, 9);
      for (let q = 0; q < 40; q++) {
        const ax = 5 + rnd() * 590,
          ay = 5 + rnd() * 390,
          bx = 5 + rnd() * 590,
          by = 5 + rnd() * 390;
        if (!region.contains(ax, ay) || !region.contains(bx, by)) continue;
        const want = eagerPath(wp, region, ax, ay, bx, by);
        expect(shortestWaypointPath(wp, region, ax, ay, bx, by)).toEqual(want);
        compared++;
        if (want && want.length > 0) blocked++;
      }
    }
    // most queries compared, many of them round something (not the straight line)
    expect(compared).toBeGreaterThan(150);
    expect(blocked).toBeGreaterThan(40);
  });

  it('tests fewer sight lines than there are waypoints for a query across open ground', () => {
    const field: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 600, y: 0 },
        { x: 600, y: 400 },
        { x: 0, y: 400 },
      ],
      [
        { x: 290, y: 150 },
        { x: 290, y: 250 },
        { x: 310, y: 250 },
        { x: 310, y: 150 },
      ],
    ];
    const region = new Region(field);
    const wp = buildWaypoints(field, 9);
    const before = region.work;
    const path = shortestWaypointPath(wp, region, 100, 200, 500, 200);
    expect(path && path.length).toBeGreaterThan(0); // round the zone
    expect(region.work - before).toBeLessThan(wp.xs.length);
  });

  it(
    'a point no waypoint sees (the end of a thin arm) is known so after one query: later ones from or to it test ' +
      'only the straight line',
    () => {
      // a 200 m square with a 10 m wide arm out of it and round a corner: shrunk by 9 m, the arm has no waypoints
      const field: PathsD = [
        [
          { x: 0, y: 0 },
          { x: 200, y: 0 },
          { x: 200, y: 95 },
          { x: 300, y: 95 },
          { x: 300, y: 200 },
          { x: 290, y: 200 },
          { x: 290, y: 105 },
          { x: 200, y: 105 },
          { x: 200, y: 200 },
          { x: 0, y: 200 },
        ],
      ];
      const region = new Region(field);
      const wp = buildWaypoints(field, 9);
      const pocket = [295, 190] as const;
      const queries: [number, number, number, number][] = [
        [50, 50, ...pocket],
        [150, 170, ...pocket],
        [...pocket, 50, 50],
        [...pocket, 150, 170],
        [...pocket, 295, 120],
        [50, 50, 150, 170],
        [150, 170, ...pocket],
      ];
      const tests: number[] = [];
      for (const [ax, ay, bx, by] of queries) {
        const want = eagerPath(wp, region, ax, ay, bx, by);
        const before = region.work;
        expect(shortestWaypointPath(wp, region, ax, ay, bx, by), `${ax},${ay} -> ${bx},${by}`).toEqual(want);
        tests.push(region.work - before);
      }
      // the first query to the pocket and the first from it each look round; the later ones test the straight line
      expect(tests[0]).toBeGreaterThan(wp.xs.length / 2);
      expect([tests[1], tests[3], tests[4], tests[6]]).toEqual([1, 1, 1, 1]);
      // in the arm, the straight line is the path
      expect(shortestWaypointPath(wp, region, ...pocket, 295, 120)).toEqual([]);
    },
  );
});
