import { describe, expect, it } from 'vitest';
import { isPlanError, validateFieldGeometry } from '@furrow/core';
import { ringSignedArea, toFieldGeometry } from './boundary.js';
import { planToFeatureCollection } from './plan.js';

describe('toFieldGeometry', () => {
  it('drops Z and repeats, winds outer CCW and holes CW', () => {
    const g = toFieldGeometry(
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0, 5],
            [0, 1, 5],
            [0, 1, 5],
            [1, 1, 5],
            [1, 0, 5],
            [0, 0, 5],
          ], // clockwise, repeated point
          [
            [0.2, 0.2],
            [0.4, 0.2],
            [0.4, 0.4],
            [0.2, 0.2],
          ], // counter-clockwise hole
        ],
      },
      { format: 'geojson' },
    );
    expect(g.coordinates[0]).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
    expect(ringSignedArea(g.coordinates[0] as [number, number][])).toBeGreaterThan(0);
    expect(ringSignedArea(g.coordinates[1] as [number, number][])).toBeLessThan(0);
  });

  it('turns a GeometryCollection of polygons into a MultiPolygon', () => {
    const square = (x: number) => [
      [
        [x, 0],
        [x + 1, 0],
        [x + 1, 1],
        [x, 1],
        [x, 0],
      ],
    ];
    const g = toFieldGeometry(
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Polygon', coordinates: square(0) },
          { type: 'Point', coordinates: [5, 5] },
          { type: 'Polygon', coordinates: square(2) },
        ],
      },
      { format: 'kml' },
    );
    expect(g.type).toBe('MultiPolygon');
    expect(g.coordinates).toHaveLength(2);
  });

  it("names file, format and place in errors, with the planner's code and message", () => {
    const open = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
      ],
    };
    let planner: { code: string; details: { message: string }[] } | undefined;
    try {
      validateFieldGeometry(open as never, 'geometry');
    } catch (err) {
      planner = err as typeof planner;
    }
    expect(planner?.code).toBe('invalid-boundary');
    try {
      toFieldGeometry(open, { file: 'x.json', format: 'geojson' });
      expect.unreachable();
    } catch (err) {
      expect(isPlanError(err)).toBe(true);
      expect((err as { code: string }).code).toBe(planner!.code);
      expect((err as Error).message).toBe(
        `x.json (geojson) at geometry.coordinates[0]: ${planner!.details[0].message}`,
      );
    }
  });
});

describe('planToFeatureCollection with core plan members', () => {
  it('exports obstacles, nodes and located warnings as context features', () => {
    const fc = planToFeatureCollection({
      version: '1',
      metrics: {} as never,
      heading: { degrees: 0, source: 'search' },
      route: [
        {
          sequence: 0,
          type: 'Track',
          coordinates: [
            [0, 0],
            [0, 1],
          ],
          lengthMeters: 111000,
          widthMeters: 6,
        },
      ],
      boundary: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      warnings: [
        { code: 'w', message: 'here', geometry: { type: 'Point', coordinates: [0.5, 0.5] } },
        { code: 'x', message: 'nowhere' },
      ],
      obstacles: [
        {
          type: 'Polygon',
          coordinates: [
            [
              [0.1, 0.1],
              [0.2, 0.1],
              [0.2, 0.2],
              [0.1, 0.1],
            ],
          ],
        },
      ],
      nodes: [
        { index: 0, trackIndex: 0, end: 'start', position: [0, 0] },
        { index: 1, trackIndex: 0, end: 'end', position: [0, 1] },
      ],
    });
    expect(fc.features.map((f) => f.properties.type)).toEqual([
      'Track',
      'Boundary',
      'Obstacle',
      'Node',
      'Node',
      'Warning',
    ]);
    expect(fc.features[3]).toMatchObject({
      geometry: { type: 'Point', coordinates: [0, 0] },
      properties: { trackIndex: 0, end: 'start' },
    });
    expect(fc.features[0].properties).toMatchObject({
      type: 'Track',
      sequence: 0,
      widthMeters: 6,
      lengthMeters: 111000,
    });
  });
});
