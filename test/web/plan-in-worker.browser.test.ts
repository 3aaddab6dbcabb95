/**
 * The browser example of planRouteAsync (examples/plan-in-browser) in Chromium: a field is planned
 * in a Web Worker while the page's 50 ms clock keeps ticking (the main thread never freezes), and
 * Cancel ends a planning at once. Needs the packages built (`npm run build`).
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWith } from '../support/requires.js';
import { serveExample } from '../../examples/plan-in-browser/serve.js';
import { launchBrowser, watchErrors } from './support/browser.js';

describeWith(['chromium'], 'planning in a Web Worker (browser)', () => {
  vi.setConfig({ testTimeout: 120_000 });
  let browser: Browser;
  let server: Server;
  let url = '';

  beforeAll(async () => {
    ({ url, server } = await serveExample(0, mkdtempSync(join(tmpdir(), 'furrow-plan-in-browser-'))));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('plans the field with the page clock ticking throughout', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(url);
    await page.click('#plan');
    await page.waitForFunction(
      () =>
        document.getElementById('result')?.dataset.state !== 'planning' &&
        document.getElementById('result')?.dataset.planMs !== undefined,
      undefined,
      { timeout: 100_000 },
    );
    const r = await page.$eval('#result', (el) => ({ ...(el as HTMLElement).dataset, text: el.textContent }));
    expect(r.state, r.text ?? '').toBe('planned');
    const planMs = Number(r.planMs),
      ticks = Number(r.ticks),
      gap = Number(r.longestGapMs);
    // The clock ran all along: at least half the 50 ms ticks the planning's duration allows, and never a gap of a second.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(planMs / 50 / 2));
    expect(gap).toBeLessThan(1000);
    const stages = await page.$$eval('#stages li', (lis) => lis.map((li) => li.textContent));
    expect(stages[0]).toMatch(/^field/);
    expect(stages.some((s) => s?.startsWith('metrics'))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('cancels a planning at once', async () => {
    const page = await browser.newPage();
    await page.goto(url);
    await page.fill('#width', '3');
    await page.click('#plan');
    await page.waitForSelector('#stages li');
    await page.click('#cancel');
    await page.waitForFunction(() => document.getElementById('result')?.dataset.state === 'cancelled', undefined, {
      timeout: 5_000,
    });
  });
});
