import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMETERS, buildPlanRequest, parametersFromRequest, parametersToRaw, parseParameters } from './params.js';

const field = { type: 'Polygon', coordinates: [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0]]] };

describe('parameters', () => {
  it('round-trips through the form values', () => {
    const p = { ...DEFAULT_PARAMETERS, headingDegrees: 35, headlandsFirst: true };
    expect(parseParameters(parametersToRaw(p))).toEqual({ params: p, errors: [] });
  });
  it('names every bad field', () => {
    const { params, errors } = parseParameters({ widthMeters: '0', headlandPasses: '1.5', headingDegrees: '400', turnRadiusMeters: 'x', order: 'zigzag' });
    expect(params).toBeUndefined();
    expect(errors.map((e) => e.field).sort()).toEqual(['headingDegrees', 'headlandPasses', 'order', 'turnRadiusMeters', 'widthMeters']);
  });
  it('accepts a decimal comma and an empty heading', () => {
    const { params } = parseParameters({ ...parametersToRaw(DEFAULT_PARAMETERS), widthMeters: '7,5', headingDegrees: '' });
    expect(params?.widthMeters).toBe(7.5);
    expect(params?.headingDegrees).toBeUndefined();
  });
});

describe('buildPlanRequest', () => {
  it('builds a shape A request with options and routeOptions', () => {
    const req = buildPlanRequest(field, [], { ...DEFAULT_PARAMETERS, widthMeters: 12, headingDegrees: 90, extendTracks: true, useCrossHatches: true, calculateRefillPoints: true, order: 'snake' });
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
});

describe('parametersFromRequest', () => {
  it('inverts buildPlanRequest', () => {
    const p = { ...DEFAULT_PARAMETERS, widthMeters: 9, headlandPasses: 3, headingDegrees: 45, order: 'spiral' as const, extendTracks: true, headlandsFirst: true };
    expect(parametersFromRequest(buildPlanRequest(field, [], p))).toEqual(p);
  });
  it('reads shape B and falls back to defaults', () => {
    expect(parametersFromRequest({ equipment: { widthMeters: 24 }, exteriorHeadlandPasses: 1 })).toEqual({ ...DEFAULT_PARAMETERS, widthMeters: 24, headlandPasses: 1 });
    expect(parametersFromRequest(null)).toEqual(DEFAULT_PARAMETERS);
  });
});
