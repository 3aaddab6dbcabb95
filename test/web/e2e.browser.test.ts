/**
 * End to end: the real furrow server (`@furrow/api` `serve`, in-memory store, bootstrap
 * partner-admin key) serving the web app through `mountWebApp`, the partner example provisioning
 * through the real API, and Chromium going through the launch exchange to the plan view.
 * Screenshots go to test-results/web/e2e-*.png.
 *
 * Planning uses `@furrow/core`'s `planRoute` when it exists; until then a stand-in planner is
 * injected through `serve`'s `planner` option (said on stderr), so the platform half is tested.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import * as core from '@furrow/core';
import { serve, type RunningServer } from '@furrow/api';
import { mountWebApp } from '@furrow/web';
import { describeWith } from '../support/requires.js';
// @ts-expect-error plain JavaScript build script
import { buildWebApp } from '../../packages/web/build.mjs';
import { startPartnerEmbed, type PartnerEmbed } from '../../examples/partner-embed/server.js';
import { launchBrowser, screenshot, watchErrors } from './support/browser.js';
import { startForeignPage } from './support/foreign-page.js';
import { fakePlanJson } from './support/fake-plan.js';
import { freePort } from '../support/ports.js';
import { memoryServerEnv } from '../support/server-env.js';

const ADMIN_KEY = 'furrow_e2e_web_bootstrap_key_0123456789abcdef';
const PARTNER_USER = '3c1d8f0a-5b7e-4c2d-9a61-0f2e4b7c8d90';
const THEME = { name: 'Acme Farm Manager', primaryColor: '#0a4d8c', accentColor: '#f2a900' };
const realPlanner = typeof (core as Record<string, unknown>)['planRoute'] === 'function';

describeWith(['chromium'], 'web app end to end on the real server (browser)', () => {
  // Real browser and server on a shared 2-core CI machine: generous per-test time.
  vi.setConfig({ testTimeout: 120_000 });
  let server: RunningServer;
  let partner: PartnerEmbed;
  let foreign: Awaited<ReturnType<typeof startForeignPage>>;
  let browser: Browser;
  let boundaryId = '';
  const contexts: BrowserContext[] = [];

  async function newPage(): Promise<{ page: Page; errors: string[] }> {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 860 }, acceptDownloads: true });
    contexts.push(ctx);
    const page = await ctx.newPage();
    return { page, errors: watchErrors(page) };
  }

  async function launchUrl(query = ''): Promise<string> {
    const res = await fetch(`${server.url}/api/partner/launch`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        userId: PARTNER_USER,
        returnUrl: `${server.url}/path-planning/boundary/${boundaryId}${query}`,
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { launchUrl: string }).launchUrl;
  }

  async function planned(target: Page | Frame, count = 1): Promise<void> {
    await target.waitForFunction(
      (n) => {
        const el = document.getElementById('page');
        return el?.dataset.state === 'planned' && Number(el.dataset.planCount ?? '0') >= n;
      },
      count,
      { timeout: 60_000 },
    );
  }

  const appFrame = (page: Page): Frame => page.frames().find((f) => f.url().includes('/path-planning/boundary/'))!;

  beforeAll(async () => {
    await buildWebApp();
    if (!realPlanner)
      process.stderr.write(
        "[furrow] web e2e: @furrow/core has no planRoute yet; planning with the suite's stand-in planner\n",
      );
    // The partner page's origin is configured before the server starts: only configured partner
    // origins may frame the app (frame-ancestors).
    const partnerPort = await freePort();
    server = await serve(memoryServerEnv(ADMIN_KEY, { FURROW_RETURN_URL_ORIGINS: `http://127.0.0.1:${partnerPort}` }), {
      web: mountWebApp,
      out: () => undefined,
      ...(realPlanner
        ? {}
        : {
            planner: {
              threads: 1,
              plan: async (request: unknown) => fakePlanJson(request as Record<string, unknown>),
              close: async () => undefined,
            },
          }),
    });
    partner = await startPartnerEmbed({
      furrowUrl: server.url,
      adminKey: ADMIN_KEY,
      partnerUserId: PARTNER_USER,
      theme: THEME,
      port: partnerPort,
    });
    boundaryId = (await partner.provisioned()).boundaryId;
    foreign = await startForeignPage();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await partner?.close();
    await foreign?.close();
    await server?.close();
  });

  it('goes from the partner page through the exchange to the embedded plan view', async () => {
    const { page, errors } = await newPage();
    const html = await (await fetch(partner.url)).text();
    expect(html).not.toContain(ADMIN_KEY);
    await page.goto(partner.url);
    await page.frameLocator('#furrow').locator('#page[data-state="planned"]').waitFor({ timeout: 60_000 });
    const app = appFrame(page);
    expect(new URL(app.url()).pathname).toBe(`/path-planning/boundary/${boundaryId}`);
    for (const id of ['side-nav', 'org-selector', 'field-selector'])
      expect(await app.locator(`[data-testid=${id}]`).isHidden(), id).toBe(true);
    expect(await app.evaluate(() => document.documentElement.dataset.theme)).toBe('partner');
    expect(await app.locator('[data-layer=tracks] path').count()).toBeGreaterThan(3);
    expect(await app.locator('[data-layer=startEnd] .marker').count()).toBe(2);
    expect(await app.locator('[data-metric=distanceMeters] td.value').textContent()).toMatch(/\d+(\.\d+)? (km|m)$/);
    await screenshot(page, 'e2e-01-partner-embed-plan');
    expect(errors).toEqual([]);
  });

  it('refuses a replayed code', async () => {
    const url = await launchUrl();
    const first = await newPage();
    await first.page.goto(url);
    await planned(first.page);
    const second = await newPage();
    await second.page.goto(url);
    await second.page.locator('[data-testid=message-panel] h1').waitFor();
    expect(await second.page.locator('[data-testid=message-panel] h1').textContent()).toMatch(/can no longer be used/);
    expect(await second.page.locator('[data-testid=go-back]').isVisible()).toBe(true);
    await screenshot(second.page, 'e2e-02-launch-code-replayed');
    expect([...first.errors, ...second.errors].filter((e) => !/status of 401 .*launch\/exchange/.test(e))).toEqual([]);
  });

  it('shows the chrome in normal mode and hides it with embedded=true&chrome=false', async () => {
    const normal = await newPage();
    await normal.page.goto(await launchUrl());
    await planned(normal.page);
    for (const id of ['side-nav', 'org-selector', 'field-selector'])
      expect(await normal.page.locator(`[data-testid=${id}]`).isVisible(), id).toBe(true);
    await normal.page.waitForFunction(
      () => (document.querySelector('#org-select option:checked')?.textContent ?? '') === 'Acme Farms',
    );
    await normal.page.waitForFunction(
      () => (document.querySelector('#field-select option:checked')?.textContent ?? '') === 'North meadow',
    );
    await screenshot(normal.page, 'e2e-03-normal-mode');
    const embedded = await newPage();
    await embedded.page.goto(await launchUrl('?embedded=true&chrome=false'));
    await planned(embedded.page);
    for (const id of ['side-nav', 'org-selector', 'field-selector'])
      expect(await embedded.page.locator(`[data-testid=${id}]`).isHidden(), id).toBe(true);
    expect([...normal.errors, ...embedded.errors]).toEqual([]);
  });

  it('applies the partner page messages and ignores a foreign origin', async () => {
    const { page, errors } = await newPage();
    await page.goto(partner.url);
    await page.frameLocator('#furrow').locator('#page[data-state="planned"]').waitFor({ timeout: 60_000 });
    const app = appFrame(page);
    await page.check('#show-field');
    await app.locator('[data-testid=field-selector]').waitFor({ state: 'visible' });
    expect(await app.locator('[data-testid=side-nav]').isHidden()).toBe(true);
    await screenshot(page, 'e2e-04-postmessage-applied');

    // A foreign page framing the app gets nothing: the app's pages allow only configured partner origins as ancestors.
    const query = new URLSearchParams({ embedded: 'true', chrome: 'false', embedOrigin: partner.url }).toString();
    const framed = await newPage();
    const appResponse = framed.page.waitForResponse((r) => r.url().includes('/launch'));
    await framed.page.goto(foreign.pageFor(await launchUrl(`?${query}`)));
    expect((await appResponse).headers()['content-security-policy']).toMatch(
      /frame-ancestors 'self' .*http:\/\/127\.0\.0\.1:/,
    );
    expect((await appResponse).headers()['content-security-policy']).not.toContain(foreign.url);
    // The foreign page opens the partner's page and posts into the app frame there: ignored.
    const f = await newPage();
    await f.page.goto(foreign.url);
    const popupOpened = f.page.waitForEvent('popup');
    await f.page.evaluate((u) => (window as unknown as { openPartner(u: string): void }).openPartner(u), partner.url);
    const popup = await popupOpened;
    await popup.frameLocator('#furrow').locator('#page[data-state="planned"]').waitFor({ timeout: 60_000 });
    const victim = appFrame(popup);
    const hiddenBefore = await victim.locator('[data-testid=side-nav]').isHidden();
    await f.page.evaluate(() => (window as unknown as { sendModeToPartnerFrame(): void }).sendModeToPartnerFrame());
    await victim.waitForFunction(() => document.querySelector<HTMLElement>('.app')?.dataset.ignoredMessages === '1');
    expect(await victim.locator('[data-testid=side-nav]').isHidden()).toBe(hiddenBefore);
    // the foreign page's own frame of the app is refused by the browser (frame-ancestors): expected
    expect([...errors, ...f.errors.filter((e) => !/frame-ancestors/.test(e))]).toEqual([]);
  });

  it('re-plans through the API, redraws, saves and exports the stored plan', async () => {
    const { page, errors } = await newPage();
    await page.goto(await launchUrl());
    await planned(page);
    const before = await page
      .locator('[data-layer=tracks] path')
      .evaluateAll((els) => els.map((e) => e.getAttribute('d')));
    await page.fill('#p-widthMeters', '12');
    await page.fill('#p-headingDegrees', '90');
    await page.click('[data-testid=replan]');
    await planned(page, 2);
    const after = await page
      .locator('[data-layer=tracks] path')
      .evaluateAll((els) => els.map((e) => e.getAttribute('d')));
    expect(after).not.toEqual(before);
    expect(after.length).toBeLessThan(before.length);
    expect(await page.locator('[data-metric=workingDistanceMeters] td.change').textContent()).toMatch(/^[−+]/);
    await screenshot(page, 'e2e-05-replanned');

    await page.click('[data-testid=save-plan]');
    await page.waitForFunction(() =>
      /Plan saved \(/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''),
    );
    const planId = await page.evaluate(() => document.getElementById('page')?.dataset.savedPlanId ?? '');
    expect(planId).not.toBe('');
    const [kml] = await Promise.all([page.waitForEvent('download'), page.click('[data-format=kml]')]);
    const chunks: Buffer[] = [];
    for await (const c of await kml.createReadStream()) chunks.push(Buffer.from(c as Buffer));
    expect(Buffer.concat(chunks).toString('utf8')).toContain('<kml');
    expect(kml.suggestedFilename()).toMatch(/\.kml$/);

    // Opening the field again shows the saved plan (through the server's GeoJSON export).
    const again = await newPage();
    await again.page.goto(await launchUrl());
    await planned(again.page);
    expect(await again.page.inputValue('#p-widthMeters')).toBe('12');
    expect(await again.page.evaluate(() => document.getElementById('page')?.dataset.savedPlanId)).toBe(planId);
    expect(await again.page.locator('[data-layer=tracks] path').count()).toBe(after.length);
    await screenshot(again.page, 'e2e-06-saved-plan-reopened');
    expect([...errors, ...again.errors]).toEqual([]);
  });

  it('downloads the saved plan in every export format', async () => {
    const open = async () => {
      const opened = await newPage();
      await opened.page.goto(await launchUrl());
      await planned(opened.page);
      expect(await opened.page.evaluate(() => document.getElementById('page')?.dataset.savedPlanId)).not.toBe('');
      return opened;
    };
    let { page, errors } = await open();
    const allErrors = errors;
    const formats = await page
      .locator('[data-format]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-format')!));
    expect(formats.length).toBeGreaterThanOrEqual(10);
    for (const [k, format] of formats.entries()) {
      // Chromium stops a tab's downloads after about ten in a row (it would ask the user whether the
      // site may download multiple files): a fresh page every five, as a user coming back would be.
      if (k > 0 && k % 5 === 0) {
        ({ page, errors } = await open());
        allErrors.push(...errors);
      }
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-format=${format}]`)]);
      const chunks: Buffer[] = [];
      for await (const c of await download.createReadStream()) chunks.push(Buffer.from(c as Buffer));
      const bytes = Buffer.concat(chunks);
      expect(bytes.length, format).toBeGreaterThan(100);
      if (format === 'json') expect(JSON.parse(bytes.toString('utf8')).metrics, format).toBeDefined();
      if (download.suggestedFilename().endsWith('.zip'))
        expect(bytes.subarray(0, 2).toString('latin1'), format).toBe('PK');
    }
    expect([...allErrors, ...errors]).toEqual([]);
  });

  it('draws a field with a hole, the hole as an obstacle, and lists both fields', async () => {
    const ids = await partner.provisioned();
    const feature = JSON.parse(readFileSync(new URL('../fields/at-ref-056.geojson', import.meta.url), 'utf8'));
    const res = await fetch(`${server.url}/api/fields/save`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ farmId: ids.farmId, name: 'Field with a pond', boundary: feature.geometry.coordinates }),
    });
    expect(res.status).toBe(201);
    const pondBoundary = ((await res.json()) as { vBoundary: { boundaryId: string } }).vBoundary.boundaryId;
    const launch = await fetch(`${server.url}/api/partner/launch`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: PARTNER_USER, returnUrl: `/path-planning/boundary/${pondBoundary}` }),
    });
    const { page, errors } = await newPage();
    await page.goto(((await launch.json()) as { launchUrl: string }).launchUrl);
    await planned(page);
    expect(await page.locator('.furrow-layer[data-layer=obstacles] path').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('label[for=layer-obstacles]').textContent()).toMatch(/Obstacles\s*1/);
    expect(await page.locator('.furrow-layer[data-layer=tracks] path').count()).toBeGreaterThan(3);
    // The field selector is filled after the plan is painted (the plan comes first).
    await page.waitForFunction(() => document.querySelectorAll('#field-select option').length >= 2);
    expect(await page.locator('#field-select option').allTextContents()).toEqual(
      expect.arrayContaining(['North meadow', 'Field with a pond']),
    );
    await screenshot(page, 'e2e-07-field-with-hole');
    expect(errors).toEqual([]);
  });
});
