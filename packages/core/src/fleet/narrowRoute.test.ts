import { describe, expect, it } from 'vitest';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import { narrowRouteMembers, worksNarrowBand } from './narrowRoute.js';

const machine = (widthMeters: number, sectionWidthsMeters?: number[]): ResolvedMachine =>
  ({ widthMeters, ...(sectionWidthsMeters ? { sectionWidthsMeters } : {}) }) as ResolvedMachine;

describe('worksNarrowBand', () => {
  it('takes a machine of the narrow width, or a wider one with sections of any width', () => {
    expect(worksNarrowBand(machine(6), 6)).toBe(true);
    expect(worksNarrowBand(machine(12), 6)).toBe(true);
    expect(worksNarrowBand(machine(3), 6)).toBe(false);
  });

  it('needs sections whose edges fall on the middle band’s edges', () => {
    expect(worksNarrowBand(machine(12, [3, 6, 3]), 6)).toBe(true);
    expect(worksNarrowBand(machine(12, [3, 3, 3, 3]), 6)).toBe(true);
    expect(worksNarrowBand(machine(12, [6, 6]), 6)).toBe(false);
    expect(worksNarrowBand(machine(18, [6, 6, 6]), 6)).toBe(true);
    expect(worksNarrowBand(machine(12, [12]), 6)).toBe(false);
  });
});

describe('narrowRouteMembers', () => {
  it('the narrowest class first, then the wider machines able to work its width', () => {
    const machines = [machine(12, [6, 6]), machine(6), machine(18), machine(6)];
    expect(narrowRouteMembers([[1, 3], [0], [2]], machines)).toEqual([1, 3, 2]);
  });
});
