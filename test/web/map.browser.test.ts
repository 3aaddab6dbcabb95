/**
 * The map in a real browser on the real server (in-memory store, real planner) with a basemap
 * from a tile server this suite starts on loopback: imagery under the field (a screenshot checked
 * for tile pixels), the CSP allowing exactly the tile origin, attribution; then reading the route:
 * direction arrows with pass numbers, the heading in words, playback with its clock, uncovered
 * ground as patches (warnings in words that zoom to their place: farm.browser.test.ts, on a narrow strip).
 * Screenshots go to test-results/web/map-*.png.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serve, type RunningServer } from '@furrow/api';
import { createWebMount } from '@furrow/web';
import { describeWith } from '../support/requires.js';
// @ts-expect-error plain JavaScript build script
import { buildWebApp } from '../../packages/web/build.mjs';
import { startPartnerEmbed, type PartnerEmbed } from '../../examples/partner-embed/server.js';
import { launchBrowser, screenshot, watchErrors } from './support/browser.js';
import { startTileServer, tilePixelShare, tilePng, type TileServer } from './support/tile-server.js';
import { pmtilesOfArea } from '../../packages/web/src/__fixtures__/pmtiles-writer.js';
import { memoryServerEnv } from '../support/server-env.js';

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

  /** A launch link into field `id` (the suite's field by default) of the server at `baseUrl` (the suite's by default). */
  async function launchUrl(baseUrl = server.url, id = boundaryId): Promise<string> {
    const res = await fetch(`${baseUrl}/api/partner/launch`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: PARTNER_USER, returnUrl: `${baseUrl}/path-planning/boundary/${id}` }),
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
      memoryServerEnv(ADMIN_KEY, {
        // Planning on a worker thread, as the server does by default (one: the machine has 2 cores): the
        // thread is warmed at start, and a launch into a field never planned plans it ahead (plan-ahead.ts).
        FURROW_PLAN_THREADS: '1',
      }),
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

  it('shows imagery from the configured tiles under the field, allowed by the CSP, with attribution', async () => {
    const { page, errors } = await newPage();
    // The launch opens the plan view in its own document: that document's CSP is the one in force.
    const response = page.waitForResponse((r) => r.request().isNavigationRequest());
    await page.goto(await launchUrl());
    const csp = (await response).headers()['content-security-policy'] ?? '';
    const imgSrc = csp.split(';').find((d) => d.trim().startsWith('img-src'))!;
    expect(imgSrc.trim().split(/\s+/)).toEqual(['img-src', "'self'", 'data:', 'blob:', tiles.url]);
    expect(csp).toContain("connect-src 'self'");
    await planned(page);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLImageElement>('.basemap-tiles img')].filter((i) => i.complete).length >= 4,
      undefined,
      { timeout: 30_000 },
    );
    expect(tiles.requests.filter((r) => r.startsWith('/tiles/')).length).toBeGreaterThanOrEqual(4);
    expect(await page.locator('.leaflet-control-attribution').textContent()).toContain(ATTRIBUTION);

    const map = page.locator('[data-testid=map]');
    const box = (await map.boundingBox())!;
    const shot = await page.screenshot({ clip: box });
    expect(tilePixelShare(shot)).toBeGreaterThan(0.05);
    // Under the field: the tiles show through the boundary's light tint (red channel low, unlike
    // the plain background's). The pass numbers run through the field's middle: hidden for this.
    await page.uncheck('#layer-direction');
    const inner = await page.screenshot({
      clip: { x: box.x + box.width / 2 - 20, y: box.y + box.height / 2 - 20, width: 40, height: 40 },
    });
    await page.check('#layer-direction');
    expect(tilePixelShare(inner, 60)).toBeGreaterThan(0.5);
    await screenshot(page, 'map-01-imagery-under-field');
    expect(errors).toEqual([]);
  });

  it('takes a WMTS basemap: the tiles of the field asked for by matrix, row and column', async () => {
    // A second server whose basemap is the WMTS template of the same loopback tiles.
    const wmtsServer = await serve(memoryServerEnv(ADMIN_KEY), {
      web: createWebMount({ basemap: { urlTemplate: tiles.wmtsTemplate, attribution: ATTRIBUTION } }),
      out: () => undefined,
    });
    const embed = await startPartnerEmbed({
      furrowUrl: wmtsServer.url,
      adminKey: ADMIN_KEY,
      partnerUserId: PARTNER_USER,
    });
    try {
      const { boundaryId: id } = await embed.provisioned();
      const { page, errors } = await newPage();
      await page.goto(await launchUrl(wmtsServer.url, id));
      await planned(page);
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('.basemap-tiles img')].filter((i) => i.complete).length >= 4,
        undefined,
        { timeout: 30_000 },
      );
      const box = (await page.locator('[data-testid=map]').boundingBox())!;
      expect(tilePixelShare(await page.screenshot({ clip: box }))).toBeGreaterThan(0.05);
      // The tile under the field's centre (Web Mercator, x = column, y = row) was among those asked for.
      const centre = (await page.locator('[data-testid=map]').getAttribute('data-view-center')) ?? '';
      const asked = tiles.requests
        .map((r) => /^\/wmts\/ortho\/default\/GoogleMapsCompatible\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(r))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ z: Number(m[1]), row: Number(m[2]), col: Number(m[3]) }));
      expect(asked.length).toBeGreaterThanOrEqual(4);
      const [lon, lat] = centre.split(',').map(Number);
      const z = asked[asked.length - 1].z;
      const n = 2 ** z;
      const col = Math.floor(((lon + 180) / 360) * n);
      const rad = (lat * Math.PI) / 180;
      const row = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
      expect(asked).toContainEqual({ z, row, col });
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await embed.close();
      await wmtsServer.close();
    }
  });

  it('serves a local PMTiles basemap itself: tiles from the file under the field, images from its own origin only', async () => {
    // An archive of the test's PNG tile over the partner example's field and ~1.4 km round it, zooms 0-18.
    const field = JSON.parse(
      readFileSync(new URL('../../examples/partner-embed/field.geojson', import.meta.url), 'utf8'),
    ) as { geometry: { coordinates: number[][][] } };
    const ring = field.geometry.coordinates[0];
    const lons = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    const area: [number, number, number, number] = [
      Math.min(...lons) - 0.02,
      Math.min(...lats) - 0.012,
      Math.max(...lons) + 0.02,
      Math.max(...lats) + 0.012,
    ];
    const dir = mkdtempSync(join(tmpdir(), 'furrow-pmtiles-'));
    const file = join(dir, 'farm.pmtiles');
    writeFileSync(file, pmtilesOfArea(tilePng(), area, 0, 18));
    const attribution = 'Farm orthophoto © furrow suite';
    const local = await serve(memoryServerEnv(ADMIN_KEY), {
      web: createWebMount({ basemap: { pmtilesFile: file, attribution } }),
      out: () => undefined,
    });
    const embed = await startPartnerEmbed({ furrowUrl: local.url, adminKey: ADMIN_KEY, partnerUserId: PARTNER_USER });
    const loopbackAsked = tiles.requests.length;
    try {
      const { boundaryId: id } = await embed.provisioned();
      const url = await launchUrl(local.url, id);
      const { page, errors } = await newPage();
      const images: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'image') images.push(r.url());
      });
      const navigation = page.waitForResponse((r) => r.request().isNavigationRequest());
      await page.goto(url);
      const csp = (await navigation).headers()['content-security-policy'] ?? '';
      const imgSrc = csp.split(';').find((d) => d.trim().startsWith('img-src'))!;
      expect(imgSrc.trim().split(/\s+/)).toEqual(['img-src', "'self'", 'data:', 'blob:']);
      await planned(page);
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('.basemap-tiles img')].filter(
            (i) => i.complete && i.naturalWidth > 0,
          ).length >= 4,
        undefined,
        { timeout: 30_000 },
      );
      const tileUrls = images.filter((u) => u.startsWith(`${local.url}/tiles/`));
      expect(tileUrls.length).toBeGreaterThanOrEqual(4);
      expect(tileUrls.every((u) => /\/tiles\/\d+\/\d+\/\d+\.png$/.test(u))).toBe(true);
      expect(images.filter((u) => !u.startsWith(local.url) && !u.startsWith('data:'))).toEqual([]);
      expect(tiles.requests.length).toBe(loopbackAsked); // nothing from the loopback tile server
      expect(await page.locator('.leaflet-control-attribution').textContent()).toContain(attribution);

      const box = (await page.locator('[data-testid=map]').boundingBox())!;
      expect(tilePixelShare(await page.screenshot({ clip: box }))).toBeGreaterThan(0.05);
      // Under the field: the archive's tiles through the boundary's tint (as with the loopback imagery).
      await page.uncheck('#layer-direction');
      const inner = await page.screenshot({
        clip: { x: box.x + box.width / 2 - 20, y: box.y + box.height / 2 - 20, width: 40, height: 40 },
      });
      await page.check('#layer-direction');
      expect(tilePixelShare(inner, 60)).toBeGreaterThan(0.5);
      await screenshot(page, 'map-04-local-pmtiles-under-field');
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await embed.close();
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws the plan of be-wal-000 from the launch link (budget 1.5 s, docs/benchmarks/web.md)', async () => {
    // Each launch is a fresh browser context: the page loads, exchanges the code, gets the field
    // with the exchange's answer and the plan from the server (the real planner; issuing the code
    // started that plan), then draws it. The median of 3 counts. Where the time goes is read from
    // the page's own timeline (the launch opens the plan view in the same document): ms from
    // navigation start to the end of each step. Also printed: the link to the plan painted on the
    // page's own clock (its furrow:plan-painted mark), without the test's polling for it.
    const times: number[] = [];
    const paintedTimes: number[] = [];
    const steps: string[] = [];
    // FURROW_LAUNCHES: more launches for a steadier median on a loaded machine (docs/benchmarks/web.md).
    const launches = Math.max(3, Number(process.env['FURROW_LAUNCHES'] ?? '3') || 3);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    // The drawn route is waited for with a plain DevTools evaluation (a check per frame; done after the frame
    // that has it is painted: a task after its animation frame), not Playwright's waits: those first inject
    // Playwright's script into the new page (~0.1 s of its thread, at the load event), which lands in the
    // middle of a launch whose bundle runs after that event.
    const drawn =
      'new Promise((done) => { const check = () => ' +
      "document.getElementById('page')?.dataset.state === 'planned' && " +
      "document.querySelector('.furrow-layer[data-layer=tracks] path') ? setTimeout(() => done(true), 0) : " +
      'requestAnimationFrame(check); requestAnimationFrame(check); })';
    for (let i = 0; i < launches; i++) {
      const { page, errors } = await newPage();
      const cdp = await page.context().newCDPSession(page);
      const url = await launchUrl();
      const t0 = Date.now();
      await page.goto(url, { waitUntil: 'commit' });
      const seen = await cdp.send('Runtime.evaluate', { expression: drawn, awaitPromise: true, timeout: 60_000 });
      times.push(Date.now() - t0);
      expect(seen.result.value).toBe(true);
      await planned(page);
      const painted = await page.evaluate(
        () => performance.timeOrigin + (performance.getEntriesByName('furrow:plan-painted')[0]?.startTime ?? NaN),
      );
      paintedTimes.push(Math.round(painted - t0));
      steps.push(
        await page.evaluate(() => {
          const r = (part: string) => performance.getEntriesByType('resource').find((e) => e.name.includes(part));
          const ms = (v: number | undefined) => (v === undefined ? '?' : String(Math.round(v)));
          const js = r('/app-assets/app-') as PerformanceResourceTiming | undefined;
          const exchange = r('/launch/exchange');
          const boundary = r('/api/boundaries/');
          const plan = r('/api/path-plans/direct/geojson') as PerformanceResourceTiming | undefined;
          // The server's own split of the plan request (Server-Timing: wait, plan, render).
          const server = (plan?.serverTiming ?? []).map((t) => `${t.name} ${Math.round(t.duration)}`).join(', ');
          const mark = (name: string) => ms(performance.getEntriesByName(name)[0]?.startTime);
          return (
            `js ${ms(js?.responseEnd)}, app run ${mark('furrow:app-run')}, exchange ${ms(exchange?.startTime)}-${ms(exchange?.responseEnd)}, ` +
            `boundary ${ms(boundary?.responseEnd)}, plan ${ms(plan?.startTime)}-${ms(plan?.responseEnd)} ` +
            `(${plan?.encodedBodySize ?? '?'} B; server: ${server || '?'}), field shown ${mark('furrow:field-shown')}, received ${mark('furrow:plan-received')}, ` +
            `shown ${mark('furrow:plan-shown')}, painted ${mark('furrow:plan-painted')}, drawn ${ms(performance.now())}`
          );
        }),
      );
      expect(errors).toEqual([]);
      await page.context().close();
    }
    process.stderr.write(
      `[furrow] launch link to plan drawn (be-wal-000): ${times.join(', ')} ms (median ` +
        `${median(times)}); load average ${loadavg()[0].toFixed(1)}\n` +
        `[furrow] link to plan painted, on the page's clock: ${paintedTimes.join(', ')} ms (median ` +
        `${median(paintedTimes)})\n` +
        steps.map((s, i) => `[furrow]   launch ${i + 1}: ${s}\n`).join(''),
    );
    // The budget (1.5 s) is recorded in docs/benchmarks/web.md with the machine's load; this bound
    // only catches a regression by an order of magnitude on a shared runner.
    expect(median(times)).toBeLessThanOrEqual(20_000);
  });

  it('draws direction arrows with pass numbers, the heading in words, and plays the route back', async () => {
    const { page, errors } = await newPage();
    await page.goto(await launchUrl());
    await planned(page);
    const arrows = page.locator('.furrow-layer[data-layer=direction] .pass-arrow');
    const trackArrows = await page.locator('.pass-arrow.track .num').allTextContents();
    const tracks = await page.locator('.furrow-layer[data-layer=tracks] path').count();
    expect(trackArrows.length).toBeGreaterThan(3);
    // One arrow per track (tracks are numbered 1..n in driving order).
    expect(trackArrows.map(Number)).toEqual(Array.from({ length: trackArrows.length }, (_, i) => i + 1));
    expect(trackArrows.length).toBe(tracks);
    expect(await arrows.count()).toBeGreaterThanOrEqual(trackArrows.length);
    expect(await page.locator('[data-testid=heading-words]').textContent()).toMatch(
      /^Tracks run (north|east|south|west)[a-z-]* to (north|east|south|west)[a-z-]* \(bearing \d+°\)\.$/,
    );

    // Playback: the clock reads 0 of the plan's time; moving the slider moves the machine.
    const clock = page.locator('[data-testid=playback-clock]');
    expect(await clock.textContent()).toMatch(/^0:00 \/ \d+:\d\d(:\d\d)?$/);
    const slider = page.locator('[data-testid=playback-slider]');
    await slider.fill('250');
    const at250 = await page.locator('[data-testid=map]').getAttribute('data-machine');
    const clock250 = await clock.textContent();
    await slider.fill('700');
    const at700 = await page.locator('[data-testid=map]').getAttribute('data-machine');
    expect(at250).toMatch(/^-?\d+\.\d+,-?\d+\.\d+$/);
    expect(at700).not.toBe(at250);
    expect(await clock.textContent()).not.toBe(clock250);
    expect(await page.locator('.machine-marker').count()).toBe(1);
    expect(await page.locator('[data-testid=playback-doing]').textContent()).toMatch(/^(Working|Turning|Driving)/);
    // Play advances the clock by itself.
    const before = await clock.textContent();
    await page.click('[data-testid=playback-play]');
    await page.waitForFunction(
      (c) => document.querySelector('[data-testid=playback-clock]')?.textContent !== c,
      before,
      { timeout: 10_000 },
    );
    await page.click('[data-testid=playback-play]');
    await screenshot(page, 'map-02-arrows-and-playback');
    expect(errors).toEqual([]);
  });

  it('pans a plan of 10,000+ route pieces smoothly (canvas layers; frame gaps while dragging)', async () => {
    const { page, errors } = await newPage();
    await page.goto(await launchUrl());
    await planned(page);
    // The re-plan's answer: the server's plan of the field with its route repeated (each copy 0.15 m further
    // east, numbered on) to 10,000+ pieces. Drawing is what this measures, not planning.
    type Piece = { geometry: { type: string; coordinates: number[][] }; properties: Record<string, unknown> };
    const routeTypes = ['Track', 'ExteriorHeadland', 'InteriorHeadland', 'Turn', 'Connector'];
    let pieces = 0;
    await page.route(/\/api\/path-plans\/direct\/geojson/, async (route) => {
      const plan = (await (await route.fetch()).json()) as { features: Piece[] };
      const isRoute = (f: Piece) => routeTypes.includes(String(f.properties?.['type']));
      const one = plan.features.filter(isRoute);
      const copies = Math.ceil(10_000 / one.length);
      const repeated: Piece[] = [];
      for (let k = 0; k < copies; k++) {
        for (const f of one) {
          const shift = (p: number[]) => [p[0] + k * 2e-6, ...p.slice(1)];
          const coordinates =
            f.geometry.type === 'LineString' ? f.geometry.coordinates.map(shift) : f.geometry.coordinates;
          const sequence = k * one.length + Number(f.properties['sequence'] ?? 0);
          repeated.push({ ...f, geometry: { ...f.geometry, coordinates }, properties: { ...f.properties, sequence } });
        }
      }
      pieces = repeated.length;
      const body = JSON.stringify({ ...plan, features: [...plan.features.filter((f) => !isRoute(f)), ...repeated] });
      await route.fulfill({ status: 200, contentType: 'application/json', body });
    });
    await page.click('[data-testid=replan]');
    await planned(page, 2);
    expect(pieces).toBeGreaterThanOrEqual(10_000);
    const map = page.locator('[data-testid=map]');
    // Above CANVAS_ROUTE_FEATURES the route layers are canvases: a pan moves them, nothing is drawn again.
    expect(await map.getAttribute('data-renderer')).toBe('canvas');
    expect(await page.locator('.furrow-layer[data-layer=tracks] canvas').count()).toBe(1);
    await page.waitForTimeout(1_000); // the post-plan work (arrows, uncovered ground, side requests) settles

    // Drag the map 320 px in 32 steps, then, the field fitted again, 0.6 × the map's width: the route and the field
    // are wholly drawn at this zoom, so neither pan draws them again. Zoomed in 3.4×, the same 0.6 × draws again.
    const box = (await map.boundingBox())!;
    const centre0 = await map.getAttribute('data-view-center');
    const near = await dragMeasuringFrames(page, box.x + box.width / 2, box.y + box.height / 2, -10, -5, 32);
    expect(await map.getAttribute('data-view-center')).not.toBe(centre0);
    await page.click('.zoom-fit');
    await page.waitForTimeout(1_000);
    const far = await dragMeasuringFrames(page, box.x + box.width * 0.2, box.y + box.height / 2, box.width / 50, 0, 30);
    await page.click('.zoom-fit');
    for (let i = 0; i < 3; i++) await page.click('.zoom-in');
    await page.waitForTimeout(1_000);
    const tracksAt = await page.locator('.furrow-layer[data-layer=tracks] canvas').evaluate((c) => c.style.transform);
    const zoomed = await dragMeasuringFrames(
      page,
      box.x + box.width * 0.2,
      box.y + box.height / 2,
      box.width / 50,
      0,
      30,
    );
    // (the tracks' canvas was drawn again: it moved)
    expect(await page.locator('.furrow-layer[data-layer=tracks] canvas').evaluate((c) => c.style.transform)).not.toBe(
      tracksAt,
    );
    const load = loadavg()[0].toFixed(1);
    for (const [name, m] of [
      ['320 px', near],
      [`${Math.round(box.width * 0.6)} px`, far],
      [`${Math.round(box.width * 0.6)} px zoomed in 3.4×`, zoomed],
    ] as const) {
      process.stderr.write(
        `[furrow] pan of ${pieces} route pieces by ${name}: ${m.gaps.length} frames while dragging, gap median ` +
          `${m.at(0.5).toFixed(1)} ms, p90 ${m.at(0.9).toFixed(1)} ms, max ${m.at(1).toFixed(1)} ms; ` +
          `longest gap after release ${m.release.toFixed(1)} ms; load average ${load}\n`,
      );
    }
    for (const m of [near, far, zoomed]) {
      expect(m.gaps.length).toBeGreaterThanOrEqual(10);
      // Smooth while dragging: most frames come at the display's pace; the bounds leave room for a shared machine
      // (p90 83 ms seen at load 11).
      expect(m.at(0.5)).toBeLessThanOrEqual(50);
      expect(m.at(0.9)).toBeLessThanOrEqual(150);
    }
    // Responsive when the drag ends (docs/benchmarks/web.md): at the fitted zoom nothing is drawn again; Leaflet's
    // canvases and the uncovered layer, drawn again after every pan, took 0.5–1.5 s here. Zoomed in, the redraw (one
    // stroke per layer) is printed, not bounded.
    expect(near.release).toBeLessThanOrEqual(250);
    expect(far.release).toBeLessThanOrEqual(250);

    // A pan at the fitted zoom that draws nothing leaves the view partly off the canvas; a re-plan (the view kept)
    // places the canvases over the view again before drawing the new plan.
    await page.click('.zoom-fit');
    await page.waitForTimeout(500);
    await dragMeasuringFrames(page, box.x + box.width * 0.2, box.y + box.height / 2, box.width / 50, 0, 30);
    const tracks = page.locator('.furrow-layer[data-layer=tracks] canvas');
    const covers = async () => {
      const c = (await tracks.boundingBox())!;
      return c.x <= box.x && c.y <= box.y && c.x + c.width >= box.x + box.width && c.y + c.height >= box.y + box.height;
    };
    expect(await covers()).toBe(false);
    await page.click('[data-testid=replan]');
    await planned(page, 3);
    await page.waitForTimeout(500);
    expect(await covers()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('draws uncovered ground as patches', async () => {
    const { page, errors } = await newPage();
    await page.goto(await launchUrl());
    await planned(page);
    await replan(page, 12, 9);
    const uncoveredText = await page.locator('[data-metric=uncoveredSquareMeters] td.value').textContent();
    // (counted once the browser has painted the canvas)
    await page.locator('.uncovered-canvas[data-uncovered-pixels]').waitFor({ state: 'attached' });
    const pixels = Number(await page.locator('.uncovered-canvas').getAttribute('data-uncovered-pixels'));
    expect(uncoveredText).toMatch(/\d/);
    // The planner reports uncovered ground at 12 m: the map shows it as patches.
    expect(pixels).toBeGreaterThan(0);
    expect(await page.locator('label[for=layer-uncovered] .count').textContent()).toMatch(/m²|ha/);
    await screenshot(page, 'map-03-uncovered-patches');

    expect(errors).toEqual([]);
  });
});

/**
 * Drags the map from (x0, y0) by `steps` mouse moves of (dx, dy) px while the page records its animation frames:
 * the gaps between frames while dragging (`at(q)`: the q-quantile), and the longest gap in the 2 s after release.
 */
async function dragMeasuringFrames(page: Page, x0: number, y0: number, dx: number, dy: number, steps: number) {
  await page.evaluate(() => {
    const w = window as unknown as { furrowFrames: number[]; furrowRecording: boolean };
    w.furrowFrames = [];
    w.furrowRecording = true;
    const tick = (t: number) => {
      w.furrowFrames.push(t);
      if (w.furrowRecording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) await page.mouse.move(x0 + dx * i, y0 + dy * i);
  const dragEnd = await page.evaluate(() => performance.now());
  await page.mouse.up();
  await page.waitForTimeout(2_000);
  const frames = await page.evaluate(() => {
    const w = window as unknown as { furrowFrames: number[]; furrowRecording: boolean };
    w.furrowRecording = false;
    return w.furrowFrames;
  });
  const during = frames.filter((t) => t <= dragEnd);
  const gaps = during.slice(1).map((t, i) => t - during[i]);
  const sorted = [...gaps].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  // From the last frame of the drag: a redraw run by the release itself may come before any later frame.
  const after = frames.slice(Math.max(0, during.length - 1));
  const release = after.length > 1 ? Math.max(...after.slice(1).map((t, i) => t - after[i])) : NaN;
  return { gaps, at, release };
}
