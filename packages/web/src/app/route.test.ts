import { describe, expect, it } from 'vitest';
import type { Feature, Position } from './geo.js';
import {
  bearingDegrees,
  buildTimeline,
  clockText,
  headingInWords,
  passArrows,
  positionAt,
  trackHeadingDegrees,
} from './route.js';

const line = (type: string, sequence: number, coords: Position[], extra: Record<string, unknown> = {}): Feature => ({
  type: 'Feature',
  geometry: { type: 'LineString', coordinates: coords },
  properties: { type, sequence, ...extra },
});

// About 111 m per 0.001° of latitude; at 50° N, 0.001° of longitude is about 71.6 m.
const north: Position[] = [
  [4.0, 50.0],
  [4.0, 50.001],
];
const south: Position[] = [
  [4.0005, 50.001],
  [4.0005, 50.0],
];

describe('bearings and headings in words', () => {
  it('measures bearings clockwise from north', () => {
    expect(bearingDegrees([4, 50], [4, 50.001])).toBeCloseTo(0, 6);
    expect(bearingDegrees([4, 50], [4.001, 50])).toBeCloseTo(90, 6);
    expect(bearingDegrees([4, 50], [4, 49.999])).toBeCloseTo(180, 6);
    expect(bearingDegrees([4, 50], [3.999, 50])).toBeCloseTo(270, 6);
  });

  it('names the axis of the tracks', () => {
    expect(headingInWords(0)).toBe('Tracks run north to south (bearing 0°)');
    expect(headingInWords(22.5)).toBe('Tracks run north-northeast to south-southwest (bearing 23°)');
    expect(headingInWords(270)).toBe('Tracks run east to west (bearing 90°)');
  });

  it('finds the tracks heading whichever way each is driven, ignoring turns', () => {
    const route = [line('Track', 0, north), line('Turn', 1, [north[1], south[0]]), line('Track', 2, south)];
    expect(trackHeadingDegrees(route)).toBeCloseTo(0, 3);
    expect(trackHeadingDegrees([line('Turn', 0, north)])).toBeUndefined();
  });
});

describe('pass arrows', () => {
  it('puts one numbered arrow at the middle of each pass, pointing the way it is driven', () => {
    const route = [
      line('ExteriorHeadland', 0, south),
      line('Track', 1, north),
      line('Turn', 2, [north[1], south[0]]),
      line('Track', 3, south),
    ];
    const arrows = passArrows(route);
    expect(arrows.map((a) => [a.kind, a.number])).toEqual([
      ['headland', 1],
      ['track', 1],
      ['track', 2],
    ]);
    expect(arrows[1].bearingDegrees).toBeCloseTo(0, 6);
    expect(arrows[2].bearingDegrees).toBeCloseTo(180, 6);
    expect(arrows[1].position[1]).toBeCloseTo(50.0005, 9);
  });

  it('thins arrows out on large plans', () => {
    const route = Array.from({ length: 1000 }, (_, i) => line('Track', i, i % 2 ? north : south));
    const arrows = passArrows(route, 100);
    expect(arrows.length).toBeLessThanOrEqual(100);
    expect(arrows.length).toBeGreaterThan(50);
  });
});

describe('timeline', () => {
  const route = [line('Track', 0, north), line('Turn', 1, [north[1], south[0]]), line('Track', 2, south)];

  it('drives working passes and turns at their speeds', () => {
    const tl = buildTimeline(route, { workingSpeedMetersPerSecond: 2, turningSpeedMetersPerSecond: 1 });
    const trackMeters = 111.19; // 0.001° of latitude
    const turnMeters = 0.0005 * 111_194.9 * Math.cos((50 * Math.PI) / 180);
    expect(tl.totalSeconds).toBeCloseTo((2 * trackMeters) / 2 + turnMeters / 1, 0);
  });

  it('scales the clock to the plan time and places the machine on the route', () => {
    const tl = buildTimeline(route, undefined, 600);
    expect(tl.totalSeconds).toBe(600);
    expect(positionAt(tl, 0)!.position).toEqual(north[0]);
    expect(positionAt(tl, 600)!.position).toEqual(south[1]);
    const mid = positionAt(tl, 1)!;
    expect(mid.pieceIndex).toBe(0);
    expect(mid.bearingDegrees).toBeCloseTo(0, 3);
    const late = positionAt(tl, 599)!;
    expect(late.pieceIndex).toBe(2);
    expect(late.bearingDegrees).toBeCloseTo(180, 3);
  });

  it('reads the clock', () => {
    expect(clockText(65)).toBe('1:05');
    expect(clockText(3725)).toBe('1:02:05');
  });
});
