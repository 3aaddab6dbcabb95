import { describe, expect, it } from 'vitest';
import type { Feature, FeatureCollection, Position } from './geo.js';
import { FLEET_COLORS, fleetRequest, gapText, machineAt, machineTimeline, readFleet } from './fleet-timeline.js';
import { alongLine, haversineMeters } from '../__fixtures__/geodesy.js';

function piece(machineId: string, sequence: number, line: Position[], start: number, end: number): Feature {
  return {
    type: 'Feature',
    properties: { type: 'Track', machineId, sequence, startSeconds: start, endSeconds: end },
    geometry: { type: 'LineString', coordinates: line },
  };
}

// Vertices unevenly spaced along a bent line at 47° N: time is shared by length, not by vertex.
const A: Position[] = [
  [8.54, 47.37],
  [8.5401, 47.37],
  [8.541, 47.37],
  [8.541, 47.3712],
];
const B: Position[] = [
  [8.541, 47.3712],
  [8.5405, 47.3712],
];
const fleet: FeatureCollection = {
  type: 'FeatureCollection',
  fleet: { makespanSeconds: 140, lowerBoundSeconds: 120, gapRatio: 0.1667 },
  features: [
    piece('m1', 1, B, 100, 140), // out of order on purpose: sorted by time
    piece('m1', 0, A, 0, 80),
    {
      type: 'Feature',
      properties: { type: 'Wait', machineId: 'm1', startSeconds: 80, durationSeconds: 20, givesWayTo: 'm2' },
      geometry: { type: 'Point', coordinates: A[3] },
    },
    piece('m2', 0, [...B].reverse(), 30, 50),
    { type: 'Feature', properties: { type: 'Boundary' }, geometry: { type: 'Polygon', coordinates: [] } },
  ],
};

describe('fleet timeline', () => {
  const view = readFleet(fleet);
  const [m1, m2] = view.machines;

  it('reads the machines, their pieces in time order, waits, start and finish, and the figures', () => {
    expect(view.machines.map((m) => m.machineId)).toEqual(['m1', 'm2']);
    expect(m1.route.map((f) => f.properties?.['sequence'])).toEqual([0, 1]);
    expect(m1.waits).toEqual([{ position: A[3], startSeconds: 80, durationSeconds: 20, givesWayTo: 'm2' }]);
    expect([m1.startSeconds, m1.finishSeconds, m2.startSeconds, m2.finishSeconds]).toEqual([0, 140, 30, 50]);
    expect(view.figures).toEqual({ makespanSeconds: 140, lowerBoundSeconds: 120, gapRatio: 0.1667 });
    expect(gapText(0.1667)).toBe('16.7 %');
  });

  it('places a driving machine by the share of the piece driven, measured independently', () => {
    const tl = machineTimeline(m1);
    for (const t of [0, 5, 13.3, 40, 61, 79.9]) {
      const at = machineAt(tl, t)!;
      expect(at.state).toBe('driving');
      expect(at.pieceIndex).toBe(0);
      expect(haversineMeters(at.position, alongLine(A, t / 80))).toBeLessThan(0.01);
    }
    for (const t of [100, 117, 139]) {
      const at = machineAt(tl, t)!;
      expect(at.state).toBe('driving');
      expect(haversineMeters(at.position, alongLine(B, (t - 100) / 40))).toBeLessThan(0.01);
    }
  });

  it('stands still during a wait, is off the field before its start and stays where it finished', () => {
    const tl = machineTimeline(m1);
    for (const t of [80.5, 90, 99.9]) {
      const at = machineAt(tl, t)!;
      expect(at.state).toBe('waiting');
      expect(at.position).toEqual(A[3]);
    }
    expect(machineAt(tl, 200)).toEqual({ position: B[1], state: 'finished' });
    const tl2 = machineTimeline(m2);
    expect(machineAt(tl2, 10)).toEqual({ position: B[1], state: 'not-started' });
    expect(haversineMeters(machineAt(tl2, 40)!.position, alongLine([...B].reverse(), 0.5))).toBeLessThan(0.01);
    expect(machineAt(tl2, 60)!.state).toBe('finished');
    expect(machineAt(machineTimeline({ ...m2, route: [] }), 10)).toBeUndefined();
  });
});

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string): number => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

describe('fleet colours and request', () => {
  it('every machine colour stands 4.5:1 against the map backgrounds and the white marker number', () => {
    expect(new Set(FLEET_COLORS).size).toBe(FLEET_COLORS.length);
    for (const c of FLEET_COLORS)
      for (const bg of ['#f3f5ef', '#dfe3da', '#ffffff']) expect(contrast(c, bg), `${c} on ${bg}`).toBeGreaterThan(4.5);
  });

  it('copies the form machine k times as m1..mk and keeps the rest of the request', () => {
    const single = { field: { type: 'Polygon' }, machine: { widthMeters: 6, turnRadiusMeters: 7 }, routeOptions: {} };
    expect(fleetRequest(single, 2)).toEqual({
      field: { type: 'Polygon' },
      routeOptions: {},
      fleet: [
        { id: 'm1', widthMeters: 6, turnRadiusMeters: 7 },
        { id: 'm2', widthMeters: 6, turnRadiusMeters: 7 },
      ],
    });
  });
});
