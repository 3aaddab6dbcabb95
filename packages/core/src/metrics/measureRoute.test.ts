/**
 * The metrics stage lists the unworked patches only when asked: a planning that another beats on
 * its metrics never lists them, and a cut of the wall-clock cap on them is asked for then, once.
 */
import { describe, expect, it } from 'vitest';
import { measureRoute } from './measureRoute.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import { prepareField } from '../geometry/prepareField.js';
import type { LocalSegment } from '../turns/path.js';

describe('measureRoute', () => {
  it('lists the unworked patches on first ask, once', () => {
    // a 200 × 100 m field (lon/lat near the equator), three 6 m passes along its south side: most of it unworked
    const d = 1 / 111_320;
    const field = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [0, 0],
          [200 * d, 0],
          [200 * d, 100 * d],
          [0, 100 * d],
          [0, 0],
        ],
      ],
    };
    const settings = normalizeRequest({ field, machine: { widthMeters: 6 } });
    const prepared = prepareField(settings);
    const [x0, y0] = prepared.frame.toLocal(0, 0),
      [x1] = prepared.frame.toLocal(200 * d, 0);
    const segments: LocalSegment[] = [3, 9, 15].map((v) => ({
      type: 'Track',
      xy: Float64Array.from([x0 + 3, y0 + v, x1 - 3, y0 + v]),
    }));
    const asked: string[] = [];
    const measured = measureRoute(
      segments,
      [],
      prepared,
      settings.machine,
      undefined,
      (what) => (what !== undefined && asked.push(what), false),
    );
    expect(measured.metrics.uncoveredRatio).toBeGreaterThan(0.5);
    expect(asked).toEqual([]);
    const unworked = measured.unworked();
    expect(unworked.map((w) => w.code)).toContain('unworked-area');
    expect(asked).toHaveLength(1);
    expect(measured.unworked()).toBe(unworked);
    expect(asked).toHaveLength(1);
  });
});
