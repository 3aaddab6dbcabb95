import { describe, expect, it } from 'vitest';
import { applyProfile, machineOfProfile, profileFromParameters, profileFromStored } from './machines.js';
import { DEFAULT_PARAMETERS, buildPlanRequest, parametersFromRequest, parseParameters } from './params.js';

describe('machine settings and profiles', () => {
  it('sends speeds in m/s and reverse, and reads them back in km/h', () => {
    const { params, errors } = parseParameters({
      widthMeters: '24',
      headlandPasses: '2',
      headingDegrees: '',
      order: 'optimized',
      turnRadiusMeters: '9',
      reverseAllowed: true,
      workingSpeedKilometersPerHour: '12',
      turningSpeedKilometersPerHour: '',
      roadSpeedKilometersPerHour: '25',
    });
    expect(errors).toEqual([]);
    const request = buildPlanRequest({ type: 'Polygon', coordinates: [] }, [], params!);
    const machine = request['machine'] as Record<string, unknown>;
    expect(machine['workingSpeedMetersPerSecond']).toBeCloseTo(12 / 3.6, 3);
    expect(machine['transportSpeedMetersPerSecond']).toBeCloseTo(25 / 3.6, 3);
    expect(machine['turningSpeedMetersPerSecond']).toBeUndefined();
    expect(machine['reverseAllowed']).toBe(true);
    const back = parametersFromRequest(request);
    expect(back.workingSpeedKilometersPerHour).toBe(12);
    expect(back.roadSpeedKilometersPerHour).toBe(25);
    expect(back.reverseAllowed).toBe(true);
  });

  it('names a bad speed', () => {
    const { errors } = parseParameters({
      widthMeters: '6',
      headlandPasses: '1',
      order: 'optimized',
      turnRadiusMeters: '6',
      workingSpeedKilometersPerHour: '300',
    });
    expect(errors.map((e) => e.field)).toEqual(['workingSpeedKilometersPerHour']);
  });

  it('stores a profile as the request machine (m/s, sections) and applies only the machine settings', () => {
    const sprayer = profileFromParameters('Sprayer', {
      ...DEFAULT_PARAMETERS,
      widthMeters: 24,
      turnRadiusMeters: 9,
      workingSpeedKilometersPerHour: 12,
      sections: 8,
      headlandPasses: 3,
      applicationRatePerHectare: 200,
    });
    expect(sprayer).not.toHaveProperty('headlandPasses');
    const machine = machineOfProfile(sprayer);
    expect(machine).toEqual({ widthMeters: 24, turnRadiusMeters: 9, workingSpeedMetersPerSecond: 3.333, sections: 8 });
    const back = profileFromStored({ profileId: 'p', name: 'Sprayer', machine });
    expect(back).toEqual({ ...sprayer, reverseAllowed: false });
    const applied = applyProfile({ ...DEFAULT_PARAMETERS, headlandPasses: 4, roadSpeedKilometersPerHour: 30 }, back);
    expect(applied.widthMeters).toBe(24);
    expect(applied.headlandPasses).toBe(4);
    expect(applied.workingSpeedKilometersPerHour).toBe(12);
    expect(applied.sections).toBe(8);
    expect(applied.roadSpeedKilometersPerHour).toBeUndefined();
  });

  it('names a bad section count', () => {
    const raw = { widthMeters: '6', headlandPasses: '1', order: 'optimized', turnRadiusMeters: '6' };
    expect(parseParameters({ ...raw, sections: '2.5' }).errors.map((e) => e.field)).toEqual(['sections']);
    expect(parseParameters({ ...raw, sections: '0' }).errors.map((e) => e.field)).toEqual(['sections']);
    expect(parseParameters({ ...raw, sections: '4' }).params?.sections).toBe(4);
  });
});
