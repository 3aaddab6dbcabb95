/**
 * Room to turn at a centre-line pass's end (tracks/centreLineJoins.ts): a free disc, or a loop of
 * radius R round a small pond, where the ground round the pond is too narrow for a disc.
 */
import { describe, expect, it } from 'vitest';
import type { PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { loopRoundHole, roomToTurn, smallHoles } from './centreLineJoins.js';

const R = 12;

/** A circle's polygon (64 points) round (100, 100): counter-clockwise for a shell, clockwise for a hole. */
function circle(radiusMeters: number, hole = false): PathsD[number] {
  const ring = [];
  for (let k = 0; k < 64; k++) {
    const a = ((hole ? -2 : 2) * Math.PI * k) / 64;
    ring.push({ x: 100 + radiusMeters * Math.cos(a), y: 100 + radiusMeters * Math.sin(a) });
  }
  return ring;
}

describe('roomToTurn', () => {
  it('finds room in a ring of ground round a pond: a loop of R round the pond, where no disc of 0.9 R fits', () => {
    // ground 11 m wide between a pond of radius 6 m and the boundary at 17 m: a disc of 0.9 R needs 21.6 m
    const ring = new Region([circle(17), circle(6, true)]);
    expect(roomToTurn(ring, 111.5, 100, R, smallHoles(ring, R))).toBe(true);
    expect(loopRoundHole(ring, smallHoles(ring, R), 111.5, 100, R)).toBe(true);
  });

  it('finds none where the loop would leave the field', () => {
    // the boundary at 11 m: a loop of R = 12 m round the pond crosses it
    const ring = new Region([circle(11), circle(3, true)]);
    expect(roomToTurn(ring, 107, 100, R, smallHoles(ring, R))).toBe(false);
    // and none in a strip 10 m wide and 200 m long, with no hole to loop round
    const strip = new Region([
      [
        { x: 0, y: 0 },
        { x: 200, y: 0 },
        { x: 200, y: 10 },
        { x: 0, y: 10 },
      ],
    ]);
    expect(roomToTurn(strip, 100, 5, R)).toBe(false);
  });

  it('finds a free disc as before, and no loop round a hole where there is none', () => {
    const disc = new Region([circle(17)]);
    expect(roomToTurn(disc, 111.5, 100, R)).toBe(true);
    expect(loopRoundHole(disc, smallHoles(disc, R), 111.5, 100, R)).toBe(false);
  });
});
