import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workBudget } from '@furrow/core';
import type { Plan } from '@furrow/core';
import { main } from '../index.js';

const root = new URL('../../../../', import.meta.url).pathname;
const field = join(root, 'test/fields/at-ref-003.geojson'); // 1.2 ha, 15 tracks at 6 m
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'furrow-plan-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('furrow plan', () => {
  it('plans within the work routeOptions.maxOptimizerTime buys', async () => {
    const request = join(dir, 'request.json');
    writeFileSync(request, JSON.stringify({ routeOptions: { algorithm: 'optimized', maxOptimizerTime: 2 } }));
    const out = join(dir, 'plan.json');
    expect(await main(['plan', field, '--request', request, '--width', '6', '--turn-radius', '6', '--out', out])).toBe(0);
    const plan = JSON.parse(readFileSync(out, 'utf8')) as Plan & { optimizer?: { algorithm?: string; kicks?: number; realCostRounds?: number } };
    expect(plan.route.some((s) => s.type === 'Track')).toBe(true);
    expect(plan.optimizer?.algorithm).toBe('optimized');
    expect(plan.optimizer!.kicks!).toBeLessThanOrEqual(workBudget(2).kicks);
    expect(plan.optimizer!.realCostRounds!).toBeLessThanOrEqual(workBudget(2).rounds);
});
});
