import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync, gzipSync, brotliDecompressSync } from 'node:zlib';
import { Hono } from 'hono';
import {
  basemapFromEnv,
  createWebMount,
  isWebAppPage,
  webAppResponse,
  webAssetsDir,
  webContentSecurityPolicy,
  wmtsToXyz,
} from './index.js';
import { negotiateEncoding } from './serve.js';
// @ts-expect-error build.mjs is plain JavaScript
import { buildWebApp } from '../build.mjs';

describe('webAppResponse', () => {
  beforeAll(async () => {
    await buildWebApp();
  });

  it('serves index.html for the app pages with a CSP and no referrer', async () => {
    for (const path of [
      '/',
      '/profile',
      '/launch?code=x',
      '/path-planning/boundary/abc',
      '/path-planning/boundary/abc?embedded=true&chrome=false',
    ]) {
      const res = await webAppResponse(new Request(`http://h${path}`));
      expect(res?.status, path).toBe(200);
      expect(res?.headers.get('content-type')).toContain('text/html');
      expect(res?.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res?.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await res?.text()).toMatch(/\/app-assets\/app-[A-Z0-9]{8}\.js/);
    }
  });

  const bundle = () => readdirSync(webAssetsDir).find((n) => /^app-[A-Z0-9]{8}\.js$/.test(n))!;

  it('serves the bundle and refuses traversal', async () => {
    const js = await webAppResponse(new Request(`http://h/app-assets/${bundle()}`));
    expect(js?.headers.get('content-type')).toContain('javascript');
    expect((await js?.text())?.length).toBeGreaterThan(1000);
    expect((await webAppResponse(new Request('http://h/app-assets/missing.js')))?.status).toBe(404);
    expect(await webAppResponse(new Request('http://h/app-assets/..%2Fpackage.json'))).toBeUndefined();
    expect(await webAppResponse(new Request('http://h/app-assets/../../package.json'))).toBeUndefined();
  });

  it('leaves the API and other methods alone', async () => {
    expect(await webAppResponse(new Request('http://h/api/user/current'))).toBeUndefined();
    expect(await webAppResponse(new Request('http://h/launch', { method: 'POST' }))).toBeUndefined();
    expect(isWebAppPage('/path-planning/boundary/a/b')).toBe(false);
  });

  it('compresses, tags and caches the hashed assets for good', async () => {
    const url = `http://h/app-assets/${bundle()}`;
    const plain = await webAppResponse(new Request(url));
    const text = await plain!.text();
    expect(plain!.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = plain!.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const br = await webAppResponse(new Request(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } }));
    expect(br!.headers.get('content-encoding')).toBe('br');
    expect(br!.headers.get('vary')).toBe('accept-encoding');
    const brBytes = Buffer.from(await br!.arrayBuffer());
    expect(brBytes.length).toBeLessThan(text.length / 3);
    expect(brotliDecompressSync(brBytes).toString()).toBe(text);
    const gz = await webAppResponse(new Request(url, { headers: { 'accept-encoding': 'gzip' } }));
    expect(gz!.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz!.arrayBuffer())).toString()).toBe(text);
    const again = await webAppResponse(new Request(url, { headers: { 'if-none-match': etag } }));
    expect(again!.status).toBe(304);
    expect(await again!.text()).toBe('');
  });

  it('keeps the app with its map library within 350 KB gzipped (JS + CSS), docs/benchmarks/web.md', () => {
    // The app, its styles and the launch's head start (early-<hash>.js): everything a page loads.
    const files = readdirSync(webAssetsDir).filter((n) => /^(app|early)-[A-Z0-9]{8}\.(js|css)$/.test(n));
    expect(files.map((n) => n.split('.').pop()).sort()).toEqual(['css', 'js', 'js']);
    const gzipped = files.reduce(
      (sum, n) => sum + gzipSync(readFileSync(`${webAssetsDir}/${n}`), { level: 9 }).length,
      0,
    );
    process.stderr.write(`[furrow] web bundle: ${files.join(' + ')} = ${gzipped} bytes gzipped\n`);
    expect(gzipped).toBeLessThanOrEqual(350 * 1024);
  });

  it('negotiates the encoding from Accept-Encoding, honouring q=0', () => {
    expect(negotiateEncoding('gzip, br')).toBe('br');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeUndefined();
    expect(negotiateEncoding(null)).toBeUndefined();
    expect(negotiateEncoding('*')).toBe('br');
  });

  it('gives an unknown path a browser opens the app page with status 404; the API keeps its own', async () => {
    const html = { headers: { accept: 'text/html,application/xhtml+xml' } };
    const res = await webAppResponse(new Request('http://h/no/such/page', html));
    expect(res?.status).toBe(404);
    expect(res?.headers.get('content-type')).toContain('text/html');
    expect(await res?.text()).toContain('<div id="root">');
    expect(await webAppResponse(new Request('http://h/api/nothing', html))).toBeUndefined();
    expect(await webAppResponse(new Request('http://h/no/such/page'))).toBeUndefined();

    const app = new Hono();
    app.get('/api/ok', (c) => c.json({ ok: true }));
    app.notFound((c) => c.json({ error: { code: 'NotFound' } }, 404));
    createWebMount()(app as never);
    const page = await app.request('/fields/none', html);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    const api = await app.request('/api/none', html);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: { code: 'NotFound' } });
    expect((await app.request('/api/ok')).status).toBe(200);
  });

  it('allows exactly the basemap origin for images and puts the basemap in the page', async () => {
    const basemap = basemapFromEnv({
      FURROW_BASEMAP_URL: 'https://tiles.example.org:8443/aerial/{z}/{x}/{y}.jpg',
      FURROW_BASEMAP_ATTRIBUTION: 'Imagery © Example "Agency"',
    })!;
    expect(webContentSecurityPolicy(basemap)).toContain("img-src 'self' data: blob: https://tiles.example.org:8443;");
    expect(webContentSecurityPolicy()).toContain("img-src 'self' data: blob:;");
    const res = await webAppResponse(new Request('http://h/'), { basemap });
    const html = await res!.text();
    expect(html).toContain('<meta name="furrow-basemap" content="{&quot;urlTemplate&quot;');
    expect(html).toContain('Example \\&quot;Agency\\&quot;');
    expect(basemapFromEnv({})).toBeUndefined();
  });

  it('takes a WMTS template (REST or KVP) as the XYZ one, and says what to fill in', () => {
    const rest = basemapFromEnv({
      FURROW_BASEMAP_URL:
        'https://wmts.example.org/wmts/ortho/default/GoogleMapsCompatible/{TileMatrix}/{TileRow}/{TileCol}.jpeg',
      FURROW_BASEMAP_ATTRIBUTION: 'Orthophoto © Example',
    })!;
    expect(rest.urlTemplate).toBe('https://wmts.example.org/wmts/ortho/default/GoogleMapsCompatible/{z}/{y}/{x}.jpeg');
    expect(webContentSecurityPolicy(rest)).toContain("img-src 'self' data: blob: https://wmts.example.org;");
    const kvp =
      'https://geo.example.org/gwc/service/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=ortho&STYLE=' +
      '&TILEMATRIXSET=EPSG:900913&TILEMATRIX=EPSG:900913:{tilematrix}&TILEROW={tilerow}&TILECOL={tilecol}' +
      '&FORMAT=image/png';
    expect(wmtsToXyz(kvp)).toBe(
      kvp.replace('{tilematrix}', '{z}').replace('{tilerow}', '{y}').replace('{tilecol}', '{x}'),
    );
    expect(() => wmtsToXyz('https://w.example/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png')).toThrow(
      /FURROW_BASEMAP_URL: write the value of \{TileMatrixSet\}/,
    );
    // An XYZ template stays as it is; createWebMount takes the WMTS form too.
    expect(wmtsToXyz('https://t.example/{z}/{x}/{y}.png')).toBe('https://t.example/{z}/{x}/{y}.png');
    expect(() =>
      createWebMount({
        basemap: { urlTemplate: 'https://w.example/{TileMatrix}/{TileRow}/{TileCol}', attribution: 'x' },
      }),
    ).not.toThrow();
  });

  it('names the variable of a bad basemap setting', () => {
    const bad = (env: Record<string, string>) => () => basemapFromEnv(env);
    expect(bad({ FURROW_BASEMAP_URL: 'https://t.example/{z}/{x}.png', FURROW_BASEMAP_ATTRIBUTION: 'x' })).toThrow(
      /FURROW_BASEMAP_URL must hold \{y\}/,
    );
    expect(bad({ FURROW_BASEMAP_URL: 'ftp://t.example/{z}/{x}/{y}', FURROW_BASEMAP_ATTRIBUTION: 'x' })).toThrow(
      /http\(s\)/,
    );
    expect(
      bad({ FURROW_BASEMAP_URL: 'https://{s}.t.example/{z}/{x}/{y}.png', FURROW_BASEMAP_ATTRIBUTION: 'x' }),
    ).toThrow(/one host/);
    expect(bad({ FURROW_BASEMAP_URL: 'https://t.example/{z}/{x}/{y}.png' })).toThrow(/FURROW_BASEMAP_ATTRIBUTION/);
    expect(
      bad({
        FURROW_BASEMAP_URL: 'https://t.example/{z}/{x}/{y}.png',
        FURROW_BASEMAP_ATTRIBUTION: 'x',
        FURROW_BASEMAP_MAX_ZOOM: '30',
      }),
    ).toThrow(/FURROW_BASEMAP_MAX_ZOOM/);
  });
});
