import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workBudget } from '@furrow/core';
import type { Plan } from '@furrow/core';
import { rectangleField } from './bench.js';
import { main } from '../index.js';

const root = new URL('../../../../', import.meta.url).pathname;
const field = join(root, 'test/fields/at-ref-003.geojson'); // 1.2 ha, 15 tracks at 6 m
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'furrow-plan-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Timed = { optimizer?: { timeSpentMilliseconds?: number; firstFeasibleMilliseconds?: number; algorithm?: string } };

describe('furrow plan', () => {
  it('gives the planner a clock, so routeOptions.maxOptimizerTime bounds the ordering', async () => {
    const request = join(dir, 'request.json');
    writeFileSync(request, JSON.stringify({ routeOptions: { algorithm: 'optimized', maxOptimizerTime: 2 } }));
    const out = join(dir, 'plan.json');
    expect(await main(['plan', field, '--request', request, '--width', '6', '--turn-radius', '6', '--out', out])).toBe(
      0,
    );
    const plan = JSON.parse(readFileSync(out, 'utf8')) as Plan & Timed;
    expect(plan.route.some((s) => s.type === 'Track')).toBe(true);
    // The planner reports times only when it was given a clock (it reads none itself).
    expect(plan.optimizer?.algorithm).toBe('optimized');
    // the ordering is bounded by the work maxOptimizerTime buys (core clock.ts), the clock only caps it
    const o = plan.optimizer as { kicks?: number; realCostRounds?: number };
    expect(o.kicks!).toBeLessThanOrEqual(workBudget(2).kicks);
    expect(o.realCostRounds!).toBeLessThanOrEqual(workBudget(2).rounds);
  });

  it('prints every warning on stderr, code, message and place, and still exits 0', async () => {
    // Two parts 20 m apart: the route crosses between them on a transit leg, which is warned.
    const a = rectangleField(100, 80) as { coordinates: number[][][] };
    const b = a.coordinates[0].map(([lon, lat]) => [lon + 0.0017, lat]);
    const file = join(dir, 'two-parts.geojson');
    writeFileSync(file, JSON.stringify({ type: 'MultiPolygon', coordinates: [a.coordinates, [b]] }));
    const out = join(dir, 'two-parts.json');
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk));
      return true;
    });
    let code: number;
    try {
      code = await main(['plan', file, '--width', '6', '--out', out]);
    } finally {
      spy.mockRestore();
    }
    expect(code).toBe(0);
    const plan = JSON.parse(readFileSync(out, 'utf8')) as Plan;
    expect(plan.warnings.some((w) => w.code === 'transit-leg')).toBe(true);
    const lines = err
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('furrow: warning'));
    expect(lines).toHaveLength(plan.warnings.length);
    for (const w of plan.warnings) expect(lines.some((l) => l.includes(`[${w.code}] ${w.message}`))).toBe(true);
    expect(lines.find((l) => l.includes('[transit-leg]'))).toMatch(
      /route piece \d+; LineString from -?\d+\.\d+, -?\d+\.\d+/,
    );
  });
});
