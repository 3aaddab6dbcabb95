/** machine.sections / sectionWidthsMeters through the API: a boom they do not describe is a 422 naming the field. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessPlanner, openStore, type Store } from '@furrow/api';
import { jsonInit, makeApp, shapeA, type TestApp } from './support.js';

let store: Store;
let t: TestApp;

beforeAll(async () => {
  store = await openStore('memory:');
  // the real planner (in this process): the machine is read by core's normalizeRequest
  t = await makeApp(store, { planner: inProcessPlanner() });
});
afterAll(async () => {
  await store?.close();
});

async function plan(machine: Record<string, unknown>) {
  const body = shapeA() as Record<string, unknown>;
  body.machine = { ...(body.machine as Record<string, unknown>), ...machine };
  const res = await t.app.request('/api/path-plans/direct', jsonInit('POST', t.adminKey, body));
  return { status: res.status, body: (await res.json()) as any };
}

describe('machine.sections', () => {
  it('plans with a whole number of sections, and with widths that add up to the working width', async () => {
    expect((await plan({ widthMeters: 6, sections: 3 })).status).toBe(200);
    expect((await plan({ widthMeters: 6, sectionWidthsMeters: [2, 2.5, 1.5] })).status).toBe(200);
  });

  for (const [what, machine, path] of [
    ['zero sections', { widthMeters: 6, sections: 0 }, 'machine.sections'],
    ['a fraction of a section', { widthMeters: 6, sections: 2.5 }, 'machine.sections'],
    ['sections as text', { widthMeters: 6, sections: 'four' }, 'machine.sections'],
    ['widths adding up to less', { widthMeters: 6, sectionWidthsMeters: [2, 2] }, 'machine.sectionWidthsMeters'],
    ['a width of nothing', { widthMeters: 6, sectionWidthsMeters: [6, 0] }, 'machine.sectionWidthsMeters[1]'],
    [
      'more widths than sections',
      { widthMeters: 6, sections: 2, sectionWidthsMeters: [2, 2, 2] },
      'machine.sectionWidthsMeters',
    ],
  ] as const)
    it(`answers 422 naming the field for ${what}`, async () => {
      const r = await plan(machine);
      expect(r.status).toBe(422);
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
      expect(r.body.error.message).toContain(path);
    });
});
