/**
 * The handoff as a farmer lives it, on the real server (`serve` with `mountWebApp`, in-memory
 * store, the real planner in-process) and Chromium: a partner provisions a user, a company with
 * 50 credits and a field through the partner API and launches the user; the farmer re-plans
 * twice (once with refill points, which need the tank and the rate) and the company pays for each;
 * the farmer creates an API key on the profile page, sees it once, and it works on
 * `/api/user/current`. Also: a launch without returnUrl lands on the home page listing the
 * user's fields, and `/` without a session says how to get in.
 * Screenshots: test-results/web/handoff-*.png.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serve, type RunningServer } from '@furrow/api';
import { mountWebApp } from '@furrow/web';
import { describeWith } from '../support/requires.js';
// @ts-expect-error plain JavaScript build script
import { buildWebApp } from '../../packages/web/build.mjs';
import { launchBrowser, screenshot, watchErrors } from './support/browser.js';
import { memoryServerEnv } from '../support/server-env.js';

const ADMIN_KEY = 'furrow_handoff_web_bootstrap_key_0123456789abcdef';
const PARTNER_USER = 'farmer-7d2c';
const PARTNER_COMPANY = 'farm-co-7d2c';
const COMPANY_CREDITS = 50;
// About 300 m × 445 m (13 ha): with a 1000 l tank at 200 l/ha the sprayer refills on the way.
const FIELD = [
  [
    [8.54, 47.37],
    [8.544, 47.37],
    [8.544, 47.374],
    [8.54, 47.374],
    [8.54, 47.37],
  ],
];

describeWith(['chromium'], 'the partner handoff in the web app (browser, real server)', () => {
  vi.setConfig({ testTimeout: 180_000 });
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let endUserId = '';
  let companyId = '';
  let boundaryId = '';

  async function partnerCall<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'X-API-KEY': ADMIN_KEY, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  async function companyBalance(): Promise<number> {
    const credits = await partnerCall<{ companies: { companyId: string; balance: number }[] }>('GET', '/api/credits');
    const row = credits.body.companies.find((c) => c.companyId === companyId);
    if (!row) throw new Error('the partner does not see the company it created');
    return row.balance;
  }

  async function launch(returnUrl?: string): Promise<string> {
    const res = await partnerCall<{ launchUrl: string }>('POST', '/api/partner/launch', {
      userId: PARTNER_USER,
      ...(returnUrl ? { returnUrl } : {}),
    });
    expect(res.status).toBe(201);
    return res.body.launchUrl;
  }

  async function newPage(): Promise<{ page: Page; errors: string[] }> {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    contexts.push(ctx);
    const page = await ctx.newPage();
    return { page, errors: watchErrors(page) };
  }

  /** Waits for the `count`-th plan on screen; a planning error fails at once, with its message. */
  async function planned(page: Page, count: number): Promise<void> {
    const outcome = await page.waitForFunction(
      (n) => {
        const el = document.getElementById('page');
        const status = document.querySelector('[data-testid=status]');
        if (el?.dataset.state === 'planned' && Number(el.dataset.planCount ?? '0') >= n) return 'planned';
        if (el?.dataset.state === 'error' || (el?.dataset.state === 'planned' && status?.classList.contains('error')))
          return `failed: ${status?.textContent ?? ''}`;
        return false;
      },
      count,
      { timeout: 120_000 },
    );
    expect(await outcome.jsonValue()).toBe('planned');
  }

  beforeAll(async () => {
    await buildWebApp();
    server = await serve(memoryServerEnv(ADMIN_KEY), { web: mountWebApp, out: () => undefined });
    // The partner's provisioning: user, company, access, 50 credits for the company, a field.
    const user = await partnerCall<{ userId: string }>('POST', '/api/partner/users', {
      partnerUserId: PARTNER_USER,
      firstName: 'Franzi',
      lastName: 'Feld',
      email: 'franzi@example.org',
    });
    expect(user.status).toBe(201);
    endUserId = user.body.userId;
    const company = await partnerCall<{ companyId: string }>('POST', '/api/partner/companies', {
      partnerCompanyId: PARTNER_COMPANY,
      name: 'Feld GbR',
      countryCode: 'DE',
    });
    expect(company.status).toBe(201);
    companyId = company.body.companyId;
    expect(
      (
        await partnerCall('POST', '/api/partner/company-accesses', {
          partnerUserId: PARTNER_USER,
          partnerCompanyId: PARTNER_COMPANY,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await partnerCall('POST', '/api/partner/credits', {
          partnerCompanyId: PARTNER_COMPANY,
          credits: COMPANY_CREDITS,
        })
      ).status,
    ).toBeLessThan(300);
    const grower = await partnerCall<{ growerId: string }>('POST', `/api/companies/${companyId}/growers`, {
      name: 'Feld',
    });
    const farm = await partnerCall<{ farmId: string }>('POST', `/api/growers/${grower.body.growerId}/farms`, {
      name: 'Hof Feld',
    });
    const field = await partnerCall<{ vBoundary: { boundaryId: string } }>('POST', '/api/fields/save', {
      farmId: farm.body.farmId,
      name: 'Long acre',
      boundary: FIELD,
    });
    expect(field.status).toBe(201);
    boundaryId = field.body.vBoundary.boundaryId;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it("the farmer re-plans twice on the company's credits, then makes an API key that works", async () => {
    expect(await companyBalance()).toBe(COMPANY_CREDITS);
    const { page, errors } = await newPage();
    const planBodies: Record<string, unknown>[] = [];
    const planUrls: URL[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() !== 'POST' || url.pathname !== '/api/path-plans/direct/geojson') return;
      planUrls.push(url);
      planBodies.push(r.postDataJSON() as Record<string, unknown>);
    });
    await page.goto(await launch(`/path-planning/boundary/${boundaryId}`));
    // Opening a field without a saved plan plans it with the defaults: one plan, on the company.
    await planned(page, 1);
    const opened = await companyBalance();
    expect(opened).toBe(COMPANY_CREDITS - 1);

    // Re-plan 1: another working width.
    await page.fill('#p-widthMeters', '8');
    await page.click('[data-testid=replan]');
    await planned(page, 2);

    // Re-plan 2: refill points, which need the tank capacity and the application rate.
    await page.check('#p-calculateRefillPoints');
    await page.locator('[data-testid=refill-inputs]').waitFor({ state: 'visible' });
    await page.click('[data-testid=replan]');
    expect(await page.locator('#p-tankCapacity-error').textContent()).toMatch(/tank capacity/);
    expect(planBodies).toHaveLength(2); // nothing was sent without them
    await page.fill('#p-tankCapacity', '1000');
    await page.fill('#p-applicationRatePerHectare', '200');
    await page.click('[data-testid=replan]');
    await planned(page, 3);
    expect(await page.locator('[data-testid=status]').textContent()).not.toMatch(/fail/i);
    expect(planBodies[2]['machine']).toMatchObject({
      widthMeters: 8,
      tankCapacity: 1000,
      applicationRatePerHectare: 200,
    });
    expect(planBodies[2]['routeOptions']).toMatchObject({ calculateRefillPoints: true });
    expect(await page.locator('label[for=layer-refill] .count').textContent()).toMatch(/^[1-9]\d*$/);
    await screenshot(page, 'handoff-01-replanned-with-refill');

    // Each plan names the boundary it plans: that is what makes it the company's to pay.
    expect(planUrls.map((u) => u.searchParams.get('boundaryId'))).toEqual([boundaryId, boundaryId, boundaryId]);
    // Two re-plans, two credits, from the company; the farmer's own balance is untouched.
    expect(await companyBalance()).toBe(opened - 2);

    // Profile: create a key, see it once.
    await page.click('[data-testid=side-nav] a[data-nav=profile]');
    await page.waitForFunction(() => document.getElementById('page')?.dataset.state === 'profile');
    expect(await page.locator('[data-testid=user-credits]').textContent()).toBe('Your own credits: 0');
    expect(await page.locator('[data-testid=api-keys]').textContent()).toMatch(/no API keys yet/);
    await page.fill('#key-name', 'Farm office script');
    await page.click('[data-testid=create-key-button]');
    const keyField = page.locator('[data-testid=new-api-key]');
    await keyField.waitFor({ state: 'visible' });
    const apiKey = await keyField.inputValue();
    expect(apiKey).toMatch(/^fk_[0-9a-f]+_[A-Za-z0-9_-]{20,}$/);
    await page.locator('[data-testid=api-keys] tr[data-state=active]').waitFor();
    await screenshot(page, 'handoff-02-api-key-shown-once');

    const current = await fetch(`${server.url}/api/user/current`, { headers: { 'X-API-KEY': apiKey } });
    expect(current.status).toBe(200);
    const me = (await current.json()) as {
      user: { userId: string };
      key: { partnerAdmin: boolean };
      companies: { companyId: string }[];
    };
    expect(me.user.userId).toBe(endUserId);
    expect(me.key.partnerAdmin).toBe(false);
    expect(me.companies.map((c) => c.companyId)).toEqual([companyId]);

    // Shown once: after "Done" and after a reload the secret is nowhere on the page.
    await page.click('[data-testid=new-key-done]');
    expect(await page.locator('[data-testid=new-api-key]').count()).toBe(0);
    const secret = apiKey.slice(apiKey.indexOf('_', 3) + 1); // fk_<keyId>_<secret>
    await page.reload();
    await page.waitForFunction(() => document.getElementById('page')?.dataset.state === 'profile');
    expect(await page.content()).not.toContain(secret);
    const secretVisible = await page.evaluate(
      (s) => [...document.querySelectorAll('input')].some((i) => i.value.includes(s)),
      secret,
    );
    expect(secretVisible).toBe(false);
    expect(await page.locator('[data-testid=api-keys] tr[data-state=active] td').first().textContent()).toBe(
      'Farm office script',
    );

    // Revoke (two steps) and the key stops working.
    await page.click('[data-testid=revoke-key]');
    await page.click('[data-testid=revoke-key]');
    await page.locator('[data-testid=api-keys] tr[data-state=revoked]').waitFor();
    expect((await fetch(`${server.url}/api/user/current`, { headers: { 'X-API-KEY': apiKey } })).status).toBe(401);
    await screenshot(page, 'handoff-03-api-key-revoked');
    expect(errors).toEqual([]);
  });

  it("a launch without returnUrl lands on the home page, which lists the user's fields", async () => {
    const { page, errors } = await newPage();
    await page.goto(await launch());
    await page.waitForFunction(() => document.getElementById('page')?.dataset.state === 'home', undefined, {
      timeout: 60_000,
    });
    expect(await page.locator('[data-testid=home] h1').textContent()).toBe('Your fields');
    const section = page.locator(`section[data-company-id="${companyId}"]`);
    expect(await section.locator('h2').textContent()).toBe('Feld GbR');
    expect(await section.locator('[data-testid=company-credits]').textContent()).toMatch(/^\d+ credits? for planning$/);
    const link = section.locator(`a[data-boundary-id="${boundaryId}"]`);
    expect(await link.textContent()).toBe('Long acre');
    await screenshot(page, 'handoff-04-home');
    await link.click();
    await planned(page, 1);
    expect(new URL(page.url()).pathname).toBe(`/path-planning/boundary/${boundaryId}`);
    expect(errors).toEqual([]);
  });

  it('"/" without a session is a page saying how to get in, not a JSON 404', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const { page, errors } = await newPage();
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => document.getElementById('page')?.dataset.state === 'signed-out');
    expect(await page.locator('[data-testid=message-panel] h1').textContent()).toBe('Welcome to furrow');
    expect(await page.locator('[data-testid=message-panel] p').textContent()).toMatch(/from your farm software/);
    expect(await page.locator('[data-testid=side-nav]').isHidden()).toBe(true);
    await screenshot(page, 'handoff-05-home-signed-out');
    expect(errors).toEqual([]);
  });

  it("an unknown path shows the app's own Page not found (HTTP 404), not the API's JSON", async () => {
    const { page, errors } = await newPage();
    const response = await page.goto(`${server.url}/fields/no-such-page`);
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toContain('text/html');
    await page.waitForFunction(() => document.getElementById('page')?.dataset.state === 'not-found');
    expect(await page.locator('[data-testid=message-panel] h1').textContent()).toBe('Page not found');
    expect(await page.locator('[data-testid=home-link]').getAttribute('href')).toBe('/');
    expect(await page.title()).toBe('Page not found · furrow');
    // The API's paths keep their JSON answers (here: no key, 401), even for a browser.
    const api = await fetch(`${server.url}/api/no-such-thing`, { headers: { Accept: 'text/html' } });
    expect(api.status).toBe(401);
    expect(api.headers.get('content-type')).toContain('application/json');
    // The browser's own request for the page was the 404; nothing else failed.
    expect(errors.filter((e) => !/status of 404 .*\/fields\/no-such-page/.test(e))).toEqual([]);
  });
});
