/**
 * The store suite, run against both backends: embedded PGlite always, a real PostgreSQL server
 * where one is installed (CI). Migrations, transactions, atomic credits, idempotent provisioning
 * under 50 concurrent calls (store and HTTP), single-use launch codes, tenant scoping.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, migrate, migrations, openStore, type Store } from '@furrow/api';
import { describeWith } from '../support/requires.js';
import { startPostgres, type TestPostgres } from './pg.js';
import { jsonInit, makeApp, square } from './support.js';

function storeSuite(open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>) {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ store, cleanup } = await open());
  });
  afterAll(async () => {
    await cleanup?.();
  });

  it('records every migration once; running them again changes nothing', async () => {
    const rows = await store.db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => Number(r.version))).toEqual(migrations.map((m) => m.version));
    expect(await migrate(store.db)).toEqual([]);
  });

  it('rolls a failed transaction back completely', async () => {
    const { userId } = await store.createAccountKey({ name: 'tx', partnerAdmin: true, initialCredits: 0 });
    const { company } = await store.provisionCompany(userId, userId, {
      partnerCompanyId: 'tx-co',
      name: 'Tx',
      countryCode: 'DE',
    });
    await expect(
      store.db.transaction(async (tx) => {
        await tx.query(
          "INSERT INTO growers (grower_id, company_id, name, source) VALUES (gen_random_uuid(), $1, 'half', 'api')",
          [company.companyId],
        );
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await store.db.query("SELECT 1 FROM growers WHERE name = 'half'");
    expect(rows).toEqual([]);
  });

  it('charges credits atomically: 50 concurrent charges of 1 against 20 credits → 20 succeed', async () => {
    const { userId } = await store.createAccountKey({ name: 'credits', partnerAdmin: false, initialCredits: 20 });
    const results = await Promise.all(Array.from({ length: 50 }, () => store.charge('user', userId, 1, 'test')));
    expect(results.filter((r) => r !== undefined).length).toBe(20);
    expect(await store.balance('user', userId)).toBe(0);
    const ledger = await store.db.query<{ s: string }>(
      'SELECT sum(delta) AS s FROM credit_ledger WHERE owner_id = $1',
      [userId],
    );
    expect(Number(ledger[0].s)).toBe(0);
  });

  it('provisions idempotently under 50 concurrent identical calls (store)', async () => {
    const { userId } = await store.createAccountKey({ name: 'idem', partnerAdmin: true, initialCredits: 0 });
    const users = await Promise.all(
      Array.from({ length: 50 }, () =>
        store.provisionUser(userId, { partnerUserId: 'same-user', firstName: 'A', lastName: 'B' }),
      ),
    );
    expect(new Set(users.map((u) => u.user.userId)).size).toBe(1);
    expect(users.filter((u) => u.created).length).toBe(1);
    const companies = await Promise.all(
      Array.from({ length: 50 }, () =>
        store.provisionCompany(userId, userId, { partnerCompanyId: 'same-co', name: 'Co', countryCode: 'FR' }),
      ),
    );
    expect(new Set(companies.map((c) => c.company.companyId)).size).toBe(1);
    expect(companies.filter((c) => c.created).length).toBe(1);
    const n = await store.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM users WHERE partner_user_id = 'same-user'",
    );
    expect(Number(n[0].n)).toBe(1);
  });

  it('provisions idempotently under 50 concurrent identical HTTP calls (users, companies, accesses)', async () => {
    const t = await makeApp(store);
    const fire = (path: string, body: unknown) =>
      Promise.all(
        Array.from({ length: 50 }, async () => {
          const res = await t.app.request(path, jsonInit('POST', t.adminKey, body));
          return { status: res.status, body: await res.json() };
        }),
      );
    const users = await fire('/api/partner/users', {
      partnerUserId: 'http-user',
      email: 'h@example.org',
      firstName: 'H',
      lastName: 'U',
      countryCode: 'nl',
    });
    expect(users.filter((r) => r.status === 201).length).toBe(1);
    expect(users.filter((r) => r.status === 200).length).toBe(49);
    expect(new Set(users.map((r) => r.body.userId)).size).toBe(1);
    expect(users[0].body.countryCode).toBe('NL');

    const companies = await fire('/api/partner/companies', {
      partnerCompanyId: 'http-co',
      name: 'Http Co',
      countryCode: 'BE',
    });
    expect(companies.filter((r) => r.status === 201).length).toBe(1);
    expect(new Set(companies.map((r) => r.body.companyId)).size).toBe(1);

    const accesses = await fire('/api/partner/company-accesses', {
      partnerUserId: 'http-user',
      partnerCompanyId: 'http-co',
    });
    expect(accesses.filter((r) => r.status === 201).length).toBe(1);
    expect(accesses.filter((r) => r.status === 200).length).toBe(49);

    // The admin key's user got admin access to the company it created.
    const me = await (await t.app.request('/api/user/current', jsonInit('GET', t.adminKey))).json();
    expect(me.companies).toEqual([expect.objectContaining({ companyId: companies[0].body.companyId, role: 'admin' })]);
  });

  it('consumes a launch code exactly once, even under 10 concurrent exchanges; expired codes fail', async () => {
    const { userId: admin } = await store.createAccountKey({ name: 'launch', partnerAdmin: true, initialCredits: 0 });
    const { user } = await store.provisionUser(admin, { partnerUserId: 'launch-user', firstName: 'L', lastName: 'U' });
    const code = await store.createLaunchCode(user.userId, admin, null, 600);
    const stored = await store.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM launch_codes WHERE user_id = $1',
      [user.userId],
    );
    expect(stored[0].code_hash).not.toContain(code);
    const results = await Promise.all(Array.from({ length: 10 }, () => store.consumeLaunchCode(code, user.userId)));
    expect(results.filter((r) => r !== undefined).length).toBe(1);
    const expired = await store.createLaunchCode(user.userId, admin, null, -1);
    expect(await store.consumeLaunchCode(expired, user.userId)).toBeUndefined();
    const other = await store.createLaunchCode(user.userId, admin, null, 600);
    expect(await store.consumeLaunchCode(other, admin)).toBeUndefined();
    expect(await store.consumeLaunchCode(other, user.userId)).toBeDefined();
  });

  it('scopes land reads to the companies a user can access', async () => {
    const { userId: a } = await store.createAccountKey({ name: 'A', partnerAdmin: true, initialCredits: 0 });
    const { userId: b } = await store.createAccountKey({ name: 'B', partnerAdmin: true, initialCredits: 0 });
    const { company } = await store.provisionCompany(a, a, {
      partnerCompanyId: 'scope',
      name: 'Scope',
      countryCode: 'AT',
    });
    const grower = await store.createGrower(company.companyId, { name: 'G', source: 'api', archived: false });
    const farm = await store.createFarm(grower, { name: 'F', source: 'api', archived: false });
    const { field, boundary } = await store.saveField(farm, { name: 'Field', geometry: square() as never });
    expect((await store.getBoundary(a, boundary.boundaryId))?.geometry).toEqual(square());
    expect(await store.getBoundary(b, boundary.boundaryId)).toBeUndefined();
    expect(await store.getField(b, field.fieldId)).toBeUndefined();
    expect(await store.getFarm(b, farm.id)).toBeUndefined();
    expect(await store.getGrower(b, grower.id)).toBeUndefined();
    expect(await store.setArchived('fields', b, field.fieldId, true)).toBe(false);
    expect(await store.setArchived('fields', a, field.fieldId, true)).toBe(true);
    expect((await store.listFields(farm.id, { limit: 10, offset: 0, includeArchived: false })).total).toBe(0);
    expect((await store.listFields(farm.id, { limit: 10, offset: 0, includeArchived: true })).total).toBe(1);
  });

  it('keeps one bootstrap key however often and concurrently it is ensured', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.ensureBootstrapKey('same-bootstrap-secret', 50)),
    );
    expect(results.filter((r) => r.created).length).toBe(1);
    expect(new Set(results.map((r) => r.keyId)).size).toBe(1);
  });
}

describe('store on embedded PGlite (memory:)', () => {
  storeSuite(async () => {
    const store = await openStore('memory:');
    return { store, cleanup: () => store.close() };
  });
});

describeWith(['postgres'], 'store on PostgreSQL', () => {
  let pg: TestPostgres | undefined;
  storeSuite(async () => {
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

  it('shares one rate-limit budget per key between processes (two pools on one database)', async () => {
    const s1 = await openStore(pg!.url);
    const s2 = await openStore(pg!.url);
    try {
      const l1 = createRateLimiter({ points: 5, windowSeconds: 60, pgPool: s1.db.pgPool });
      const l2 = createRateLimiter({ points: 5, windowSeconds: 60, pgPool: s2.db.pgPool });
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await l1.consume('key:shared'), await l2.consume('key:shared'));
      expect(decisions.filter((d) => d.allowed).length).toBe(5);
      expect(decisions.at(-1)).toMatchObject({ allowed: false, remaining: 0, limit: 5 });
      expect((await l1.consume('key:other')).allowed).toBe(true);
    } finally {
      await s1.close();
      await s2.close();
    }
  });

  it('runs migrations once when several processes start together', async () => {
    // (covered by the advisory lock; here: a second store on the same database sees them applied)
    const second = await openStore(pg!.url);
    try {
      expect(await migrate(second.db)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

describe('stored plans across migration 7 (the compressed form)', () => {
  it('keeps the plans stored before it, reads both forms, and holds a row to exactly one', async () => {
    const store = await openStore('memory:');
    try {
      const { userId } = await store.createAccountKey({ name: 'm7', partnerAdmin: true, initialCredits: 0 });
      const { company } = await store.provisionCompany(userId, userId, {
        partnerCompanyId: 'm7-co',
        name: 'M7',
        countryCode: 'DE',
      });
      const grower = await store.createGrower(company.companyId, { name: 'g', source: 'api', archived: false });
      const farm = await store.createFarm(grower, { name: 'f', source: 'api', archived: false });
      const { boundary } = await store.saveField(farm, { name: 'm7', geometry: square() });
      const before = {
        version: '1.5.0',
        metrics: { distanceMeters: 1234.5 },
        segments: [
          {
            type: 'track',
            coordinates: [
              [8.54, 47.37],
              [8.544, 47.37],
            ],
          },
        ],
      };
      const saved = await store.savePlan({
        boundary,
        createdBy: userId,
        request: { equipment: { widthMeters: 6 } },
        plan: before,
      });
      // The database as it was before migration 7, with that plan in it.
      for (const sql of [
        'ALTER TABLE plans DROP CONSTRAINT plans_one_form',
        'ALTER TABLE plans DROP COLUMN plan_gzip',
        'ALTER TABLE plans ALTER COLUMN plan SET NOT NULL',
        'DELETE FROM schema_migrations WHERE version = 7',
      ])
        await store.db.query(sql);
      expect(await migrate(store.db)).toEqual([7]);
      expect((await store.getPlan(userId, saved.planId))?.plan).toEqual(before);

      // A plan in the compressed form, as the job engine writes it, reads back whole.
      const compressed = { ...before, metrics: { distanceMeters: 99 } };
      const planId = randomUUID();
      await store.db.query(
        `INSERT INTO plans (plan_id, boundary_id, field_id, company_id, created_by, request, plan_gzip)
         VALUES ($1, $2, $3, $4, $5, '{}', decode($6, 'base64'))`,
        [
          planId,
          boundary.boundaryId,
          boundary.fieldId,
          company.companyId,
          userId,
          gzipSync(JSON.stringify(compressed)).toString('base64'),
        ],
      );
      expect((await store.getPlan(userId, planId))?.plan).toEqual(compressed);
      const listed = await store.listPlans(boundary.fieldId!, { limit: 10, offset: 0 });
      const distance = (plan: Record<string, unknown>) => (plan.metrics as { distanceMeters: number }).distanceMeters;
      expect(listed.items.map((p) => p.plan).sort((a, b) => distance(a) - distance(b))).toEqual([compressed, before]);

      // Neither form, or both: refused.
      for (const [plan, gzip] of [
        [null, null],
        ['{}', 'e30='],
      ]) {
        await expect(
          store.db.query(
            `INSERT INTO plans (plan_id, boundary_id, company_id, created_by, request, plan, plan_gzip) VALUES ($1, $2, $3, $4, '{}', $5::json, decode($6, 'base64'))`,
            [randomUUID(), boundary.boundaryId, company.companyId, userId, plan, gzip],
          ),
        ).rejects.toThrow(/plans_one_form/);
      }
    } finally {
      await store.close();
    }
  });
});
