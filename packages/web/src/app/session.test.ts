import { describe, expect, it } from 'vitest';
import {
  SessionStore,
  decodeJwtPayload,
  embeddingFromReturnUrl,
  safeReturnUrl,
  sessionFromExchange,
} from './session.js';

function jwt(payload: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(payload)}.c2lnbmF0dXJl`;
}

function memory() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  };
}

describe('sessionFromExchange', () => {
  const now = 1_700_000_000_000;
  it('takes the sooner of the JWT exp and expiresInSec', () => {
    const token = jwt({ sub: 'u1', exp: now / 1000 + 3600 });
    expect(sessionFromExchange({ token, expiresInSec: 600 }, now)?.expiresAtMs).toBe(now + 600_000);
    expect(sessionFromExchange({ token, expiresInSec: 7200 }, now)?.expiresAtMs).toBe(now + 3_600_000);
  });
  it('reads the token and embedding settings under the names the API may use', () => {
    const s = sessionFromExchange(
      { jwt: 'opaque', partner: { allowedOrigins: ['https://p.example', 3], theme: { primaryColor: '#123456' } } },
      now,
    );
    expect(s).toMatchObject({
      token: 'opaque',
      allowedOrigins: ['https://p.example'],
      theme: { primaryColor: '#123456' },
    });
  });
  it('refuses a body without a token or an already expired session', () => {
    expect(sessionFromExchange({}, now)).toBeUndefined();
    expect(sessionFromExchange({ token: jwt({ exp: now / 1000 - 1 }) }, now)).toBeUndefined();
  });
  it('decodes JWT payloads with url-safe base64 and unicode', () => {
    expect(decodeJwtPayload(jwt({ name: 'Jörg ✓' }))).toEqual({ name: 'Jörg ✓' });
    expect(decodeJwtPayload('not-a-jwt')).toBeUndefined();
  });
});

describe('SessionStore', () => {
  it('drops a session once it has expired', () => {
    let t = 1000;
    const storage = memory();
    const store = new SessionStore(storage, () => t);
    store.save({ token: 'x', expiresAtMs: 2000, allowedOrigins: [] });
    expect(store.load().session?.token).toBe('x');
    t = 2000;
    expect(store.load()).toEqual({ expired: true });
    expect(storage.m.size).toBe(0);
  });
  it('treats corrupt storage as no session', () => {
    const storage = memory();
    storage.setItem('furrow.session', '{not json');
    expect(new SessionStore(storage).load()).toEqual({ expired: false });
  });
});

describe('safeReturnUrl', () => {
  const app = 'https://app.furrow.test';
  it('keeps same-origin targets as paths', () => {
    expect(safeReturnUrl('https://app.furrow.test/path-planning/boundary/b1?embedded=true&chrome=false', app)).toBe(
      '/path-planning/boundary/b1?embedded=true&chrome=false',
    );
    expect(safeReturnUrl('/path-planning/boundary/b2', app)).toBe('/path-planning/boundary/b2');
  });
  it('refuses other origins, protocol-relative and script URLs (no open redirect)', () => {
    for (const u of [
      'https://evil.test/x',
      '//evil.test/x',
      'javascript:alert(1)',
      'http://app.furrow.test/x',
      '/launch?code=1',
      '',
    ]) {
      expect(safeReturnUrl(u, app), u).toBeUndefined();
    }
  });
});

describe('embedding settings in the returnUrl', () => {
  const app = 'https://app.furrow.test';
  it('reads embedOrigin (repeatable) and a sanitised partnerTheme', () => {
    const u = new URL('/path-planning/boundary/b1', app);
    u.searchParams.append('embedOrigin', 'https://partner.example');
    u.searchParams.append('embedOrigin', 'https://b.example:8443,not a url');
    u.searchParams.set('partnerTheme', JSON.stringify({ name: 'Acme', primaryColor: '#0a4d8c', textColor: 'red;}' }));
    expect(embeddingFromReturnUrl(u.toString(), app)).toEqual({
      allowedOrigins: ['https://partner.example', 'https://b.example:8443'],
      theme: { name: 'Acme', primaryColor: '#0a4d8c' },
    });
    expect(embeddingFromReturnUrl(`${app}/x?partnerTheme=%7Bbroken`, app)).toEqual({ allowedOrigins: [] });
  });
  it('takes them from the exchange body (the server-stored returnUrl)', () => {
    const s = sessionFromExchange(
      { token: 't', expiresInSec: 60, returnUrl: `${app}/p?embedOrigin=https%3A%2F%2Fpartner.example` },
      0,
      app,
    );
    expect(s?.allowedOrigins).toEqual(['https://partner.example']);
  });
  it('sends the API default returnUrl (the root) to the app home', () => {
    expect(safeReturnUrl(`${app}/`, app)).toBe('/app');
  });
});
