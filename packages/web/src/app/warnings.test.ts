import { describe, expect, it } from 'vitest';
import { plainMessage, planWarnings, warningTitle } from './warnings.js';

describe('warnings in plain words', () => {
  it('drops backticks and raw coordinates', () => {
    expect(
      plainMessage(
        '428 m² (0.4 % of the field) is left unworked around 15.0497123, 48.2677456 (lon, lat): no pass reaches it',
      ),
    ).toBe('428 m² (0.4 % of the field) is left unworked at the marked place: no pass reaches it');
    expect(plainMessage('`headland.passes` was 2; 1 planned')).toBe('Headland.passes was 2; 1 planned');
  });

  it('titles known codes and words unknown ones', () => {
    expect(warningTitle('unworked-area')).toBe('Ground left unworked');
    expect(warningTitle('some-new_code')).toBe('Some new code');
  });

  it('collects Warning features and the warnings member once each, with their place', () => {
    const w = planWarnings({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [1, 2] },
          properties: { type: 'Warning', code: 'unworked-area', message: 'left unworked around 1.123, 2.456' },
        },
        { type: 'Feature', geometry: null, properties: { type: 'Track' } },
      ],
      warnings: [
        { code: 'unworked-area', message: 'left unworked around 1.123, 2.456' },
        { code: 'time-limit', message: 'stopped' },
      ],
    });
    expect(w.map((x) => x.code)).toEqual(['unworked-area', 'time-limit']);
    expect(w[0].geometry).toEqual({ type: 'Point', coordinates: [1, 2] });
    expect(w[0].text).toBe('Left unworked at the marked place');
    expect(w[1].geometry).toBeUndefined();
  });
});
