/**
 * `/docs`: Swagger UI over `/openapi.json`, with every asset served by this server from the
 * installed swagger-ui-dist package (no CDN, works offline).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { swaggerUI } from '@hono/swagger-ui';
import type { App } from './context.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

let assetDir: string | undefined;
const cache = new Map<string, Uint8Array<ArrayBuffer>>();

function swaggerDistDir(): string {
  assetDir ??= path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return assetDir;
}

export function mountDocs(app: App): void {
  app.get(
    '/docs',
    swaggerUI({ url: '/openapi.json', baseUrl: '/assets', title: 'furrow API reference', persistAuthorization: true }),
  );
  app.get('/assets/swagger-ui-dist/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let bytes = cache.get(file);
    if (!bytes) {
      bytes = new Uint8Array(readFileSync(path.join(swaggerDistDir(), file)));
      cache.set(file, bytes);
    }
    return c.body(bytes, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
}
