import { describe, expect, it } from 'vitest';
import { scheduleFleet } from './schedule.js';
import type { TimedPath } from './schedule.js';

/** A straight piece from (x0, y0) to (x1, y1), driven in `seconds`. */
const line = (x0: number, y0: number, x1: number, y1: number, seconds: number): TimedPath => ({
  pieces: [
    { xy: new Float64Array([x0, y0, (x0 + x1) / 2, (y0 + y1) / 2]) },
    { xy: new Float64Array([(x0 + x1) / 2, (y0 + y1) / 2, x1, y1]) },
  ],
  seconds: [seconds / 2, seconds / 2],
});

/** Closest approach of two timetabled paths, sampled every 10 ms (positions linear within each piece). */
function closest(paths: TimedPath[], starts: number[][]): number {
  const at = (p: TimedPath, s: number[], t: number): [number, number] | undefined => {
    for (let j = p.pieces.length - 1; j >= 0; j--)
      if (t >= s[j]) {
        const u = Math.min(1, (t - s[j]) / p.seconds[j]);
        const xy = p.pieces[j].xy;
        return [xy[0] + (xy[2] - xy[0]) * u, xy[1] + (xy[3] - xy[1]) * u];
      }
    return undefined;
  };
  let best = Infinity;
  for (let t = 0; t < 200; t += 0.01) {
    const a = at(paths[0], starts[0], t),
      b = at(paths[1], starts[1], t);
    const endA = starts[0].at(-1)! + paths[0].seconds.at(-1)!,
      endB = starts[1].at(-1)! + paths[1].seconds.at(-1)!;
    if (a && b && t <= endA && t <= endB) best = Math.min(best, Math.hypot(a[0] - b[0], a[1] - b[1]));
  }
  return best;
}

describe('scheduleFleet', () => {
  const settings = { safetyMeters: 6, maxSpeedMetersPerSecond: 2.5 };

  it('two machines crossing at one moment: the later one waits, listed, and they keep the distance', () => {
    // Both reach (0, 0) after 20 s at 2.5 m/s.
    const paths = [line(-50, 0, 50, 0, 40), line(0, -50, 0, 50, 40)];
    const t = scheduleFleet(paths, [0, 1], settings);
    expect(t.unresolved).toBe(0);
    expect(t.waits.length).toBeGreaterThan(0);
    expect(t.waits.every((w) => w.machine === 1 && w.givesWayTo === 0)).toBe(true);
    expect(t.starts[0]).toEqual([0, 20]);
    expect(closest(paths, t.starts)).toBeGreaterThanOrEqual(6);
    // Without the waits they would meet.
    expect(
      closest(paths, [
        [0, 20],
        [0, 20],
      ]),
    ).toBeLessThan(1);
  });

  it('machines far apart drive without waiting', () => {
    const t = scheduleFleet([line(0, 0, 100, 0, 40), line(0, 50, 100, 50, 40)], [0, 1], settings);
    expect(t.waits).toEqual([]);
    expect(t.makespanSeconds).toBe(40);
  });

  it('machines passing each other just outside the safety distance drive on; just inside it, one waits', () => {
    // Head-on on parallel lines: they pass abreast at 20 s, `gap` metres apart.
    const pass = (gap: number) => {
      const paths = [line(-50, 0, 50, 0, 40), line(50, gap, -50, gap, 40)];
      return { paths, t: scheduleFleet(paths, [0, 1], settings) };
    };
    const clear = pass(6.1);
    expect(clear.t.waits).toEqual([]);
    expect(clear.t.makespanSeconds).toBe(40);
    expect(closest(clear.paths, clear.t.starts)).toBeGreaterThanOrEqual(6);
    const close = pass(5.9);
    expect(close.t.unresolved).toBe(0);
    expect(close.t.waits.length).toBeGreaterThan(0);
    expect(closest(close.paths, close.t.starts)).toBeGreaterThanOrEqual(6);
  });

  it('no two machines on one track at once: the second waits until the first has left it', () => {
    const a = line(0, 0, 200, 0, 80);
    const b: TimedPath = {
      pieces: [{ xy: new Float64Array([0, 40, 0, 30]) }, { xy: new Float64Array([190, 0, 200, 0]), passKey: 'T1' }],
      seconds: [44, 4],
    };
    a.pieces[1].passKey = 'T1';
    const t = scheduleFleet([a, b], [0, 1], settings);
    // a is on T1 from 40 s to 80 s, far from where b would join it at 44 s: b waits until a has left T1.
    expect(t.starts[1][1]).toBeGreaterThanOrEqual(80);
  });

  it('a head-on meeting: the machine giving way waits at an earlier place, not where the other will pass', () => {
    // a drives east along y = 0 from x = -100 to 100 (0-80 s). b comes down to (80, 2), then drives west along
    // y = 2: head-on. Standing at (80, 2) is no refuge (a passes within 2 m of it at about 72 s).
    const a = line(-100, 0, 100, 0, 80);
    const b: TimedPath = {
      pieces: [{ xy: new Float64Array([80, 40, 80, 2]) }, { xy: new Float64Array([80, 2, -20, 2]) }],
      seconds: [15.2, 40],
    };
    const t = scheduleFleet([a, b], [0, 1], settings);
    expect(t.unresolved).toBe(0);
    // b enters later (the wait before its first piece) and reaches the line only once a has gone by.
    expect(t.waits.some((w) => w.machine === 1 && w.beforePiece === 0 && w.durationSeconds > 0)).toBe(true);
    expect(closest([a, b], t.starts)).toBeGreaterThanOrEqual(6);
  });

  it('a cutoff stops scheduling once the machines so far finish later than it, and changes nothing otherwise', () => {
    const a = line(-50, 0, 50, 0, 40);
    const b = line(0, -50, 0, 50, 40);
    const full = scheduleFleet([a, b], [0, 1], settings);
    expect(full.abandoned).toBeUndefined();
    // The first machine alone finishes at 40 s: a cutoff of 30 s is passed after it, the second is not scheduled.
    const cut = scheduleFleet([a, b], [0, 1], settings, { unresolved: 0, makespanSeconds: 30 });
    expect(cut.abandoned).toBe(true);
    expect(cut.starts[1]).toEqual([]);
    expect(cut.makespanSeconds).toBeGreaterThan(30);
    // A cutoff the whole timetable does not pass: the same timetable.
    const same = scheduleFleet([a, b], [0, 1], settings, { unresolved: 0, makespanSeconds: full.makespanSeconds });
    expect(same.abandoned).toBeUndefined();
    expect(same.starts).toEqual(full.starts);
    expect(same.waits).toEqual(full.waits);
  });
});
