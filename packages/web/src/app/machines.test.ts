import { describe, expect, it } from 'vitest';
import { MachineProfileStore, applyProfile, profileFromParameters } from './machines.js';
import { DEFAULT_PARAMETERS, buildPlanRequest, parametersFromRequest, parseParameters } from './params.js';

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

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

  it('keeps profiles per organisation and applies only the machine settings', () => {
    const store = new MachineProfileStore(memory());
    const sprayer = profileFromParameters('Sprayer', {
      ...DEFAULT_PARAMETERS,
      widthMeters: 24,
      turnRadiusMeters: 9,
      workingSpeedKilometersPerHour: 12,
      headlandPasses: 3,
    });
    expect(sprayer).not.toHaveProperty('headlandPasses');
    store.save('co-1', sprayer);
    store.save('co-1', { ...sprayer, widthMeters: 27 });
    expect(store.list('co-1')).toHaveLength(1);
    expect(store.list('co-1')[0].widthMeters).toBe(27);
    expect(store.list('co-2')).toEqual([]);
    const applied = applyProfile({ ...DEFAULT_PARAMETERS, headlandPasses: 4, roadSpeedKilometersPerHour: 30 }, sprayer);
    expect(applied.widthMeters).toBe(24);
    expect(applied.headlandPasses).toBe(4);
    expect(applied.workingSpeedKilometersPerHour).toBe(12);
    expect(applied.roadSpeedKilometersPerHour).toBeUndefined();
  });
});
