/**
 * A curved track cut a few centimetres past a vertex is cut at the vertex (route/connectContext.ts
 * SNAP_TO_VERTEX_METERS, `poseNearVertex`): no stub that turns a whole chord's angle over its length.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkPlan } from '../check/checkPlan.js';
import { planRoute } from '../plan.js';
import { trafficSetup } from '../traffic/planTrafficSystem.js';
import type { FieldGeometry } from '../types.js';
import type { Piece } from '../turns/path.js';
import { pulledBackEnd, pushedInStart } from './connectContext.js';

/** A left-turning polyline: chords `chordMeters` long (1 m), each 6.5° left of the one before, from heading 0. */
function arc(n: number, chordMeters = 1): Float64Array {
  const xy = [0, 0];
  let h = 0;
  for (let i = 0; i < n; i++) {
    xy.push(xy[xy.length - 2] + chordMeters * Math.cos(h), xy[xy.length - 1] + chordMeters * Math.sin(h));
    h += (6.5 * Math.PI) / 180;
  }
  return Float64Array.from(xy);
}

function track(xy: Float64Array): Extract<Piece, { kind: 'track' }> {
  const n = xy.length;
  return { kind: 'track', trackIndex: 0, line: 0, cell: 0, sx: xy[0], sy: xy[1], ex: xy[n - 2], ey: xy[n - 1], xy };
}

const deg = (r: number): number => (r * 180) / Math.PI;

describe('curved track cuts', () => {
  const xy = arc(10);
  it('an end pulled back to 0.05 m past a vertex is pulled back to the vertex, on the chord before', () => {
    // 10 chords: pulled back 4.95 m ends 0.05 m past vertex 5 (chord 5 heads 32.5°)
    const p = pulledBackEnd(track(xy), 4.95);
    expect(p.x).toBeCloseTo(xy[10], 9);
    expect(p.y).toBeCloseTo(xy[11], 9);
    expect(deg(p.headingRadians)).toBeCloseTo(4 * 6.5, 6);
  });

  it('an end pulled back to the middle of a chord stays there', () => {
    // chords 2 m long: pulled back 9 m ends 1 m past vertex 5, on chord 5
    const long = arc(10, 2);
    const p = pulledBackEnd(track(long), 9);
    expect(Math.hypot(p.x - long[10], p.y - long[11])).toBeCloseTo(1, 6);
    expect(deg(p.headingRadians)).toBeCloseTo(5 * 6.5, 6);
  });

  it('a start pushed in to 0.05 m before a vertex is pushed in to the vertex, on the chord after', () => {
    const p = pushedInStart(track(xy), 2.95);
    expect(p.x).toBeCloseTo(xy[6], 6);
    expect(p.y).toBeCloseTo(xy[7], 6);
    expect(deg(p.headingRadians)).toBeCloseTo(3 * 6.5, 6);
  });

  it('be-vlg-038: the harvester (R 8 m) on the lanes has no fault where its shortened curved track ends', () => {
    const g = JSON.parse(readFileSync(new URL('../../../../test/fields/be-vlg-038.geojson', import.meta.url), 'utf8'));
    const field = (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
    const setup = trafficSetup({
      field,
      traffic: { gaugeMeters: 3, tyreWidthMeters: 0.6 },
      operations: [
        { kind: 'drill', machine: { widthMeters: 12, turnRadiusMeters: 6 } },
        { kind: 'sprayer', machine: { widthMeters: 36, turnRadiusMeters: 9 } },
        { kind: 'harvester', machine: { widthMeters: 12, turnRadiusMeters: 8 } },
      ],
    });
    const request = setup.plannings[2].onGrid;
    const plan = planRoute(request, { now: () => 0 });
    expect(plan.warnings.some((w) => w.code === 'track-shortened')).toBe(true);
    expect(checkPlan(request, plan).violations).toEqual([]);
  }, 120_000);
});
