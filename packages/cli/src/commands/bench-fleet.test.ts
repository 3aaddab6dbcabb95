import { describe, expect, it } from 'vitest';
import { summariseFleet, type FleetResult, type FleetRow } from './bench-fleet.js';

const result = (name: string, makespan: number, baseline: number, over: Partial<FleetResult> = {}): FleetResult => ({
  name,
  machines: name === 'k=3' ? 3 : 2,
  makespanSeconds: makespan,
  lowerBoundSeconds: 100,
  workLowerBoundSeconds: 80,
  baselineSeconds: baseline,
  cpuSeconds: 2,
  conflicts: 0,
  otherFaults: 0,
  checkPlanFaults: 0,
  coverageDelta: 0,
  waits: 0,
  waitSeconds: 0,
  ...over,
});

const row = (id: string, fleets: FleetResult[]): FleetRow => ({
  id,
  areaHa: 1,
  singleSeconds: 300,
  singleCpuSeconds: 1,
  fleets,
});

describe('the fleet page', () => {
  it('reports medians against the bound and the split, the fields where the split is shorter, the checks', () => {
    const md = summariseFleet(
      [
        row('a', [result('k=3', 105, 120)]),
        row('b', [result('k=3', 110, 100, { conflicts: 2 })]),
        row('c', [
          result('k=3', 130, 140, {
            checkPlanFaults: 1,
            coverageDelta: 0.003,
            chosen: 'contiguous-split',
            objectiveSeconds: 150,
            splitObjectiveSeconds: 145,
          }),
        ]),
      ],
      'npm run bench -- --section fleet',
    );
    const line = md.split('\n').find((l) => l.startsWith('| k=3 |'))!;
    const cells = line.split('|').map((c) => c.trim());
    expect(cells[2]).toBe('3');
    expect(cells[3]).toBe('10.0 %, 30.0 %');
    expect(cells[5]).toMatch(/^-7\.1 %; 1 \(b\)$/);
    expect(cells[6]).toBe('2');
    expect(cells[8]).toBe('1');
    expect(cells[9]).toBe('0.300 pt');
    expect(cells[10]).toBe('2.00');
    // Coverage: only c is more than 0.2 point short; by the objective c is worse than its split.
    expect(cells[11]).toBe('1 (c)');
    expect(cells[12]).toBe('1 (c)');
    expect(cells[13]).toBe('0 / 1 / 0');
    expect(md).toContain('Command: `npm run bench -- --section fleet`');
  });
});
