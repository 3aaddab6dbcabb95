/**
 * Machine profiles per company (`/api/companies/{companyId}/machine-profiles`, `/api/machine-profiles/{id}`)
 * and what a saved field keeps besides its polygon (obstacles passable or not, gates, start point),
 * on both backends (embedded PGlite and PostgreSQL, migrations 8 and 9): a profile is saved, listed,
 * changed and deleted by the company's users only; bad input answers 422 naming the field; a stored
 * boundary's gates, passable zones and start point reach every plan of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@furrow/api';
import { describeWith } from '../support/requires.js';
import { startPostgres, type TestPostgres } from './pg.js';
import { call, makeApp, square, type TestApp } from './support.js';

interface Company {
  companyId: string;
  farmId: string;
  key: string;
}

/** A partner's end user with a company, a grower and a farm, and the user's own API key. */
async function company(t: TestApp, tag: string): Promise<Company> {
  await call(t, 'POST', '/api/partner/users', { partnerUserId: `${tag}-u`, firstName: 'A', lastName: tag });
  const co = await call(t, 'POST', '/api/partner/companies', {
    partnerCompanyId: `${tag}-c`,
    name: tag,
    countryCode: 'BE',
  });
  await call(t, 'POST', '/api/partner/company-accesses', { partnerUserId: `${tag}-u`, partnerCompanyId: `${tag}-c` });
  await call(t, 'POST', '/api/partner/credits', { partnerUserId: `${tag}-u`, credits: 10 });
  const key = (await call(t, 'POST', '/api/api-keys', { name: tag, partnerUserId: `${tag}-u` })).body.apiKey as string;
  const companyId = co.body.companyId as string;
  const grower = await call(t, 'POST', `/api/companies/${companyId}/growers`, { name: 'G' }, key);
  const farm = await call(t, 'POST', `/api/growers/${grower.body.growerId}/farms`, { name: 'F' }, key);
  expect(farm.status).toBe(201);
  return { companyId, farmId: farm.body.farmId, key };
}

