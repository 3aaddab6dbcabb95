/**
 * Strip passes in fixed orders (fixed.ts `insertLooseGroups`): each strip's passes are driven where
 * they lengthen the route least — where the pattern passes them, not after its last track when
 * that is further — never before the pattern's first track; a field with nothing but strip passes
 * keeps the pattern over them.
 */
import { describe, expect, it } from 'vitest';
import { orderInput, rectangleTracks } from '../../__fixtures__/orderInput.js';
import { orderFieldTracks } from './fieldOrder.js';
import type { OrderTrack } from './fieldOrder.js';

/** A 3 m strip pass from (x0, y0) to (x1, y1) (u along it in its own frame). */
function strip(line: number, x0: number, y0: number, x1: number, y1: number): OrderTrack {
  return { line, u0: 0, u1: Math.hypot(x1 - x0, y1 - y0), v: 0, x0, y0, x1, y1, widthMeters: 3 };
}

/**
 * The snake order of 40 rectangle tracks (x = 0 … 234 m, y = 0 … 300 m, cell 0) and `strips` after them, each
 * a cell of
 * its own.
 */
function snakeWith(strips: OrderTrack[], n = 40): number[] {
  const tracks = [...rectangleTracks(n), ...strips];
  const cellOf = Int32Array.from(tracks, (_, i) => (i < n ? 0 : i - n + 1));
  return orderFieldTracks(
    orderInput(tracks.length, { tracks, cellOf, routeOptions: { algorithm: 'snake' } }),
  ).visits.map((v) => v.trackIndex);
}

/**
 * Whether the tracks (0 … n − 1) of `order` are driven in a variant of the snake pattern (as laid out or mirrored,
 * either way round).
 */
function isSnake(order: number[], n = 40): boolean {
  const tracks = order.filter((i) => i < n);
  const plain = orderFieldTracks(orderInput(n, { routeOptions: { algorithm: 'snake' } })).visits.map(
    (v) => v.trackIndex,
  );
  const variants = [plain, plain.map((i) => n - 1 - i)].flatMap((p) => [p, [...p].reverse()]);
  return variants.some((p) => p.every((i, k) => tracks[k] === i));
}

describe('strip passes in a fixed order', () => {
  it(
    'a strip along the field’s north edge, mid-field, is driven at the turn that passes it, ' + 'the pattern kept',
    () => {
      // beyond the north ends of tracks 20-22 (x = 120 … 132 m), far from where the pattern ends (x = 6 or 228 m)
      const order = snakeWith([strip(60, 118, 303, 134, 303)]);
      expect([...order].sort((a, b) => a - b)).toEqual([...Array(41).keys()]);
      expect(isSnake(order)).toBe(true);
      const k = order.indexOf(40);
      expect(k).toBeGreaterThan(0);
      expect(k).toBeLessThan(order.length - 1);
      // between tracks whose north ends are within 30 m of it (x = 102 … 150 m)
      for (const t of [order[k - 1], order[k + 1]]) expect(Math.abs(t - 21)).toBeLessThanOrEqual(4);
    },
  );

  it('a strip nearer the pattern’s end than any turn is driven last', () => {
    const plain = orderFieldTracks(orderInput(40, { routeOptions: { algorithm: 'snake' } })).visits;
    const last = plain[plain.length - 1];
    // just past the last track's exit, in its line
    const x = last.trackIndex * 6,
      y = last.forward ? 305 : -5;
    const order = snakeWith([strip(60, x, y, x, last.forward ? 330 : -30)]);
    expect(order[order.length - 1]).toBe(40);
  });

  it('a strip by the first track is not driven before it', () => {
    for (const x of [-4, 238]) expect(snakeWith([strip(60, x, 0, x, 60)])[0]).toBeLessThan(40);
  });

  it('a field of strip passes alone keeps the pattern over them', () => {
    const strips = Array.from({ length: 6 }, (_, i) => strip(i, i * 3, 0, i * 3, 100)).map((t, i) => ({
      ...t,
      v: i * 3,
    }));
    const asStrips = orderFieldTracks(orderInput(6, { tracks: strips, routeOptions: { algorithm: 'snake' } })).visits;
    const asTracks = orderFieldTracks(
      orderInput(6, { tracks: strips.map(({ widthMeters: _, ...t }) => t), routeOptions: { algorithm: 'snake' } }),
    ).visits;
    expect(asStrips).toEqual(asTracks);
  });
});
