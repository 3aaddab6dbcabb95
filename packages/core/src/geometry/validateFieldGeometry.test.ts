import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors.js';
import { validateFieldGeometry } from './validateFieldGeometry.js';

const square = [
  [8.6, 50],
  [8.61, 50],
  [8.61, 50.01],
  [8.6, 50.01],
  [8.6, 50],
] as [number, number][];

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PlanError);
    return (err as PlanError).code;
  }
  return undefined;
}

describe('validateFieldGeometry', () => {
  it('accepts a valid polygon and rejects what planRoute rejects, naming the path', () => {
    expect(codeOf(() => validateFieldGeometry({ type: 'Polygon', coordinates: [square] }, 'boundary'))).toBeUndefined();
    const bowTie = [
      [8.6, 50],
      [8.62, 50.02],
      [8.62, 50],
      [8.6, 50.01],
      [8.6, 50],
    ] as [number, number][];
    expect(codeOf(() => validateFieldGeometry({ type: 'Polygon', coordinates: [bowTie] }, 'boundary'))).toBe(
      'self-intersection',
    );
    const outside = [
      [9, 51],
      [9, 51.001],
      [9.001, 51.001],
      [9.001, 51],
      [9, 51],
    ] as [number, number][];
    expect(codeOf(() => validateFieldGeometry({ type: 'Polygon', coordinates: [square, outside] }, 'boundary'))).toBe(
      'hole-outside-shell',
    );
    expect(codeOf(() => validateFieldGeometry({ type: 'Point' } as never, 'boundary'))).toBe('invalid-boundary');
  });
});
