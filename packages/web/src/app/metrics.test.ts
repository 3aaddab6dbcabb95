import { describe, expect, it } from 'vitest';
import { compareMetrics, formatArea, formatDistance, formatDuration, formatPercent } from './metrics.js';

describe('formatting', () => {
  it('formats like a farmer reads', () => {
    expect(formatDuration(3725)).toBe('1 h 02 min');
    expect(formatDuration(125)).toBe('2 min 05 s');
    expect(formatDistance(12_345)).toBe('12.35 km');
    expect(formatDistance(999.4)).toBe('999 m');
    expect(formatArea(123_456)).toBe('12.35 ha');
    expect(formatArea(42.4)).toBe('42 m²');
    expect(formatPercent(0.0123)).toBe('1.23 %');
    expect(formatDuration(NaN)).toBe('–');
  });
});

describe('compareMetrics', () => {
  it('calls lower time, distance and turns better and higher worse', () => {
    const before = {
      timeSeconds: 1000,
      distanceMeters: 5000,
      turns: 10,
      overlapSquareMeters: 100,
      overlapRatio: 0.01,
      fieldAreaSquareMeters: 1e4,
    };
    const after = {
      timeSeconds: 900,
      distanceMeters: 5600,
      turns: 10,
      overlapSquareMeters: 50,
      overlapRatio: 0.005,
      fieldAreaSquareMeters: 1e4,
    };
    const byKey = Object.fromEntries(compareMetrics(before, after).map((c) => [c.key, c]));
    expect(byKey['timeSeconds']).toMatchObject({ verdict: 'better', text: '−1 min 40 s' });
    expect(byKey['distanceMeters']).toMatchObject({ verdict: 'worse', text: '+600 m' });
    expect(byKey['turns']).toMatchObject({ verdict: 'same', text: 'no change' });
    expect(byKey['overlapSquareMeters']).toMatchObject({ verdict: 'better', text: '−50 m²' });
    expect(byKey['fieldAreaSquareMeters'].verdict).toBe('none');
    expect(byKey['uncoveredSquareMeters']).toBeUndefined();
  });
});
