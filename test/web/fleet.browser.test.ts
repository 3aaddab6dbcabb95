/**
 * Machines in the field, in Chromium on the real server (`serve` with `mountWebApp`, in-memory store,
 * the real planner in-process): a partner provisions a farmer with a corpus field (at-ref-003); the
 * farmer plans it for 2 machines from the plan view. Each machine's route is drawn in its own colour,
 * the legend lists both; the time slider moves one marker per machine, and each marker stays on its own
 * machine's route, on the piece that machine drives at that moment (read from the server's fleet
 * GeoJSON, not from the app). axe-core: no serious or critical violation. Screenshot: fleet-01-*.png.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serve, type RunningServer } from '@furrow/api';
import { mountWebApp } from '@furrow/web';
import { describeWith } from '../support/requires.js';
// @ts-expect-error plain JavaScript build script
import { buildWebApp } from '../../packages/web/build.mjs';
import { axeSeriousOrCritical, launchBrowser, screenshot, watchErrors } from './support/browser.js';
import { memoryServerEnv } from '../support/server-env.js';

const ADMIN_KEY = 'furrow_fleet_web_bootstrap_key_0123456789abcdef';
const PARTNER_USER = 'farmer-fleet-01';
const PARTNER_COMPANY = 'farm-co-fleet-01';
type Position = [number, number];
const corpus = (id: string) =>
  JSON.parse(readFileSync(new URL(`../fields/${id}.geojson`, import.meta.url), 'utf8')) as {
    geometry: { type: 'Polygon'; coordinates: Position[][] };
  };
// at-ref-003: no waits; be-vlg-038: m2 waits once inside its route; be-vlg-081: the plan warns (narrow, unworked).
const FIELDS = ['at-ref-003', 'be-vlg-038', 'be-vlg-081'] as const;

interface RouteFeature {
  properties: {
    type: string;
    machineId?: string;
    startSeconds?: number;
    endSeconds?: number;
    durationSeconds?: number;
    code?: string;
  };
  geometry: { type: string; coordinates: unknown };
}

interface FleetGeoJson {
  features: RouteFeature[];
  fleet: { makespanSeconds: number };
  warnings: { code: string; message: string }[];
}

/** Distance in meters from p to the segment a-b (local equirectangular frame at p). */
function toSegmentMeters(p: Position, a: Position, b: Position): number {
  const k = Math.cos((p[1] * Math.PI) / 180) * 111_320;
  const [ax, ay, bx, by] = [(a[0] - p[0]) * k, (a[1] - p[1]) * 110_574, (b[0] - p[0]) * k, (b[1] - p[1]) * 110_574];
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const u = len2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2)) : 0;
  return Math.hypot(ax + u * dx, ay + u * dy);
}

function toLinesMeters(p: Position, features: RouteFeature[]): number {
  let best = Infinity;
  for (const f of features) {
    const line = f.geometry.coordinates as Position[];
    for (let i = 1; i < line.length; i++) best = Math.min(best, toSegmentMeters(p, line[i - 1], line[i]));
  }
  return best;
}

