/**
 * The map in a real browser on the real server (in-memory store, real planner) with a basemap
 * from a tile server this suite starts on loopback: imagery under the field (a screenshot checked
 * for tile pixels), the CSP allowing exactly the tile origin, attribution; then reading the route:
 * direction arrows with pass numbers, the heading in words, playback with its clock, uncovered
 * ground as patches, warnings that zoom to their place. Screenshots go to test-results/web/map-*.png.
 */
import { loadavg } from 'node:os';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serve, type RunningServer } from '@furrow/api';
import { createWebMount } from '@furrow/web';
import { describeWith } from '../support/requires.js';
// @ts-expect-error plain JavaScript build script
import { buildWebApp } from '../../packages/web/build.mjs';
import { startPartnerEmbed, type PartnerEmbed } from '../../examples/partner-embed/server.js';
import { launchBrowser, screenshot, watchErrors } from './support/browser.js';
import { startTileServer, tilePixelShare, type TileServer } from './support/tile-server.js';

const ADMIN_KEY = 'furrow_map_web_bootstrap_key_0123456789abcdef';
const PARTNER_USER = '7d2e9b1c-4a6f-4e3d-8b72-1f3e5c8d9a01';
const ATTRIBUTION = 'Test imagery © furrow suite';

describeWith(['chromium'], 'web map on the real server with a loopback basemap (browser)', () => {
  vi.setConfig({ testTimeout: 120_000 });
  let server: RunningServer;
  let partner: PartnerEmbed;
  let tiles: TileServer;
  let browser: Browser;
  let boundaryId = '';
  const contexts: BrowserContext[] = [];

  async function newPage(viewport = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
    const ctx = await browser.newContext({ viewport });
    contexts.push(ctx);
    const page = await ctx.newPage();
    return { page, errors: watchErrors(page) };
  }

  async function launchUrl(): Promise<string> {
    const res = await fetch(`${server.url}/api/partner/launch`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: PARTNER_USER, returnUrl: `${server.url}/path-planning/boundary/${boundaryId}` }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { launchUrl: string }).launchUrl;
  }

  async function planned(page: Page, count = 1): Promise<void> {
    await page.waitForFunction(
      (n) => {
        const el = document.getElementById('page');
        return el?.dataset.state === 'planned' && Number(el.dataset.planCount ?? '0') >= n;
      },
      count,
      { timeout: 60_000 },
    );
  }

  /** Re-plans with a working width and turn radius through the form. */
  async function replan(page: Page, widthMeters: number, radiusMeters: number): Promise<void> {
    const count = Number(await page.locator('#page').getAttribute('data-plan-count'));
    await page.fill('#p-widthMeters', String(widthMeters));
    await page.fill('#p-turnRadiusMeters', String(radiusMeters));
    await page.click('[data-testid=replan]');
    await planned(page, count + 1);
  }

  beforeAll(async () => {
    await buildWebApp();
    tiles = await startTileServer();
    server = await serve(
      {
        DATABASE_URL: 'memory:',
        FURROW_BOOTSTRAP_API_KEY: ADMIN_KEY,
        PORT: '0',
        HOST: '127.0.0.1',
        FURROW_PLAN_THREADS: '0',
        FURROW_LOG_LEVEL: 'silent',
      },
      {
        web: createWebMount({ basemap: { urlTemplate: tiles.template, attribution: ATTRIBUTION, maxZoom: 19 } }),
        out: () => undefined,
      },
    );
    partner = await startPartnerEmbed({ furrowUrl: server.url, adminKey: ADMIN_KEY, partnerUserId: PARTNER_USER });
    boundaryId = (await partner.provisioned()).boundaryId;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await partner?.close();
    await server?.close();
    await tiles?.close();
  });

  it('diag launch timeline', async () => {
    for (let i = 0; i < 3; i++) {
      const { page } = await newPage();
      const url = await launchUrl();
      const log: string[] = [];
      const t0 = Date.now();
      page.on('request', (r) => log.push(`${Date.now() - t0} req ${r.method()} ${r.url().replace(server.url, '').slice(0, 70)}`));
      page.on('requestfinished', (r) => log.push(`${Date.now() - t0} done ${r.url().replace(server.url, '').slice(0, 70)}`));
      page.on('domcontentloaded', () => log.push(`${Date.now() - t0} DOMContentLoaded`));
      await page.goto(url);
      await planned(page);
      log.push(`${Date.now() - t0} planned`);
      await page.locator('.furrow-layer[data-layer=tracks] path').first().waitFor();
      log.push(`${Date.now() - t0} drawn`);
      process.stderr.write(log.join('\n') + '\n----\n');
      await page.context().close();
    }
  });
});
