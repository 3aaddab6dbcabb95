import { describe, expect, it } from 'vitest';
import type { FleetPlan, Plan } from '@furrow/core';
import { againstSplit, summariseFleet, type FleetResult, type FleetRow } from './bench-fleet.js';

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
            worseThanSplit: true,
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
    expect(cells[13]).toBe('0 / 1 / 0 / 0');
    expect(md).toContain('Command: `npm run bench -- --section fleet`');
  });
});

describe('the plan against the contiguous split', () => {
  type Candidates = FleetPlan['fleet']['search']['candidates'];
  const plan = (chosen: string, candidates: Candidates): FleetPlan =>
    ({ fleet: { search: { chosen, candidates } } }) as unknown as FleetPlan;
  const single = { metrics: { uncoveredRatio: 0.01 } } as Plan;
  const shared = { algorithm: 'shared-route', makespanSeconds: 100, objectiveSeconds: 110, uncoveredRatio: 0.01 };

  it('loses to a split that keeps the coverage and has the smaller objective', () => {
    const split = { algorithm: 'contiguous-split', makespanSeconds: 95, objectiveSeconds: 105, uncoveredRatio: 0.011 };
    expect(againstSplit(plan('shared-route', [shared, split]), single, 0).worseThanSplit).toBe(true);
  });

  it('does not lose to a split with the smaller objective that leaves more than 0.2 point more unworked', () => {
    const split = { algorithm: 'contiguous-split', makespanSeconds: 80, objectiveSeconds: 105, uncoveredRatio: 0.013 };
    const r = againstSplit(plan('shared-route', [shared, split]), single, 0);
    expect(r.splitKeepsCoverage).toBe(false);
    expect(r.worseThanSplit).toBe(false);
  });

  it('loses, whatever the objective, when the plan itself misses the coverage and the split keeps it', () => {
    const split = { algorithm: 'contiguous-split', makespanSeconds: 150, objectiveSeconds: 160, uncoveredRatio: 0.01 };
    expect(againstSplit(plan('shared-route', [shared, split]), single, 0.003).worseThanSplit).toBe(true);
    expect(againstSplit(plan('shared-route', [shared, split]), single, 0.001).worseThanSplit).toBe(false);
  });

  it('a split stopped early counts at the strip that stopped it', () => {
    const stopped = { algorithm: 'contiguous-split', makespanSeconds: 120, pruned: true as const };
    expect(againstSplit(plan('shared-route', [shared, stopped]), single, 0).worseThanSplit).toBe(false);
    const early = { ...stopped, makespanSeconds: 108 };
    expect(againstSplit(plan('shared-route', [shared, early]), single, 0).worseThanSplit).toBe(true);
  });
});
