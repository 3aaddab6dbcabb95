import { describe, expect, it, beforeAll } from 'vitest';
import { existsSync } from 'node:fs';
import { isWebAppPage, webAppResponse, webAssetsDir } from './index.js';
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
      expect(await res?.text()).toContain('/app-assets/app.js');
    }
  });

  it('serves the bundle and refuses traversal', async () => {
    expect(existsSync(`${webAssetsDir}/app.js`)).toBe(true);
    const js = await webAppResponse(new Request('http://h/app-assets/app.js'));
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
});
