import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../index.js';

const root = new URL('../../../../', import.meta.url).pathname;
const small = join(root, 'test/fields/at-ref-057.geojson'); // 0.30 ha
const other = join(root, 'test/fields/at-033.geojson'); // 0.52 ha
let dir: string;
let request: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'furrow-compare-'));
  request = join(dir, 'request.json');
  writeFileSync(request, JSON.stringify({ routeOptions: { maxOptimizerTime: 1 } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const firstPosition = (file: string): [number, number] => {
  const g = (JSON.parse(readFileSync(file, 'utf8')) as { geometry: { type: string; coordinates: any } }).geometry;
  return g.type === 'Polygon' ? g.coordinates[0][0] : g.coordinates[0][0][0];
};

describe('furrow scenarios', () => {
  it('compares equipment sets on one field: the wider set needs less time', async () => {
    const scenarios = join(dir, 'scenarios.json');
    writeFileSync(
      scenarios,
      JSON.stringify([
        { name: '3 m', equipment: { widthMeters: 3 } },
        { name: '9 m', equipment: { widthMeters: 9 }, headlandPasses: 1 },
      ]),
    );
    const out = join(dir, 'cmp.json');
    expect(
      await main([
        'scenarios',
        small,
        '--scenarios',
        scenarios,
        '--request',
        request,
        '--headland-passes',
        '1',
        '--out',
        out,
      ]),
    ).toBe(0);
    const cmp = JSON.parse(readFileSync(out, 'utf8'));
    expect(cmp.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
    expect(cmp.results[1].kpis.timeSeconds).toBeLessThan(cmp.results[0].kpis.timeSeconds);
    expect(cmp.best).toBe('9 m');
  });
});

describe('furrow sequence', () => {
  it('orders two fields from a depot next to one of them', async () => {
    const [lon, lat] = firstPosition(other);
    const out = join(dir, 'day.json');
    expect(
      await main([
        'sequence',
        small,
        other,
        '--depot',
        `${lon},${lat}`,
        '--objective',
        'distance',
        '--request',
        request,
        '--out',
        out,
      ]),
    ).toBe(0);
    const day = JSON.parse(readFileSync(out, 'utf8'));
    expect(day.stops).toHaveLength(2);
    expect(day.stops[0].fieldId).toBe('at-033');
    expect(day.metrics.transportDistanceMeters).toBeGreaterThan(0);
    expect(Object.keys(day.fieldPlans).sort()).toEqual(['at-033', 'at-ref-057']);
  });

  it('bad input exits 2', async () => {
    expect(await main(['sequence', small])).toBe(2); // no --depot
    expect(await main(['sequence', small, '--depot', '200,1'])).toBe(2);
    expect(await main(['scenarios', small])).toBe(2); // no --scenarios
    writeFileSync(join(dir, 'not-a-list.json'), '{}');
    expect(await main(['scenarios', small, '--scenarios', join(dir, 'not-a-list.json')])).toBe(2);
  });
});
