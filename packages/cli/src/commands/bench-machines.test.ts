import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plan } from '@furrow/core';
import {
  benchMachines,
  legWarned,
  machinesSelection,
  spliceMachinesPage,
  summariseMachines,
} from './bench-machines.js';
import { rectangleField } from './bench.js';

const leg = (sequence: number): Plan['route'][number] => ({
  sequence,
  type: 'Connector',
  connectorKind: 'transport',
  coordinates: [
    [10, 50],
    [10.001, 50],
  ],
  lengthMeters: 71.7,
});

describe('machines benchmark', () => {
  it('a transit leg counts as warned only when a warning names it or lies on it', () => {
    const plan = { route: [leg(0)], warnings: [] } as unknown as Plan;
    expect(legWarned(plan, 0)).toBe(false);
    plan.warnings = [{ code: 'x', message: 'far away', geometry: { type: 'Point', coordinates: [10.01, 50] } }];
    expect(legWarned(plan, 0)).toBe(false);
    plan.warnings.push({
      code: 'x',
      message: 'on the leg',
      geometry: { type: 'Point', coordinates: [10.0005, 50.000001] },
    });
    expect(legWarned(plan, 0)).toBe(true);
    plan.warnings = [{ code: 'x', message: 'by sequence', sequence: 0 } as Plan['warnings'][number]];
    expect(legWarned(plan, 0)).toBe(true);
  });

  it('--fields takes a folder or field ids, --config configuration ids', () => {
    expect(machinesSelection({}).dir).toBe('test/fields');
    expect(machinesSelection({ fields: 'a,b', config: 'w6-r6' })).toMatchObject({
      dir: 'test/fields',
      ids: ['a', 'b'],
      configs: [{ id: 'w6-r6' }],
    });
    expect(() => machinesSelection({ config: 'w7' })).toThrow(/unknown configuration w7/);
  });

  it('plans a small corpus in this process and reports each configuration, the missing GEOS check said', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'machines-'));
    try {
      await writeFile(join(dir, 'index.csv'), 'id,file\nrect,rect.geojson\n');
      await writeFile(join(dir, 'rect.geojson'), JSON.stringify(rectangleField(150, 90)));
      const out = await benchMachines({
        fields: dir,
        config: 'w6-r6,w36-r12',
        jobs: '1',
        checkplan: join(dir, 'missing.py'),
        results: join(dir, 'results.jsonl'),
      });
      expect(out.runs.map((r) => r.config)).toEqual(['w6-r6', 'w36-r12']);
      const w6 = out.runs[0];
      expect(w6.refused).toBeUndefined();
      expect(w6.uncoveredRatio).toBeGreaterThanOrEqual(0);
      expect(w6.offFieldMeters).toBe(0);
      expect(w6.transitLegs).toEqual([]);
      expect(out.geos).toMatch(/not available: .*missing\.py does not exist/);
      const md = summariseMachines(out, 'npm run bench -- --section machines', 'abc1234');
      expect(md).toContain('| W 6 m, R 6 m | 1 / 0 |');
      expect(md).toContain('at commit abc1234');
      expect(md).toContain('not available');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the page keeps the "before" block when the current one is rewritten', () => {
    const before = spliceMachinesPage('# Machines\n', 'before', 'Before', 'old figures');
    const both = spliceMachinesPage(before, 'current', 'Current', 'figures 1');
    const again = spliceMachinesPage(both, 'current', 'Current', 'figures 2');
    expect(again).toContain('old figures');
    expect(again).toContain('figures 2');
    expect(again).not.toContain('figures 1');
    expect(again.match(/## Current/g)).toHaveLength(1);
  });
});
