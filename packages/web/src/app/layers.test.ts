import { describe, expect, it } from 'vitest';
import { classifyPlan, gateMarks, layerCounts } from './layers.js';
import type { Feature, FeatureCollection } from './geo.js';

const line = (
  type: string,
  sequence: number | undefined,
  coords: [number, number][],
  extra: Record<string, unknown> = {},
): Feature => ({
  type: 'Feature',
  geometry: { type: 'LineString', coordinates: coords },
  properties: { type, ...(sequence === undefined ? {} : { sequence }), ...extra },
});

describe('classifyPlan', () => {
  it('puts each feature type in its layer and finds start and end by sequence, not by array order', () => {
    const plan: FeatureCollection = {
      type: 'FeatureCollection',
      features: [
        line(
          'Turn',
          2,
          [
            [2, 0],
            [2, 1],
          ],
          { turnType: 'U' },
        ),
        line('Track', 3, [
          [2, 1],
          [0, 1],
        ]),
        line('ExteriorHeadland', 0, [
          [9, 9],
          [1, 0],
        ]),
        line('Track', 1, [
          [1, 0],
          [2, 0],
        ]),
        line('Connector', 4, [
          [0, 1],
          [5, 5],
        ]),
        { type: 'Feature', geometry: { type: 'Point', coordinates: [3, 3] }, properties: { type: 'RefillPoint' } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [] }, properties: { type: 'Boundary' } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [] }, properties: { type: 'Obstacle' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] }, properties: { type: 'Mystery' } },
      ],
    };
    const c = classifyPlan(plan);
    expect(c.start).toEqual([9, 9]);
    expect(c.end).toEqual([5, 5]);
    expect(c.route.map((f) => f.properties?.['sequence'])).toEqual([0, 1, 2, 3, 4]);
    expect(layerCounts(c)).toMatchObject({
      tracks: 2,
      turns: 1,
      headlands: 1,
      connectors: 1,
      refill: 1,
      boundary: 1,
      obstacles: 1,
      startEnd: 2,
    });
    expect(c.other).toHaveLength(1);
  });

  it('has no start or end without route features', () => {
    const c = classifyPlan({ type: 'FeatureCollection', features: [] });
    expect(c.start).toBeUndefined();
    expect(layerCounts(c).startEnd).toBe(0);
  });
});

describe('warnings', () => {
  it('go to their own layer', () => {
    const c = classifyPlan({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [1, 1] },
          properties: { type: 'Warning', message: 'strip too narrow' },
        },
      ],
    });
    expect(layerCounts(c).warnings).toBe(1);
    expect(c.other).toEqual([]);
  });
});

describe('the tramlines layer', () => {
  it("holds a traffic system's tramline passes and lanes, not its tracks", () => {
    const c = classifyPlan({
      type: 'FeatureCollection',
      features: [
        line('TramlinePass', undefined, [
          [0, 0],
          [0, 1],
        ]),
        line('Lane', undefined, [
          [1, 0],
          [1, 1],
        ]),
        line('Track', 0, [
          [2, 0],
          [2, 1],
        ]),
      ],
    });
    expect(layerCounts(c)).toMatchObject({ tramlines: 2, tracks: 1 });
  });
});

describe('gateMarks', () => {
  const point = (type: string, coordinates: [number, number], index: number): Feature => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates },
    properties: { type, index },
  });
  const plan = (gates: [number, number][]): FeatureCollection => ({
    type: 'FeatureCollection',
    features: gates.map((g, i) => point('AccessPoint', g, i)),
  });

  it("draws the plan's AccessPoint features as its gates, then the field's gates the plan does not have", () => {
    const c = classifyPlan(
      plan([
        [1, 1],
        [2, 2],
      ]),
    );
    expect(layerCounts(c).gates).toBe(2);
    const marks = gateMarks(c, [
      [2, 2],
      [3, 3],
    ]);
    expect(marks.map((m) => [m.position, m.label])).toEqual([
      [[1, 1], 'G1'],
      [[2, 2], 'G2'],
      [[3, 3], 'G3'],
    ]);
    expect(marks[0].title).toMatch(/this plan enters and leaves here/);
    expect(marks[2].title).toMatch(/not in this plan/);
  });

  it("without a plan, or a plan without gates, the field's gates", () => {
    expect(gateMarks(undefined, [[5, 5]])).toEqual([{ position: [5, 5], label: 'G1', title: 'Gate 1' }]);
    expect(gateMarks(classifyPlan(plan([])), [[5, 5]])[0].title).toMatch(/not in this plan/);
    expect(gateMarks(undefined)).toEqual([]);
  });
});
