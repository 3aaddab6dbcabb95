import { describe, expect, it } from 'vitest';
import { densifyRing } from './geometry.js';
import { metersPerDegreeLatitude, metersPerDegreeLongitude, toLocal, toWgs84 } from './localPlane.js';
import { fieldDate, formatNumber, trackLinesTxt } from './write.js';

describe('AgOpenGPS text conventions', () => {
  it('dates Field.txt as C# "yyyy-MMMM-dd hh:mm:ss tt" (12-hour clock, 12 for midnight and noon)', () => {
    expect(fieldDate(new Date(Date.UTC(2026, 0, 5, 0, 7, 9)))).toBe('2026-January-05 12:07:09 AM');
    expect(fieldDate(new Date(Date.UTC(2026, 11, 31, 12, 0, 0)))).toBe('2026-December-31 12:00:00 PM');
    expect(fieldDate(new Date(Date.UTC(2026, 6, 1, 23, 59, 59)))).toBe('2026-July-01 11:59:59 PM');
  });

  it('writes numbers as Math.Round(v, d).ToString(InvariantCulture): no trailing zeros, no -0', () => {
    expect(formatNumber(12.5, 3)).toBe('12.5');
    expect(formatNumber(-0.0001, 3)).toBe('0');
    expect(formatNumber(3, 3)).toBe('3');
    expect(formatNumber(1234567.89012, 3)).toBe('1234567.89');
    expect(formatNumber(6.283184, 5)).toBe('6.28318');
  });
});

describe('local plane', () => {
  it('has the published meters per degree at 0 deg (111,132.92 - 559.82 ...; 111,412.84 - 93.5 + 0.118)', () => {
    expect(metersPerDegreeLatitude(0)).toBeCloseTo(111132.92 - 559.82 + 1.175 - 0.0023, 6);
    expect(metersPerDegreeLongitude(0)).toBeCloseTo(111412.84 - 93.5 + 0.118, 6);
    expect(metersPerDegreeLongitude(90)).toBeCloseTo(0, 6);
  });

  it('goes there and back within a micrometre 2 km from the origin at 0°, 45° and 65°', () => {
    for (const lat of [0, 45, 65]) {
      const plane = { originLatitudeDegrees: lat, originLongitudeDegrees: 10 };
      const p: [number, number] = [10.02, lat + 0.015];
      const local = toLocal(plane, p);
      const back = toWgs84(plane, local.eastingMeters, local.northingMeters);
      expect(Math.abs(back[0] - p[0]) * metersPerDegreeLongitude(lat)).toBeLessThan(1e-6);
      expect(Math.abs(back[1] - p[1]) * metersPerDegreeLatitude(lat)).toBeLessThan(1e-6);
    }
  });
});

describe('geometry', () => {
  it('densifies a ring so no edge is longer than the spacing, keeping its corners', () => {
    const square = [
      { eastingMeters: 0, northingMeters: 0 },
      { eastingMeters: 10, northingMeters: 0 },
      { eastingMeters: 10, northingMeters: 10 },
      { eastingMeters: 0, northingMeters: 10 },
    ];
    const dense = densifyRing(square, 3.3);
    expect(dense).toHaveLength(16); // ceil(10 / 3.3) = 4 pieces per side
    for (const c of square) expect(dense).toContainEqual(c);
  });

  it('writes an A+ line (a point and a heading) as an AB line 100 m along the heading', () => {
    const plane = { originLatitudeDegrees: 48, originLongitudeDegrees: 11 };
    const text = trackLinesTxt(plane, [{ name: 'A+', coordinates: [[11, 48]], headingDegrees: 90 }]);
    expect(text.split('\n')).toEqual(['$TrackLines', 'A+', '1.5708', '0,0', '100,0', '0', '2', 'True', '0', '']);
  });
});
