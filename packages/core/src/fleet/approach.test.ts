import { describe, expect, it } from 'vitest';
import { prepareField } from '../geometry/prepareField.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import { polygon } from '../__fixtures__/localPolygons.js';
import { approachLeg, approachRouter, approachSeconds } from './approach.js';
import type { Approach } from './approach.js';

// A 300 x 120 m field with a 60 x 60 m pond in its middle (a hole).
const shell: [number, number][] = [
  [0, 0],
  [300, 0],
  [300, 120],
  [0, 120],
];
const pond: [number, number][] = [
  [120, 30],
  [120, 90],
  [180, 90],
  [180, 30],
];

function prepared() {
  const settings = normalizeRequest({ field: polygon(shell, pond), machine: { widthMeters: 6, turnRadiusMeters: 6 } });
  return prepareField(settings);
}

/** The pond's ring in the prepared field's frame (the test's own reading of its lon/lat corners). */
function pondLocal(field: ReturnType<typeof prepared>): [number, number][] {
  const ll = polygon(pond).coordinates[0].slice(0, 4);
  return ll.map(([lon, lat]) => field.frame.toLocal(lon, lat));
}

function inside(ring: [number, number][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i],
      [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** A point given in the fixture's metres, in the prepared field's frame. */
function at(field: ReturnType<typeof prepared>, x: number, y: number): [number, number] {
  const [lon, lat] = polygon([[x, y]]).coordinates[0][0];
  return field.frame.toLocal(lon, lat);
}

function approachFrom(field: ReturnType<typeof prepared>, x: number, y: number): Approach {
  return { x, y, speedMetersPerSecond: 4, router: approachRouter(field, 6), legs: new Map() };
}

function length(leg: [number, number][]): number {
  let l = 0;
  for (let i = 1; i < leg.length; i++) l += Math.hypot(leg[i][0] - leg[i - 1][0], leg[i][1] - leg[i - 1][1]);
  return l;
}

describe('approach', () => {
  it('goes round a pond between the start point and the share, and takes its length at the transport speed', () => {
    const field = prepared();
    const ring = pondLocal(field);
    const [ax, ay] = at(field, 20, 60);
    const [bx, by] = at(field, 280, 60);
    // The straight line crosses the pond.
    expect(inside(ring, (ax + bx) / 2, (ay + by) / 2)).toBe(true);
    const a = approachFrom(field, ax, ay);
    const leg = approachLeg(a, bx, by);
    expect(Math.hypot(leg[0][0] - ax, leg[0][1] - ay)).toBeLessThan(1e-6);
    expect(Math.hypot(leg.at(-1)![0] - bx, leg.at(-1)![1] - by)).toBeLessThan(1e-6);
    // Every point of the way, every 0.5 m, stays out of the pond.
    for (let i = 1; i < leg.length; i++) {
      const [x0, y0] = leg[i - 1],
        [x1, y1] = leg[i];
      const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0) / 0.5);
      for (let k = 0; k <= n; k++) expect(inside(ring, x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n)).toBe(false);
    }
    expect(length(leg)).toBeGreaterThan(Math.hypot(bx - ax, by - ay) + 1);
    const pieces = [{ xy: new Float64Array([bx, by, bx + 10, by]) }];
    expect(approachSeconds(a, pieces)).toBeCloseTo(length(leg) / 4, 6);
  });

  it('a clear way in is the straight line', () => {
    const field = prepared();
    const [ax, ay] = at(field, 20, 10);
    const [bx, by] = at(field, 280, 12);
    const a = approachFrom(field, ax, ay);
    expect(length(approachLeg(a, bx, by))).toBeCloseTo(Math.hypot(bx - ax, by - ay), 3);
    expect(approachSeconds(a, [])).toBe(0);
    expect(approachSeconds(undefined, [{ xy: new Float64Array([bx, by]) }])).toBe(0);
  });
});
