import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PARAMETERS,
  buildPlanRequest,
  parametersFromRequest,
  parametersToRaw,
  parseParameters,
} from './params.js';

const field = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [0.01, 0],
      [0.01, 0.01],
      [0, 0],
    ],
  ],
};

describe('parameters', () => {
  it('round-trips through the form values', () => {
    const p = { ...DEFAULT_PARAMETERS, headingDegrees: 35, headlandsFirst: true };
    expect(parseParameters(parametersToRaw(p))).toEqual({ params: p, errors: [] });
  });
  it('names every bad field', () => {
    const { params, errors } = parseParameters({
      widthMeters: '0',
      headlandPasses: '1.5',
      headingDegrees: '400',
      turnRadiusMeters: 'x',
      order: 'zigzag',
    });
    expect(params).toBeUndefined();
    expect(errors.map((e) => e.field).sort()).toEqual([
      'headingDegrees',
      'headlandPasses',
      'order',
      'turnRadiusMeters',
      'widthMeters',
    ]);
  });
  it('accepts a decimal comma and an empty heading', () => {
    const { params } = parseParameters({
      ...parametersToRaw(DEFAULT_PARAMETERS),
      widthMeters: '7,5',
      headingDegrees: '',
    });
    expect(params?.widthMeters).toBe(7.5);
    expect(params?.headingDegrees).toBeUndefined();
  });
});

describe('buildPlanRequest', () => {
  it('builds a shape A request with options and routeOptions', () => {
    const req = buildPlanRequest(field, [], {
      ...DEFAULT_PARAMETERS,
      widthMeters: 12,
      headingDegrees: 90,
      extendTracks: true,
      useCrossHatches: true,
      calculateRefillPoints: true,
      order: 'snake',
    });
    expect(req).toEqual({
      field,
      machine: { widthMeters: 12, turnRadiusMeters: 6 },
      headland: { passes: 2 },
      tracks: { preferredDirectionDegrees: 90 },
      options: 'useCrossHatches,extendTracks',
      routeOptions: { algorithm: 'snake', calculateRefillPoints: true },
    });
  });
  it('passes obstacles and leaves the heading to the planner when empty', () => {
    const req = buildPlanRequest(field, [field], DEFAULT_PARAMETERS);
    expect(req['tracks']).toBeUndefined();
    expect(req['obstacles']).toEqual([{ geometry: field }]);
  });
  it('sends the passable zones, gates and start point under the request names', () => {
    const zone = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0.001, 0],
          [0.001, 0.001],
          [0, 0],
        ],
      ],
    };
    const req = buildPlanRequest(field, [field], DEFAULT_PARAMETERS, {
      passableZones: [zone],
      accessPoints: [[4.1, 50.2]],
      stagingArea: [4.2, 50.3],
    });
    expect(req['obstacles']).toEqual([{ geometry: field }, { geometry: zone, passable: true }]);
    expect(req['accessPoints']).toEqual([[4.1, 50.2]]);
    expect(req['routeOptions']).toEqual({ algorithm: 'optimized', stagingArea: [4.2, 50.3] });
  });
});

describe('refill points', () => {
  const raw = (over: Record<string, string | boolean>) => ({
    ...parametersToRaw(DEFAULT_PARAMETERS),
    calculateRefillPoints: true,
    ...over,
  });
  it('asks for the tank capacity and the application rate before sending', () => {
    const { params, errors } = parseParameters(raw({}));
    expect(params).toBeUndefined();
    expect(errors.map((e) => e.field).sort()).toEqual(['applicationRatePerHectare', 'tankCapacity']);
    expect(
      parseParameters(raw({ tankCapacity: '0', applicationRatePerHectare: '-2' }))
        .errors.map((e) => e.field)
        .sort(),
    ).toEqual(['applicationRatePerHectare', 'tankCapacity']);
  });
  it('sends them in the machine, as the API expects', () => {
    const { params } = parseParameters(raw({ tankCapacity: '3000', applicationRatePerHectare: '200,5' }));
    const req = buildPlanRequest(field, [], params!);
    expect(req['machine']).toEqual({
      widthMeters: 6,
      turnRadiusMeters: 6,
      tankCapacity: 3000,
      applicationRatePerHectare: 200.5,
    });
    expect(req['routeOptions']).toEqual({ algorithm: 'optimized', calculateRefillPoints: true });
    expect(parametersFromRequest(req)).toEqual(params);
  });
  it('needs neither without refill points', () => {
    expect(parseParameters(raw({ calculateRefillPoints: false })).params?.tankCapacity).toBeUndefined();
  });
});

describe('parametersFromRequest', () => {
  it('inverts buildPlanRequest', () => {
    const p = {
      ...DEFAULT_PARAMETERS,
      widthMeters: 9,
      headlandPasses: 3,
      headingDegrees: 45,
      order: 'spiral' as const,
      extendTracks: true,
      headlandsFirst: true,
    };
    expect(parametersFromRequest(buildPlanRequest(field, [], p))).toEqual(p);
  });
  it('reads shape B and falls back to defaults', () => {
    expect(parametersFromRequest({ equipment: { widthMeters: 24 }, exteriorHeadlandPasses: 1 })).toEqual({
      ...DEFAULT_PARAMETERS,
      widthMeters: 24,
      headlandPasses: 1,
    });
    expect(parametersFromRequest(null)).toEqual(DEFAULT_PARAMETERS);
  });
});
