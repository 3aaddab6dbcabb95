import { describe, expect, it } from 'vitest';
import { objectiveRates } from './objective.js';
import { DEFAULTS } from '../../request/normalizeRequest.js';

describe('objectiveRates', () => {
  const machine = {
    widthMeters: 6,
    workingSpeedMetersPerSecond: 2,
    turningSpeedMetersPerSecond: 1,
    transportSpeedMetersPerSecond: 5,
    workingFuelLitersPerHour: 36,
    turningFuelLitersPerHour: 18,
  };
  it('distance weighs every meter alike', () => {
    expect(objectiveRates(machine, 'distance')).toMatchObject({
      workingPerMeter: 1,
      turningPerMeter: 1,
      transportPerMeter: 1,
    });
  });
  it('time is seconds per meter from the machine speeds', () => {
    expect(objectiveRates(machine, 'time')).toMatchObject({
      workingPerMeter: 0.5,
      turningPerMeter: 1,
      transportPerMeter: 0.2,
    });
  });
  it('fuel is liters per meter: rate per hour over speed', () => {
    const r = objectiveRates(machine, 'fuel');
    expect(r.workingPerMeter).toBeCloseTo(36 / 3600 / 2, 12);
    expect(r.turningPerMeter).toBeCloseTo(18 / 3600 / 1, 12);
    expect(r.transportPerMeter).toBeCloseTo(18 / 3600 / 5, 12);
  });
  it('with the documented default speeds (the request DEFAULTS)', () => {
    expect(objectiveRates(DEFAULTS, 'time')).toMatchObject({
      workingPerMeter: 1 / 2.5,
      turningPerMeter: 1 / 1.5,
      transportPerMeter: 1 / 4,
    });
  });
  it('fuel without the machine rates uses the fuel objective default rates', () => {
    const r = objectiveRates({ ...DEFAULTS }, 'fuel');
    expect(r.workingPerMeter).toBeCloseTo(20 / 3600 / 2.5, 12);
    expect(r.turningPerMeter).toBeCloseTo(12 / 3600 / 1.5, 12);
  });
});
