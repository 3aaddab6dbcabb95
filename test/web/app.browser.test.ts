/**
 * The web application in a real browser (Chromium via playwright-core) against a contract fake
 * of the API (support/fake-api.ts): launch handoff from the partner example, replayed / expired /
 * wrong codes, embedded flags, the postMessage protocol and its origin check, the plan view
 * (layers, pan / zoom, re-plan, save, download), keyboard reach, tablet layout, console errors.
 * Screenshots of each state go to test-results/web/.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { describeWith } from '../support/requires.js';
// @ts-expect-error plain JavaScript build script
import { buildWebApp } from '../../packages/web/build.mjs';
import { startPartnerEmbed, type PartnerEmbed } from '../../examples/partner-embed/server.js';
import { launchBrowser, screenshot, watchErrors, watchOrigins } from './support/browser.js';
import { startFakeApi, type FakeApi } from './support/fake-api.js';
import { startForeignPage } from './support/foreign-page.js';

const ADMIN_KEY = 'fk_admin_0123456789abcdef0123456789abcdef';
const PARTNER_USER = 'web-suite-user-0001';
const THEME = { name: 'Acme Farm Manager', primaryColor: '#0a4d8c', accentColor: '#f2a900' };

describeWith(['chromium'], 'web app against the API contract (browser)', () => {
  // Real browser and server on a shared 2-core CI machine: generous per-test time.
  vi.setConfig({ testTimeout: 120_000 });
  let browser: Browser;
  let api: FakeApi;
  let partner: PartnerEmbed;
  let foreign: Awaited<ReturnType<typeof startForeignPage>>;
  let boundaryId = '';
  const contexts: BrowserContext[] = [];

  async function newPage(
    viewport = { width: 1366, height: 860 },
  ): Promise<{ page: Page; errors: string[]; origins: Set<string> }> {
    const ctx = await browser.newContext({ viewport, acceptDownloads: true });
    contexts.push(ctx);
    const page = await ctx.newPage();
    return { page, errors: watchErrors(page), origins: watchOrigins(page) };
  }

  async function launchUrl(returnPath: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await fetch(`${api.url}/api/partner/launch`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: PARTNER_USER, returnUrl: `${api.url}${returnPath}`, ...extra }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { launchUrl: string }).launchUrl;
  }

  /** Embedded without chrome, steerable from the partner page only, in the partner's theme. */
  function embeddedQuery(): string {
    return new URLSearchParams({
      embedded: 'true',
      chrome: 'false',
      embedOrigin: partner.url,
      partnerTheme: JSON.stringify(THEME),
    }).toString();
  }

  async function planned(target: Page | Frame, count = 1): Promise<void> {
    await target.waitForFunction(
      (n) => {
        const el = document.getElementById('page');
        return el?.dataset.state === 'planned' && Number(el.dataset.planCount ?? '0') >= n;
      },
      count,
      { timeout: 30_000 },
    );
  }

  beforeAll(async () => {
    await buildWebApp();
    api = await startFakeApi({ adminKey: ADMIN_KEY });
    partner = await startPartnerEmbed({
      furrowUrl: api.url,
      adminKey: ADMIN_KEY,
      partnerUserId: PARTNER_USER,
      theme: THEME,
    });
    foreign = await startForeignPage();
    boundaryId = (await partner.provisioned()).boundaryId;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await partner?.close();
    await foreign?.close();
    await api?.close();
  });

  it('hands off from the partner page through the exchange to the embedded plan view', async () => {
    const { page, errors, origins } = await newPage();
    const html = await (await fetch(partner.url)).text();
    expect(html).not.toContain(ADMIN_KEY);
    await page.goto(partner.url);
    const frame = page.frameLocator('#furrow');
    await frame.locator('#page[data-state="planned"]').waitFor({ timeout: 30_000 });
    const app = page.frames().find((f) => f.url().includes('/path-planning/boundary/'))!;
    expect(new URL(app.url()).pathname).toBe(`/path-planning/boundary/${boundaryId}`);
    expect(new URL(app.url()).searchParams.get('embedded')).toBe('true');
    // Embedded without chrome: no navigation, no selectors, partner theme on.
    expect(await app.locator('[data-testid=side-nav]').isHidden()).toBe(true);
    expect(await app.locator('[data-testid=org-selector]').isHidden()).toBe(true);
    expect(await app.locator('[data-testid=field-selector]').isHidden()).toBe(true);
    expect(await app.evaluate(() => document.documentElement.dataset.theme)).toBe('partner');
    expect(
      await app.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim()),
    ).toBe('#0a4d8c');
    // The plan is drawn: tracks, turns, headland passes, start and end.
    expect(await app.locator('[data-layer=tracks] path').count()).toBeGreaterThan(5);
    expect(await app.locator('[data-layer=turns] path').count()).toBeGreaterThan(3);
    expect(await app.locator('[data-layer=headlands] path').count()).toBe(2);
    expect(await app.locator('[data-layer=startEnd] .marker').count()).toBe(2);
    expect(await app.locator('[data-metric=timeSeconds] td.value').textContent()).toMatch(/\d+ (h|min)/);
    // The session went as a Bearer token; the code was exchanged once; no key in the browser.
    const appCalls = api.log.filter(
      (l) => l.path.startsWith('/api/boundaries/') || l.path === '/api/path-plans/direct/geojson',
    );
    expect(appCalls.length).toBeGreaterThan(0);
    expect(appCalls.every((l) => l.bearer && !l.apiKey)).toBe(true);
    // The code left the address bar and the session is not a cookie.
    expect(await app.evaluate(() => document.cookie)).toBe('');
    expect([...origins].sort()).toEqual([api.url, partner.url].sort());
    await screenshot(page, '01-partner-embed-plan');
    expect(errors).toEqual([]);
  });

  it('refuses a replayed code with a clear message and a way back', async () => {
    const url = await launchUrl(`/path-planning/boundary/${boundaryId}`);
    const first = await newPage();
    await first.page.goto(url);
    await planned(first.page);
    const second = await newPage();
    await second.page.goto(url);
    const panel = second.page.locator('[data-testid=message-panel]');
    await panel.waitFor();
    expect(await panel.locator('h1').textContent()).toMatch(/can no longer be used/i);
    expect(await panel.locator('p').textContent()).toMatch(/used, expired or not valid/);
    expect(await second.page.locator('[data-testid=go-back]').isVisible()).toBe(true);
    // Nothing of the code stays in the address bar.
    expect(second.page.url()).toBe(`${api.url}/launch`);
    await screenshot(second.page, '02-launch-code-replayed');
    // Chromium itself logs the refused exchange (HTTP 400); the app logs nothing.
    expect([...first.errors, ...second.errors].filter((e) => !/status of 401 .*launch\/exchange/.test(e))).toEqual([]);
  });

  it('explains expired and wrong codes (never a blank page)', async () => {
    const expired = await launchUrl(`/path-planning/boundary/${boundaryId}`, { testTtlSeconds: 0 });
    const a = await newPage();
    await a.page.goto(expired);
    await a.page.locator('[data-testid=message-panel] h1').waitFor();
    expect(await a.page.locator('[data-testid=message-panel] h1').textContent()).toMatch(/can no longer be used/i);
    await screenshot(a.page, '03-launch-code-expired');
    const b = await newPage();
    await b.page.goto(`${api.url}/launch?code=nope&userId=nobody&returnUrl=%2F`);
    await b.page.locator('[data-testid=message-panel] h1').waitFor();
    expect(await b.page.locator('[data-testid=message-panel] h1').textContent()).toMatch(/can no longer be used/i);
    const c = await newPage();
    await c.page.goto(`${api.url}/launch`);
    expect(await c.page.locator('[data-testid=message-panel] h1').textContent()).toMatch(/incomplete/i);
    const d = await newPage();
    await d.page.goto(`${api.url}/path-planning/boundary/${boundaryId}`);
    expect(await d.page.locator('[data-testid=message-panel] h1').textContent()).toMatch(/sign-in needed/i);
    await screenshot(d.page, '04-signed-out');
    const e = await newPage();
    await e.page.goto(await launchUrl('/path-planning/boundary/no-such-boundary'));
    await e.page.locator('[data-testid=message-panel] h1').waitFor();
    expect(await e.page.locator('[data-testid=message-panel] h1').textContent()).toBe('Field not found');
    expect(e.errors.filter((x) => !/status of 404 .*\/api\/boundaries\/no-such-boundary/.test(x))).toEqual([]);
    expect(
      [...a.errors, ...b.errors, ...c.errors, ...d.errors].filter((e) => !/status of 401 .*launch\/exchange/.test(e)),
    ).toEqual([]);
  });

  it('honours the session expiry, on load and while the page is open', async () => {
    const { page, errors } = await newPage();
    await page.goto(await launchUrl(`/path-planning/boundary/${boundaryId}`));
    await planned(page);
    const stored = JSON.parse((await page.evaluate(() => sessionStorage.getItem('furrow.session'))) ?? '{}');
    expect(typeof stored.token).toBe('string');
    // Expiring in 10 s while open: the page ends the session by itself. (4 s was too short for the
    // page to load and show its selectors on a loaded 2-core runner: the session ended first.)
    await page.evaluate(() => {
      const s = JSON.parse(sessionStorage.getItem('furrow.session')!);
      sessionStorage.setItem('furrow.session', JSON.stringify({ ...s, expiresAtMs: Date.now() + 10_000 }));
    });
    await page.reload();
    await page.locator('[data-testid=field-selector]').waitFor({ state: 'visible' });
    await page.locator('[data-testid=message-panel] h1', { hasText: 'expired' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('furrow.session'))).toBeNull();
    // Already expired on load.
    await page.evaluate(
      (s) => sessionStorage.setItem('furrow.session', JSON.stringify({ ...s, expiresAtMs: Date.now() - 1 })),
      stored,
    );
    await page.reload();
    expect(await page.locator('[data-testid=message-panel] h1').textContent()).toMatch(/expired/);
    await screenshot(page, '04b-session-expired');
    expect(errors).toEqual([]);
  });

  it('follows the returnUrl the API stored with the code, not an edited one', async () => {
    const { page, errors } = await newPage();
    const url = new URL(await launchUrl(`/path-planning/boundary/${boundaryId}`));
    url.searchParams.set('returnUrl', 'https://evil.example/steal');
    await page.goto(url.toString());
    await planned(page);
    expect(new URL(page.url()).origin).toBe(api.url);
    expect(new URL(page.url()).pathname).toBe(`/path-planning/boundary/${boundaryId}`);
    expect(errors).toEqual([]);
  });

  it('normal mode shows navigation and selectors; the URL flags hide them', async () => {
    const normal = await newPage();
    await normal.page.goto(await launchUrl(`/path-planning/boundary/${boundaryId}`));
    await planned(normal.page);
    expect(await normal.page.locator('[data-testid=side-nav]').isVisible()).toBe(true);
    expect(await normal.page.locator('[data-testid=org-selector]').isVisible()).toBe(true);
    expect(await normal.page.locator('[data-testid=field-selector]').isVisible()).toBe(true);
    await normal.page.waitForFunction(
      () => (document.querySelector('#org-select option')?.textContent ?? '') === 'Acme Farms',
    );
    await normal.page.waitForFunction(
      () => (document.querySelector('#field-select option:checked')?.textContent ?? '') === 'North meadow',
    );
    expect(await normal.page.locator('.leaflet-control-scale-line').textContent()).toMatch(/^\d+ (m|km)$/);
    expect(await normal.page.evaluate(() => document.documentElement.dataset.theme)).toBe('furrow');
    await screenshot(normal.page, '05-normal-mode');

    const embedded = await newPage();
    await embedded.page.goto(await launchUrl(`/path-planning/boundary/${boundaryId}?${embeddedQuery()}`));
    await planned(embedded.page);
    for (const id of ['side-nav', 'org-selector', 'field-selector']) {
      expect(await embedded.page.locator(`[data-testid=${id}]`).isHidden(), id).toBe(true);
    }
    expect(await embedded.page.evaluate(() => document.documentElement.dataset.theme)).toBe('partner');
    await screenshot(embedded.page, '06-embedded-chrome-false');
    expect([...normal.errors, ...embedded.errors]).toEqual([]);
  });

  it('applies embedded-mode messages from the partner and ignores a foreign origin', async () => {
    const { page, errors } = await newPage();
    await page.goto(partner.url);
    await page.frameLocator('#furrow').locator('#page[data-state="planned"]').waitFor({ timeout: 30_000 });
    const app = page.frames().find((f) => f.url().includes('/path-planning/boundary/'))!;
    await page.check('#show-field');
    await page.check('#show-side-nav');
    await app.locator('[data-testid=field-selector]').waitFor({ state: 'visible' });
    await app.locator('[data-testid=side-nav]').waitFor({ state: 'visible' });
    expect(await app.locator('[data-testid=org-selector]').isHidden()).toBe(true);
    await screenshot(page, '07-postmessage-applied');
    await page.uncheck('#show-side-nav');
    await app.locator('[data-testid=side-nav]').waitFor({ state: 'hidden' });

    // A page on an origin the partner did not allow, with a live session in its frame.
    const f = await newPage();
    await f.page.goto(foreign.pageFor(await launchUrl(`/path-planning/boundary/${boundaryId}?${embeddedQuery()}`)));
    await f.page.frameLocator('#furrow').locator('#page[data-state="planned"]').waitFor({ timeout: 30_000 });
    const victim = f.page.frames().find((fr) => fr.url().includes('/path-planning/boundary/'))!;
    await f.page.evaluate(() => (window as unknown as { sendMode(): void }).sendMode());
    await victim.waitForFunction(() => document.querySelector<HTMLElement>('.app')?.dataset.ignoredMessages === '1');
    expect(await victim.locator('[data-testid=side-nav]').isHidden()).toBe(true);
    expect(await victim.locator('[data-testid=org-selector]').isHidden()).toBe(true);
    expect(
      await victim.evaluate(() => document.querySelector<HTMLElement>('.app')?.dataset.appliedMessages ?? '0'),
    ).toBe('0');
    expect([...errors, ...f.errors]).toEqual([]);
  });

  it('re-plans with new parameters, redraws, shows the change; layers toggle; pan and zoom; save; download', async () => {
    const { page, errors } = await newPage();
    await page.goto(await launchUrl(`/path-planning/boundary/${boundaryId}`));
    await planned(page);
    const tracksBefore = await page
      .locator('[data-layer=tracks] path')
      .evaluateAll((els) => els.map((e) => e.getAttribute('d')));
    const turnsBefore = Number(await page.locator('[data-metric=turns] td.value').textContent());

    await page.fill('#p-widthMeters', '12');
    await page.fill('#p-headingDegrees', '90');
    await page.click('[data-testid=replan]');
    await planned(page, 2);
    const tracksAfter = await page
      .locator('[data-layer=tracks] path')
      .evaluateAll((els) => els.map((e) => e.getAttribute('d')));
    expect(tracksAfter).not.toEqual(tracksBefore);
    expect(tracksAfter.filter((d) => tracksBefore.includes(d))).toEqual([]);
    const turnsAfter = Number(await page.locator('[data-metric=turns] td.value').textContent());
    expect(turnsAfter).not.toBe(turnsBefore);
    const change = page.locator('[data-metric=turns] td.change');
    expect(await change.textContent()).toBe(
      `${turnsAfter < turnsBefore ? '−' : '+'}${Math.abs(turnsAfter - turnsBefore)}`,
    );
    expect(await change.getAttribute('data-verdict')).toBe(turnsAfter < turnsBefore ? 'better' : 'worse');
    const sent = api.log.filter((l) => l.path === '/api/path-plans/direct/geojson').length;
    expect(sent).toBeGreaterThanOrEqual(2);
    // Warnings in words, the code as a small tag.
    expect(await page.locator('[data-testid=warnings] li .warning-text').allTextContents()).toEqual([
      'The implement is wider than 10 m: check the field edges.',
    ]);
    expect(await page.locator('[data-testid=warnings] li .tag').allTextContents()).toEqual(['wide-implement']);
    expect(await page.locator('.furrow-layer[data-layer=warnings] .marker').count()).toBe(1);
    await screenshot(page, '08-replanned-with-changes');

    // Invalid input is named, not sent.
    await page.fill('#p-widthMeters', '-3');
    await page.click('[data-testid=replan]');
    expect(await page.locator('#p-widthMeters-error').textContent()).toMatch(/width/i);
    expect(api.log.filter((l) => l.path === '/api/path-plans/direct/geojson').length).toBe(sent);
    await page.fill('#p-widthMeters', '12');

    // Layer toggles.
    await page.uncheck('#layer-tracks');
    const tracksDisplay = () =>
      page.locator('.furrow-layer[data-layer=tracks]').evaluate((el) => getComputedStyle(el).display);
    expect(await tracksDisplay()).toBe('none');
    await page.check('#layer-tracks');
    expect(await tracksDisplay()).not.toBe('none');

    // Zoom with the keyboard and buttons, pan by dragging.
    const map = page.locator('[data-testid=map]');
    await page.click('.zoom-fit');
    const width0 = Number(await map.getAttribute('data-view-width'));
    await map.focus();
    await page.keyboard.press('+');
    const width1 = Number(await map.getAttribute('data-view-width'));
    expect(width1).toBeCloseTo(width0 / 1.5, 1);
    const center0 = await map.getAttribute('data-view-center');
    const box = (await map.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 4 });
    await page.mouse.up();
    expect(await map.getAttribute('data-view-center')).not.toBe(center0);
    await page.click('.zoom-fit');
    expect(Number(await map.getAttribute('data-view-width'))).toBeCloseTo(width0, 1);

    // Save, then download GeoJSON and an export through the API.
    await page.click('[data-testid=save-plan]');
    await page.waitForFunction(() => /saved/i.test(document.querySelector('[data-testid=status]')?.textContent ?? ''));
    expect(api.plansSaved).toHaveLength(1);
    expect((api.plansSaved[0]['request'] as { machine: { widthMeters: number } }).machine.widthMeters).toBe(12);
    const [geojson] = await Promise.all([page.waitForEvent('download'), page.click('[data-format=geojson]')]);
    const body = JSON.parse(await streamText(await geojson.createReadStream()));
    expect(body.type).toBe('FeatureCollection');
    expect(body.features.filter((f: { properties: { type: string } }) => f.properties.type === 'Track').length).toBe(
      tracksAfter.length,
    );
    const [kml] = await Promise.all([page.waitForEvent('download'), page.click('[data-format=kml]')]);
    expect(kml.suggestedFilename()).toBe(`furrow-plan-${boundaryId}.kml`);
    expect(await streamText(await kml.createReadStream())).toContain('<kml>');

    // Opening the field again shows the saved plan with its parameters.
    const again = await newPage();
    await again.page.goto(await launchUrl(`/path-planning/boundary/${boundaryId}`));
    await planned(again.page);
    expect(await again.page.inputValue('#p-widthMeters')).toBe('12');
    expect(await again.page.inputValue('#p-headingDegrees')).toBe('90');
    expect(await again.page.locator('[data-testid=status]').textContent()).toMatch(/last saved plan/);
    expect(await again.page.locator('[data-layer=tracks] path').count()).toBe(tracksAfter.length);
    expect([...errors, ...again.errors]).toEqual([]);
  });

  it('is keyboard reachable and fits a tablet', async () => {
    const { page, errors } = await newPage({ width: 1024, height: 768 });
    await page.goto(await launchUrl(`/path-planning/boundary/${boundaryId}`));
    await planned(page);
    const reached = new Set<string>();
    for (let i = 0; i < 60 && !reached.has('replan'); i++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement | null;
        return a?.dataset.testid ?? a?.id ?? a?.tagName ?? '';
      });
      reached.add(id);
    }
    for (const id of ['map', 'layer-tracks', 'p-widthMeters', 'replan']) expect(reached, id).toContain(id);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '09-tablet-landscape');
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.waitForTimeout(100);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(page, '10-tablet-portrait');
    expect(errors).toEqual([]);
  });
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
