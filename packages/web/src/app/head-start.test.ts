import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAUNCH_WAIT_MS, PLAN_WAIT_MS, startHeadStart } from './head-start.js';

const FIELD = {
  boundaryId: 'b-1',
  fieldId: 'f-1',
  companyId: 'c-1',
  name: 'North meadow',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [8.6, 47.37],
        [8.601, 47.37],
        [8.601, 47.371],
        [8.6, 47.371],
        [8.6, 47.37],
      ],
    ],
  },
  archived: false,
  createdAt: '2026-12-07T00:00:00.000Z',
  latestPlanId: null,
};

/** Starts the head start of a launch into field b-1 against a fake API; returns the requests it made. */
async function launchWith(exchangeAnswer: Record<string, unknown>) {
  const requests: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    requests.push(`${init?.method ?? 'GET'} ${url}`);
    const body = url.includes('/launch/exchange')
      ? {
          token: 't',
          tokenType: 'Bearer',
          expiresInSec: 600,
          userId: 'u',
          returnUrl: '/path-planning/boundary/b-1',
          ...exchangeAnswer,
        }
      : url.startsWith('/api/boundaries/')
        ? FIELD
        : { type: 'FeatureCollection', features: [] };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const location = {
    pathname: '/launch',
    search: '?code=abc&userId=u&returnUrl=%2Fpath-planning%2Fboundary%2Fb-1',
    origin: 'https://furrow.example',
  } as Location;
  const history = { replaceState: vi.fn() } as unknown as History;
  const start = startHeadStart(location, history)!;
  const field = await start.field;
  await field?.plan;
  return { requests, field };
}

describe('the launch head start', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("takes the field from the exchange's answer and asks for its first plan at once (no GET of it)", async () => {
    const { requests, field } = await launchWith({ field: FIELD });
    expect(field?.boundary.boundaryId).toBe('b-1');
    expect(field?.boundary.latestPlanId).toBeNull();
    expect(requests).toEqual([
      'POST /api/partner/launch/exchange',
      'POST /api/path-plans/direct/geojson?boundaryId=b-1',
    ]);
  });

  it("runs the app's bundle once the first plan is in, or after a bounded wait (slow exchange or plan)", async () => {
    vi.useFakeTimers();
    try {
      const location = {
        pathname: '/launch',
        search: '?code=abc&userId=u',
        origin: 'https://furrow.example',
      } as Location;
      const history = { replaceState: vi.fn() } as unknown as History;
      const settled = (p: Promise<void> | undefined) => {
        let done = false;
        void p?.then(() => (done = true));
        return () => done;
      };
      // An exchange that never answers: the bundle runs after LAUNCH_WAIT_MS.
      vi.stubGlobal('fetch', () => new Promise(() => undefined));
      const hung = settled(startHeadStart(location, history)!.ready);
      await vi.advanceTimersByTimeAsync(LAUNCH_WAIT_MS - 10);
      expect(hung()).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect(hung()).toBe(true);
      // The exchange answers at once, the plan never: PLAN_WAIT_MS after the plan was asked for.
      vi.stubGlobal('fetch', async (url: string) =>
        url.includes('/launch/exchange')
          ? new Response(JSON.stringify({ token: 't', returnUrl: '/path-planning/boundary/b-1', field: FIELD }))
          : new Promise(() => undefined),
      );
      const slowPlan = settled(startHeadStart(location, history)!.ready);
      await vi.advanceTimersByTimeAsync(PLAN_WAIT_MS - 10);
      expect(slowPlan()).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect(slowPlan()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for the field when the answer has none (or another field)', async () => {
    for (const answer of [{}, { field: null }, { field: { ...FIELD, boundaryId: 'b-2' } }]) {
      const { requests, field } = await launchWith(answer);
      expect(field?.boundary.boundaryId).toBe('b-1');
      expect(requests).toEqual([
        'POST /api/partner/launch/exchange',
        'GET /api/boundaries/b-1',
        'POST /api/path-plans/direct/geojson?boundaryId=b-1',
      ]);
      vi.unstubAllGlobals();
    }
  });
});
