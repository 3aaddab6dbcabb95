import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, asApiError, errorFromBody, normalizeBoundary } from './api.js';

const ring = [
  [4, 50],
  [4.01, 50],
  [4.01, 50.01],
  [4, 50],
];

describe('normalizeBoundary', () => {
  it('reads GeoJSON, features, rings and wrapped stored boundaries', () => {
    expect(normalizeBoundary({ type: 'Polygon', coordinates: [ring] })?.geometry.type).toBe('Polygon');
    expect(
      normalizeBoundary({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} })
        ?.geometry.type,
    ).toBe('Polygon');
    const stored = normalizeBoundary({
      vBoundary: { boundaryId: 'b1', boundary: [ring] },
      field: { fieldId: 'f1', name: 'North' },
    });
    expect(stored).toMatchObject({
      boundaryId: 'b1',
      fieldId: 'f1',
      name: 'North',
      geometry: { type: 'Polygon', coordinates: [ring] },
    });
    expect(
      normalizeBoundary({ boundaryId: 'b2', geometry: { type: 'MultiPolygon', coordinates: [[ring]] } })?.geometry.type,
    ).toBe('MultiPolygon');
  });
  it('reads the stored obstacles (no-go and passable), gates and start point', () => {
    const zone = { type: 'Polygon', coordinates: [ring] };
    const b = normalizeBoundary({
      boundaryId: 'b3',
      geometry: zone,
      obstacles: [{ geometry: zone }, { geometry: zone, passable: true }],
      accessPoints: [[4.1, 50.2], 'not a point'],
      stagingArea: [4.2, 50.3],
    });
    expect(b).toMatchObject({
      obstacles: [zone],
      passableZones: [zone],
      accessPoints: [[4.1, 50.2]],
      stagingArea: [4.2, 50.3],
    });
    expect(normalizeBoundary({ geometry: zone })).not.toHaveProperty('accessPoints');
  });
  it('refuses bodies without a closed polygon', () => {
    expect(
      normalizeBoundary({
        boundary: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      }),
    ).toBeUndefined();
    expect(normalizeBoundary('x')).toBeUndefined();
  });
});

describe('errors', () => {
  it('reads the error bodies of every status', () => {
    const e = errorFromBody(400, { error: { code: 'LaunchCodeUsed', message: 'used' }, correlationId: 'c1' }, 'x');
    expect([e.status, e.code, e.message, e.correlationId]).toEqual([400, 'LaunchCodeUsed', 'used', 'c1']);
    const f = errorFromBody(403, { correlationId: 'c2', errorCode: 'NotAuthorized', message: 'no' }, 'x');
    expect([f.code, f.message]).toEqual(['NotAuthorized', 'no']);
    expect(errorFromBody(500, undefined, 'fallback').message).toBe('fallback');
  });

  it('sends the bearer token except on the exchange and reports 401s', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    let unauthorized = 0;
    const fetchImpl = (async (url: string, init: RequestInit) => {
      seen.push({ url, auth: new Headers(init.headers).get('authorization') });
      return url.includes('user')
        ? new Response('{}', { status: 401 })
        : new Response('{"token":"t"}', { status: 200 });
    }) as unknown as typeof fetch;
    const api = new ApiClient({ token: () => 'jwt1', onUnauthorized: () => unauthorized++, fetchImpl });
    await api.exchangeLaunchCode('c', 'u');
    await expect(api.currentUser()).rejects.toBeInstanceOf(ApiError);
    expect(seen).toEqual([
      { url: '/api/partner/launch/exchange', auth: null },
      { url: '/api/user/current', auth: 'Bearer jwt1' },
    ]);
    expect(unauthorized).toBe(1);
  });
});

describe('asApiError', () => {
  it("makes another bundle's ApiError (the head start's) this bundle's, and leaves other errors alone", () => {
    class OtherApiError extends Error {
      constructor(
        readonly status: number,
        readonly code: string,
        message: string,
      ) {
        super(message);
        this.name = 'ApiError';
      }
    }
    const converted = asApiError(new OtherApiError(401, 'Unauthorized', 'used'));
    expect(converted).toBeInstanceOf(ApiError);
    expect(converted).toMatchObject({ status: 401, code: 'Unauthorized', message: 'used' });
    const own = new ApiError(402, 'PaymentRequired', 'no credits');
    expect(asApiError(own)).toBe(own);
    const plain = new TypeError('x');
    expect(asApiError(plain)).toBe(plain);
  });
});