function suite(open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>): void {
  let t: TestApp;
  let cleanup: () => Promise<void>;
  let x: Company;
  let y: Company;
  beforeAll(async () => {
    const opened = await open();
    cleanup = opened.cleanup;
    t = await makeApp(opened.store);
    x = await company(t, 'x');
    y = await company(t, 'y');
  });
  afterAll(() => cleanup?.());

  const profiles = (c: Company) => `/api/companies/${c.companyId}/machine-profiles`;
  const sprayer = { widthMeters: 24, turnRadiusMeters: 9, reverseAllowed: true, workingSpeedMetersPerSecond: 3.333 };

  it('saves, lists, changes and deletes profiles of the company, its users only', async () => {
    const made = await call(t, 'POST', profiles(x), { name: 'Sprayer 24 m', machine: sprayer }, x.key);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ companyId: x.companyId, name: 'Sprayer 24 m', machine: sprayer });
    const drill = { widthMeters: 4, sections: 4, sectionWidthsMeters: [1, 1, 1, 1], tankCapacity: 2000 };
    expect((await call(t, 'POST', profiles(x), { name: 'Drill', machine: drill }, x.key)).status).toBe(201);
    const listed = await call(t, 'GET', profiles(x), undefined, x.key);
    expect(listed.body.items.map((p: { name: string }) => p.name)).toEqual(['Drill', 'Sprayer 24 m']);
    expect(listed.body.items[0].machine).toEqual(drill);

    // Another company sees none of them, and cannot reach them by id.
    expect((await call(t, 'GET', profiles(y), undefined, y.key)).body.items).toEqual([]);
    expect((await call(t, 'GET', profiles(x), undefined, y.key)).status).toBe(404);
    const id = made.body.profileId as string;
    for (const [method, body] of [['GET'], ['PUT', { name: 'Mine', machine: { widthMeters: 3 } }], ['DELETE']] as const)
      expect((await call(t, method, `/api/machine-profiles/${id}`, body, y.key)).status, method).toBe(404);
    expect((await call(t, 'POST', profiles(x), { name: 'Mine', machine: { widthMeters: 3 } }, y.key)).status).toBe(404);

    const changed = await call(
      t,
      'PUT',
      `/api/machine-profiles/${id}`,
      { name: 'Sprayer 36 m', machine: { widthMeters: 36 } },
      x.key,
    );
    expect(changed.status).toBe(200);
    expect((await call(t, 'GET', `/api/machine-profiles/${id}`, undefined, x.key)).body).toMatchObject({
      name: 'Sprayer 36 m',
      machine: { widthMeters: 36 },
    });
    // A name is unique within the company (409), not across companies.
    const again = await call(t, 'POST', profiles(x), { name: 'Drill', machine: { widthMeters: 5 } }, x.key);
    expect(again.status).toBe(409);
    expect(again.body.error.details[0].path).toBe('name');
    expect(
      (await call(t, 'PUT', `/api/machine-profiles/${id}`, { name: 'Drill', machine: sprayer }, x.key)).status,
    ).toBe(409);
    expect((await call(t, 'POST', profiles(y), { name: 'Drill', machine: { widthMeters: 5 } }, y.key)).status).toBe(
      201,
    );

    expect((await call(t, 'DELETE', `/api/machine-profiles/${id}`, undefined, x.key)).status).toBe(200);
    expect((await call(t, 'GET', `/api/machine-profiles/${id}`, undefined, x.key)).status).toBe(404);
    expect((await call(t, 'GET', profiles(x), undefined, x.key)).body.items).toHaveLength(1);
  });

  it.each([
    ['a negative width', { name: 'A', machine: { widthMeters: -2 } }, 'machine.widthMeters'],
    ['no width', { name: 'A', machine: { turnRadiusMeters: 5 } }, 'machine.widthMeters'],
    ['an unknown machine field', { name: 'A', machine: { widthMeters: 6, colour: 'red' } }, 'machine.colour'],
    [
      'a speed as text',
      { name: 'A', machine: { widthMeters: 6, workingSpeedMetersPerSecond: '3' } },
      'machine.workingSpeedMetersPerSecond',
    ],
    [
      'sections that do not add up',
      { name: 'A', machine: { widthMeters: 6, sectionWidthsMeters: [2, 2] } },
      'machine.sectionWidthsMeters',
    ],
    ['a fractional section count', { name: 'A', machine: { widthMeters: 6, sections: 2.5 } }, 'machine.sections'],
    ['an empty name', { name: '  ', machine: { widthMeters: 6 } }, 'name'],
    ['a NUL in the name', { name: 'a\u0000b', machine: { widthMeters: 6 } }, 'name'],
  ])('answers 422 naming the field for %s', async (_what, body, path) => {
    const res = await call(t, 'POST', profiles(x), body, x.key);
    expect([400, 422]).toContain(res.status);
    if (path !== 'name' || !String(body.name).includes('\u0000')) expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('keeps the gates, passable zones and start point of a saved field and plans with them', async () => {
    const field = square(8.54, 47.37, 0.004);
    const zone = square(8.5412, 47.3712, 0.0006);
    const pond = square(8.5422, 47.3722, 0.0004);
    const gate: [number, number] = [8.54, 47.372];
    const start: [number, number] = [8.5398, 47.3719];
    const saved = await call(
      t,
      'POST',
      '/api/fields/save',
      {
        farmId: x.farmId,
        name: 'With a gate',
        boundary: field.coordinates,
        obstacles: [{ geometry: zone, passable: true, name: 'wet patch' }, { geometry: pond }],
        accessPoints: [gate],
        stagingArea: start,
      },
      x.key,
    );
    expect(saved.status).toBe(201);
    const boundaryId = saved.body.vBoundary.boundaryId as string;
    const b = await call(t, 'GET', `/api/boundaries/${boundaryId}`, undefined, x.key);
    expect(b.body.obstacles).toEqual([{ geometry: zone, passable: true, name: 'wet patch' }, { geometry: pond }]);
    expect(b.body.accessPoints).toEqual([gate]);
    expect(b.body.stagingArea).toEqual(start);
    expect(b.body.latestPlanId).toBeNull();

    // A plan of the stored boundary takes them when the request gives none of its own.
    const plan = await call(
      t,
      'POST',
      `/api/boundaries/${boundaryId}/plans`,
      { request: { machine: { widthMeters: 6 } } },
      x.key,
    );
    expect(plan.status).toBe(201);
    expect(plan.body.request.accessPoints).toEqual([gate]);
    expect(plan.body.request.routeOptions).toEqual({ stagingArea: start });
    expect(plan.body.request.obstacles.map((o: { passable?: boolean }) => o.passable === true)).toEqual([true, false]);
    const own = await call(
      t,
      'POST',
      `/api/boundaries/${boundaryId}/plans`,
      {
        request: { machine: { widthMeters: 6 }, accessPoints: [[8.544, 47.372]], routeOptions: { algorithm: 'snake' } },
      },
      x.key,
    );
    expect(own.body.request.accessPoints).toEqual([[8.544, 47.372]]);
    expect(own.body.request.routeOptions).toEqual({ algorithm: 'snake', stagingArea: start });
    // The boundary names its newest stored plan.
    const after = await call(t, 'GET', `/api/boundaries/${boundaryId}`, undefined, x.key);
    expect(after.body.latestPlanId).toBe(own.body.planId);

    // They can be replaced later (the set whole), by the company's users only.
    const put = (body: unknown, key = x.key) => call(t, 'PUT', `/api/boundaries/${boundaryId}/plan-inputs`, body, key);
    expect((await put({ accessPoints: [gate, [8.544, 47.372]] }, y.key)).status).toBe(404);
    const replaced = await put({ accessPoints: [gate, [8.544, 47.372]] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.accessPoints).toEqual([gate, [8.544, 47.372]]);
    expect(replaced.body).not.toHaveProperty('stagingArea');
    expect(replaced.body).not.toHaveProperty('obstacles');
    expect((await put({ stagingArea: [8.54, 95] })).body.error.details[0].path).toBe('stagingArea[1]');
    expect((await call(t, 'GET', `/api/boundaries/${boundaryId}`, undefined, x.key)).body.accessPoints).toHaveLength(2);

    // Bad plan inputs are refused naming the field; nothing is stored.
    for (const [extra, path] of [
      [{ accessPoints: [[200, 47]] }, 'accessPoints[0][0]'],
      [{ stagingArea: [8.54] }, 'stagingArea'],
      [{ obstacles: [{ geometry: zone, passable: 'yes' }] }, 'obstacles[0].passable'],
    ] as const) {
      const res = await call(
        t,
        'POST',
        '/api/fields/save',
        { farmId: x.farmId, name: 'Bad', boundary: field.coordinates, ...extra },
        x.key,
      );
      expect(res.status, path).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });
}

describe('machine profiles and field plan inputs on embedded PGlite', () => {
  suite(async () => {
    const store = await openStore('memory:');
    return { store, cleanup: () => store.close() };
  });
});

describeWith(['postgres'], 'machine profiles and field plan inputs on PostgreSQL', () => {
  let pg: TestPostgres | undefined;
  suite(async () => {
    pg = await startPostgres();
    const store = await openStore(pg.url);
    return {
      store,
      cleanup: async () => {
        await store.close();
        pg?.stop();
      },
    };
  });
});