describeWith(['chromium'], 'machines in the field in the web app (browser, real server)', () => {
  vi.setConfig({ testTimeout: 240_000 });
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[] = [];
  const boundaryIds: Record<string, string> = {};

  async function partnerCall<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'X-API-KEY': ADMIN_KEY, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    await buildWebApp();
    server = await serve(memoryServerEnv(ADMIN_KEY), { web: mountWebApp, out: () => undefined });
    await partnerCall('POST', '/api/partner/users', {
      partnerUserId: PARTNER_USER,
      firstName: 'Flo',
      lastName: 'Flotte',
      email: 'flo@example.org',
    });
    const company = await partnerCall<{ companyId: string }>('POST', '/api/partner/companies', {
      partnerCompanyId: PARTNER_COMPANY,
      name: 'Flotte KG',
      countryCode: 'AT',
    });
    await partnerCall('POST', '/api/partner/company-accesses', {
      partnerUserId: PARTNER_USER,
      partnerCompanyId: PARTNER_COMPANY,
    });
    await partnerCall('POST', '/api/partner/credits', { partnerCompanyId: PARTNER_COMPANY, credits: 10 });
    const grower = await partnerCall<{ growerId: string }>('POST', `/api/companies/${company.companyId}/growers`, {
      name: 'Flotte',
    });
    const farm = await partnerCall<{ farmId: string }>('POST', `/api/growers/${grower.growerId}/farms`, {
      name: 'Hof Flotte',
    });
    for (const id of FIELDS) {
      const field = await partnerCall<{ vBoundary: { boundaryId: string } }>('POST', '/api/fields/save', {
        farmId: farm.farmId,
        name: id,
        boundary: corpus(id).geometry.coordinates,
      });
      boundaryIds[id] = field.vBoundary.boundaryId;
    }
    browser = await launchBrowser();
    // axe-core is injected as a script: the suite's context bypasses the page CSP for that only.
    context = await browser.newContext({ viewport: { width: 1366, height: 860 }, bypassCSP: true });
    page = await context.newPage();
    errors = watchErrors(page);
    // The prompt before leaving an unsaved plan: this user means to leave.
    page.on('dialog', (d) => void d.accept());
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  /** Each machine's marker position and state, and the slider's time. */
  async function markers(): Promise<{ seconds: number; at: Record<string, { p: Position; state: string }> }> {
    return page.evaluate(() => {
      const at: Record<string, { p: [number, number]; state: string }> = {};
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('.fleet-marker[data-machine-id]'))) {
        const [lon, lat] = (el.dataset.lonlat ?? '').split(',').map(Number);
        at[el.dataset.machineId!] = { p: [lon, lat], state: el.dataset.state ?? '' };
      }
      const seconds = Number(document.querySelector<HTMLElement>('[data-testid=fleet-view]')?.dataset.seconds);
      return { seconds, at };
    });
  }

  async function slideTo(share: number): Promise<void> {
    await page.locator('#fleet-slider').evaluate((el: HTMLInputElement, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, share * 1000);
  }

  /** Opens a field's plan view (launching the first time), plans it for 2 machines; the server's fleet GeoJSON. */
  async function planTwo(id: string, launch: boolean): Promise<FleetGeoJson> {
    const path = `/path-planning/boundary/${boundaryIds[id]}`;
    if (launch) {
      const res = await partnerCall<{ launchUrl: string }>('POST', '/api/partner/launch', {
        userId: PARTNER_USER,
        returnUrl: path,
      });
      await page.goto(res.launchUrl);
    } else await page.goto(`${server.url}${path}`);
    await page.waitForFunction(() => document.getElementById('page')?.dataset.state === 'planned', undefined, {
      timeout: 120_000,
    });
    await page.selectOption('#fleet-count', '2');
    const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/path-plans/fleet/geojson');
    await page.click('[data-testid=fleet-plan]');
    const res = await response;
    expect(res.status()).toBe(200);
    expect(new URL(res.url()).searchParams.get('boundaryId')).toBe(boundaryIds[id]);
    const request = res.request().postDataJSON() as { fleet: { id: string; widthMeters: number }[] };
    expect(request.fleet.map((m) => m.id)).toEqual(['m1', 'm2']);
    await page.waitForFunction(() => {
      const s = document.querySelector<HTMLElement>('[data-testid=fleet-panel]')?.dataset.state;
      return s === 'planned' || s === 'error';
    });
    expect(await page.locator('[data-testid=fleet-panel]').getAttribute('data-state')).toBe('planned');
    return (await res.json()) as FleetGeoJson;
  }

  it('plans the field for 2 machines, draws them in two colours and moves them along their own routes', async () => {
    const fc = await planTwo('at-ref-003', true);
    const routeOf = (id: string) =>
      fc.features.filter((f) => f.properties.machineId === id && f.geometry.type === 'LineString');
    expect(routeOf('m1').length).toBeGreaterThan(0);
    expect(routeOf('m2').length).toBeGreaterThan(0);

    // Two colours, one per machine; the single plan's route has stepped aside.
    const strokes = await page.evaluate(() => {
      const of = (i: number) =>
        new Set(
          Array.from(document.querySelectorAll(`[data-layer=fleet] path.fleet-machine-${i}`)).map((p) =>
            p.getAttribute('stroke'),
          ),
        );
      return [[...of(1)], [...of(2)]];
    });
    expect(strokes[0]).toHaveLength(1);
    expect(strokes[1]).toHaveLength(1);
    expect(strokes[0][0]).not.toBe(strokes[1][0]);
    for (const hidden of ['.furrow-layer[data-layer=tracks]', '.furrow-layer[data-layer=turns]', '.uncovered-canvas'])
      expect(await page.locator(hidden).isVisible(), hidden).toBe(false);
    expect(await page.locator('[data-testid=fleet-legend] tbody tr').count()).toBe(2);
    expect(await page.locator('[data-testid=fleet-figures]').textContent()).toMatch(/makespan.*Lower bound.*Gap/s);

    // The slider moves each marker, and each stays on its own route, on the piece it drives at that moment.
    const seen: Record<string, Position[]> = { m1: [], m2: [] };
    for (const share of [0, 0.3, 0.65, 0.95]) {
      await slideTo(share);
      const { seconds, at } = await markers();
      expect(seconds).toBeCloseTo(share * fc.fleet.makespanSeconds, 1);
      for (const id of ['m1', 'm2']) {
        const own = routeOf(id);
        const m = at[id];
        expect(m, id).toBeDefined();
        seen[id].push(m.p);
        expect(toLinesMeters(m.p, own), `${id} at ${seconds} s is on its route`).toBeLessThan(0.05);
        // The pieces it drives now (or, waiting, the one it finished last; before it starts, its first).
        const now = own.filter(
          (f) => f.properties.startSeconds! - 0.01 <= seconds && seconds <= f.properties.endSeconds! + 0.01,
        );
        const last = own.filter((f) => f.properties.endSeconds! <= seconds).slice(-1);
        const pieces = now.length > 0 ? now : last.length > 0 ? last : own.slice(0, 1);
        expect(toLinesMeters(m.p, pieces), `${id} at ${seconds} s (${m.state})`).toBeLessThan(0.05);
      }
    }
    for (const id of ['m1', 'm2']) {
      const distinct = new Set(seen[id].map((p) => p.join(',')));
      expect(distinct.size, `${id} moved`).toBeGreaterThanOrEqual(3);
    }
    await slideTo(0.4);
    await screenshot(page, 'fleet-01-two-machines');
    expect(await axeSeriousOrCritical(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a waiting machine stands still where the plan says, and its wait is in the legend', async () => {
    const fc = await planTwo('be-vlg-038', false);
    const waits = fc.features.filter((f) => f.properties.type === 'Wait' && f.properties.durationSeconds! > 1);
    expect(waits.length).toBeGreaterThan(0);
    const wait = waits[0];
    const id = wait.properties.machineId!;
    const count = fc.features.filter((f) => f.properties.type === 'Wait' && f.properties.machineId === id).length;
    expect(await page.locator(`[data-testid=fleet-legend] tr[data-machine-id=${id}] td`).nth(1).textContent()).toMatch(
      new RegExp(`^${count} \\(`),
    );
    const { startSeconds, durationSeconds } = wait.properties as { startSeconds: number; durationSeconds: number };
    const standing: Position[] = [];
    for (const part of [0.25, 0.75]) {
      await slideTo((startSeconds + part * durationSeconds) / fc.fleet.makespanSeconds);
      const m = (await markers()).at[id];
      expect(m.state).toBe('waiting');
      standing.push(m.p);
      expect(
        toSegmentMeters(m.p, wait.geometry.coordinates as Position, wait.geometry.coordinates as Position),
      ).toBeLessThan(0.05);
    }
    expect(standing[0]).toEqual(standing[1]);
    await screenshot(page, 'fleet-02-waiting');
    expect(errors).toEqual([]);
  });

  it("shows the fleet's warnings as the plan's are shown", async () => {
    const fc = await planTwo('be-vlg-081', false);
    const codes = [...new Set(fc.warnings.map((w) => w.code))].sort();
    expect(codes.length).toBeGreaterThan(0);
    await page.locator('[data-testid=fleet-warnings]').waitFor({ state: 'visible' });
    const shown = await page
      .locator('[data-testid=fleet-warnings] li')
      .evaluateAll((li) => li.map((l) => l.getAttribute('data-code')));
    expect([...new Set(shown)].sort()).toEqual(codes);
    expect(await page.locator('[data-testid=fleet-warnings] .warning-title').first().textContent()).not.toMatch(/-/);
    await screenshot(page, 'fleet-03-warnings');
    expect(await axeSeriousOrCritical(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
