/** Whether a route's faults may come from its strip passes (the no-strips variant is planned only then). */
import { describe, expect, it } from 'vitest';
import { stripFaults } from './stripFaults.js';
import type { Track } from './generateTracks.js';
import type { LocalSegment, LocalWarning } from '../turns/path.js';

describe('stripFaults', () => {
  it('a headland pass left out after a strip pass blames the strips, unless the field’s shape leaves it out', () => {
    const track = (line: number, y: number): Track => ({ line, u0: 0, u1: 100, v: y, x0: 0, y0: y, x1: 100, y1: y });
    // two tracks, the second a strip pass (from index 1 on), driven last
    const tracks = [track(0, 0), track(1, 6)];
    const segments: LocalSegment[] = [0, 1].map((trackIndex) => ({
      type: 'Track',
      xy: new Float64Array(0),
      trackIndex,
    }));
    const skipped = (shapeOnly: boolean): LocalWarning[] => [
      {
        code: 'headland-pass-skipped',
        message: 'headland pass 3 left out',
        x: 50,
        y: 40,
        ...(shapeOnly ? { shapeOnly: true as const } : {}),
      },
    ];
    expect(stripFaults(skipped(false), segments, tracks, 1, false)).toBe(true);
    expect(stripFaults(skipped(true), segments, tracks, 1, false)).toBe(false);
    // with one pass the route left out and one the shape does, the strips are still suspect
    expect(stripFaults([...skipped(true), ...skipped(false)], segments, tracks, 1, false)).toBe(true);
    // every track a strip pass: without them the route starts on a headland pass, that one perhaps
    expect(stripFaults(skipped(true), segments, tracks, 0, false)).toBe(true);
    // the last track driven not a strip pass: not theirs either way
    expect(stripFaults(skipped(false), segments.slice().reverse(), tracks, 1, false)).toBe(false);
  });
});
