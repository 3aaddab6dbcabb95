/**
 * @furrow/web, server side: where the built web application lives and how to serve it.
 *
 * The browser application itself is in `src/app/` and is bundled by `build.mjs` (esbuild)
 * into `dist/public/` (index.html, app.js, app.css). The API mounts it with one line:
 *
 * ```ts
 * import { mountWebApp } from '@furrow/web';
 * await serve(process.env, { web: mountWebApp });   // @furrow/api's serve / createApp hook
 * ```
 *
 * `webAppResponse` answers the app's pages (`/` home, `/launch`, `/path-planning/boundary/{id}`,
 * `/profile`, `/app`)
 * with index.html and its assets under `/app-assets/`, and `undefined` for everything else
 * (so `/api/*`, `/docs`, `/openapi.json` fall through to the API).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/**
 * Absolute path of the built static application (index.html, app.js, app.css).
 * `src/` and `dist/` are siblings, so this resolves the same from the sources (tests) and the build.
 */
export const webAssetsDir: string = fileURLToPath(new URL('../dist/public/', import.meta.url));

/** URL prefix of the static assets. */
export const WEB_ASSETS_PREFIX = '/app-assets/';

/** Page routes of the application, as Hono-style patterns (each answered with index.html). */
export const webAppRoutes: readonly string[] = [
  '/',
  '/launch',
  '/path-planning/boundary/:boundaryId',
  '/app',
  '/profile',
];

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Content-Security-Policy of the pages: everything from the app's own origin, no third-party
 * scripts, styles or connections. Framing is allowed (partners embed the app in an iframe);
 * which parent may steer it is checked per partner by the app itself (postMessage origins).
 */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** True when `pathname` is one of the application's pages (not an asset, not the API). */
export function isWebAppPage(pathname: string): boolean {
  if (['/', '/launch', '/app', '/app/', '/profile', '/profile/'].includes(pathname)) return true;
  return /^\/path-planning\/boundary\/[^/]+\/?$/.test(pathname);
}

function assetName(pathname: string): string | undefined {
  if (!pathname.startsWith(WEB_ASSETS_PREFIX)) return undefined;
  const name = pathname.slice(WEB_ASSETS_PREFIX.length);
  // Only flat file names of the bundle: no traversal, no hidden files.
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) && !name.includes('..') ? name : undefined;
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot) : '';
}

/**
 * Answers a request for the web application: a page (index.html), an asset, or `undefined`
 * when the path is not the app's (let the caller handle it). Only GET and HEAD are answered.
 */
export async function webAppResponse(request: Request): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const { pathname } = new URL(request.url);
  const page = isWebAppPage(pathname);
  const asset = page ? 'index.html' : assetName(pathname);
  if (asset === undefined) return undefined;

  let body: Uint8Array<ArrayBuffer>;
  try {
    body = new Uint8Array(await readFile(join(webAssetsDir, asset)));
  } catch {
    if (!page && !pathname.endsWith('.js') && !pathname.endsWith('.css')) return undefined;
    return new Response(
      page
        ? 'The furrow web application is not built: run `npm run build` (or `npm run build -w @furrow/web`).'
        : 'Not found',
      { status: page ? 503 : 404, headers: { 'content-type': 'text/plain; charset=utf-8' } },
    );
  }
  const headers = new Headers({
    'content-type': CONTENT_TYPES[extension(asset)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
  });
  if (page) {
    headers.set('content-security-policy', WEB_CONTENT_SECURITY_POLICY);
    // The launch URL carries a one-time code: never send it on as a referrer, never cache it.
    headers.set('referrer-policy', 'no-referrer');
    headers.set('cache-control', 'no-store');
  } else {
    headers.set('cache-control', 'no-cache');
  }
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}

/** What `mountWebApp` needs of an app: Hono's `get(path, handler)` (structurally; no Hono import here). */
export interface WebMountTarget {
  get(path: string, handler: (c: { req: { raw: Request } }) => Promise<Response>): unknown;
}

/** Every GET path the app answers (pages and assets), as router patterns. */
export const webAppMountPaths: readonly string[] = [...webAppRoutes, '/app/', '/profile/', `${WEB_ASSETS_PREFIX}*`];

/**
 * Mounts the web application on a Hono app (the `web` hook of `@furrow/api`'s `createApp` /
 * `serve`): GET routes for the pages and `/app-assets/*`.
 */
export function mountWebApp(app: WebMountTarget): void {
  const handler = async (c: { req: { raw: Request } }): Promise<Response> =>
    (await webAppResponse(c.req.raw)) ??
    new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  for (const path of webAppMountPaths) app.get(path, handler);
}
