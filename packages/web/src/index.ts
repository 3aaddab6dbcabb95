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
import { fileURLToPath } from 'node:url';
import { encodedBody, etagMatches, loadBuiltFile, negotiateEncoding } from './serve.js';
import { firstPlanRequest } from './app/first-plan.js';
import { LOCAL_TILES_PREFIX, LocalTiles, readPmtilesInfo } from './pmtiles.js';

export { firstPlanRequest };

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
  '/fields/new',
];

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};

/**
 * The basemap under the plan: a raster XYZ URL template (`{z}`, `{x}`, `{y}`; aerial imagery or
 * OpenStreetMap tiles) and the attribution its provider asks for. Without one the map has a plain
 * background.
 */
export interface BasemapSetting {
  /** An http(s) template, or a path on the app's own origin (`/tiles/{z}/{x}/{y}.png`: a local basemap). */
  urlTemplate: string;
  attribution: string;
  /** Highest zoom the tile server has (tiles are scaled up beyond it); default 19. */
  maxZoom?: number;
  /** [west, south, east, north] in degrees: no tiles are asked for outside (a local archive's area). */
  bounds?: [number, number, number, number];
}

/**
 * A local basemap: a PMTiles (v3) archive of raster tiles on the server's disk, served by furrow at
 * `/tiles/{z}/{x}/{y}.{ext}` (pmtiles.ts), so no tile server and no internet are needed.
 */
export interface PmtilesBasemapSetting {
  /** Path of the .pmtiles file. */
  pmtilesFile: string;
  attribution: string;
  /** Highest zoom to ask tiles for (scaled up beyond it); default the archive's highest. */
  maxZoom?: number;
}

/** Options of the web application's server side. */
export interface WebAppOptions {
  basemap?: BasemapSetting | PmtilesBasemapSetting;
}

/** What the pages are served with: the basemap the map reads (a local one as its tiles' URL template). */
export interface WebPageOptions {
  basemap?: BasemapSetting;
}

/**
 * The basemap from the environment: `FURROW_BASEMAP_URL` (an http(s) XYZ template with `{z}`,
 * `{x}` and `{y}`, or a WMTS one with `{TileMatrix}`, `{TileRow}`, `{TileCol}`: `wmtsToXyz`) or
 * `FURROW_BASEMAP_PMTILES` (a local .pmtiles file of raster tiles, served by furrow itself),
 * `FURROW_BASEMAP_ATTRIBUTION` (required with either) and `FURROW_BASEMAP_MAX_ZOOM`.
 * Undefined when neither is set; an unusable value throws an Error naming the variable.
 */
export function basemapFromEnv(
  env: Record<string, string | undefined>,
): BasemapSetting | PmtilesBasemapSetting | undefined {
  const url = env['FURROW_BASEMAP_URL']?.trim();
  const pmtilesFile = env['FURROW_BASEMAP_PMTILES']?.trim();
  if (!url && !pmtilesFile) return undefined;
  if (url && pmtilesFile) throw new Error('Set FURROW_BASEMAP_URL or FURROW_BASEMAP_PMTILES, not both');
  const attribution = env['FURROW_BASEMAP_ATTRIBUTION']?.trim() ?? '';
  const maxZoomText = env['FURROW_BASEMAP_MAX_ZOOM']?.trim();
  const maxZoom = maxZoomText ? Number(maxZoomText) : undefined;
  if (maxZoom !== undefined && !(Number.isInteger(maxZoom) && maxZoom >= 0 && maxZoom <= 24))
    throw new Error(`FURROW_BASEMAP_MAX_ZOOM must be a whole number from 0 to 24, not "${maxZoomText}"`);
  const zoom = maxZoom !== undefined ? { maxZoom } : {};
  if (pmtilesFile) return checkPmtilesBasemap({ pmtilesFile, attribution, ...zoom });
  return checkBasemap({ urlTemplate: url!, attribution, ...zoom });
}

/** Checks a local basemap setting (the file is a raster PMTiles v3 archive); throws an Error saying what to fix. */
export function checkPmtilesBasemap(given: PmtilesBasemapSetting): PmtilesBasemapSetting {
  checkPmtilesAttribution(given);
  readPmtilesInfo(given.pmtilesFile);
  return given;
}

function checkPmtilesAttribution(given: PmtilesBasemapSetting): void {
  if (given.attribution.trim() === '')
    throw new Error(
      'FURROW_BASEMAP_ATTRIBUTION is required with FURROW_BASEMAP_PMTILES (the imagery\'s licence, e.g. "© Example")',
    );
}

/**
 * An OGC WMTS tile URL template (a REST `ResourceURL`, or a KVP GetTile URL) as the XYZ template
 * the map reads: `{TileMatrix}` → `{z}`, `{TileRow}` → `{y}`, `{TileCol}` → `{x}` (any case).
 * The tile matrix set must be Web Mercator with the usual zoom levels (`GoogleMapsCompatible`,
 * `EPSG:3857`, `WebMercatorQuad`): the map's. A template without them is returned as it is.
 * Throws an Error naming what to fill in for the other placeholders (`{TileMatrixSet}`, `{Style}`).
 */
export function wmtsToXyz(template: string): string {
  const out = template
    .replace(/\{TileMatrix\}/gi, '{z}')
    .replace(/\{TileRow\}/gi, '{y}')
    .replace(/\{TileCol\}/gi, '{x}');
  if (out === template) return template;
  const left = [...out.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]).filter((n) => !['z', 'x', 'y'].includes(n));
  if (left.length > 0)
    throw new Error(
      `FURROW_BASEMAP_URL: write the value of {${left[0]}} into the WMTS template (for {TileMatrixSet} the ` +
        "identifier of the server's Web Mercator set, e.g. GoogleMapsCompatible; for {Style} e.g. default)",
    );
  return out;
}

/**
 * Checks a basemap setting; throws an Error saying what to fix. Returns it with a WMTS template
 * as the XYZ one (`wmtsToXyz`).
 */
export function checkBasemap(given: BasemapSetting): BasemapSetting {
  const b = { ...given, urlTemplate: wmtsToXyz(given.urlTemplate) };
  let parsed: URL;
  try {
    parsed = new URL(b.urlTemplate.replace(/[{}]/g, ''));
  } catch {
    throw new Error(`FURROW_BASEMAP_URL is not a URL: "${b.urlTemplate}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`FURROW_BASEMAP_URL must be an http(s) URL, not ${parsed.protocol}`);
  for (const part of ['{z}', '{x}', '{y}'])
    if (!b.urlTemplate.includes(part))
      throw new Error(
        `FURROW_BASEMAP_URL must hold ${part} (an XYZ template such as https://tiles.example/{z}/{x}/{y}.png)`,
      );
  if (/\{s\}/.test(b.urlTemplate) || /[{}]/.test(new URL(b.urlTemplate.replace(/\{[zxy]\}/g, '0')).host))
    throw new Error('FURROW_BASEMAP_URL must name one host (no {s} subdomains): the page allows exactly that origin');
  if (b.attribution === '')
    throw new Error(
      'FURROW_BASEMAP_ATTRIBUTION is required with FURROW_BASEMAP_URL (e.g. "© OpenStreetMap contributors")',
    );
  return b;
}

/** The origin tiles of a basemap come from; undefined for a local basemap (the app's own origin). */
export function basemapOrigin(b: BasemapSetting): string | undefined {
  if (b.urlTemplate.startsWith('/')) return undefined;
  return new URL(b.urlTemplate.replace(/\{[zxy]\}/g, '0')).origin;
}

/**
 * Content-Security-Policy of the pages: everything from the app's own origin, no third-party
 * scripts, styles or connections; images also from exactly the basemap's origin when one is
 * configured. Framing is allowed (partners embed the app in an iframe); which parent may steer it
 * is checked per partner by the app itself (postMessage origins).
 */
export function webContentSecurityPolicy(basemap?: BasemapSetting): string {
  const origin = basemap ? basemapOrigin(basemap) : undefined;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${origin ? ` ${origin}` : ''}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The policy without a basemap. */
export const WEB_CONTENT_SECURITY_POLICY = webContentSecurityPolicy();

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** index.html with the basemap setting in a `<meta name="furrow-basemap">` the app reads. */
function withBasemapMeta(html: string, basemap: BasemapSetting | undefined): string {
  if (!basemap) return html;
  const meta = `<meta name="furrow-basemap" content="${escapeAttribute(JSON.stringify(basemap))}" />`;
  return html.replace('</head>', `    ${meta}\n  </head>`);
}

/** True when `pathname` is one of the application's pages (not an asset, not the API). */
export function isWebAppPage(pathname: string): boolean {
  if (['/', '/launch', '/app', '/app/', '/profile', '/profile/', '/fields/new'].includes(pathname)) return true;
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

/** Hashed bundle names (`app-3FPCQHR5.js`): their content never changes, so browsers keep them. */
const HASHED_ASSET = /-[A-Z0-9]{8}\.(js|css|png|svg)$/;

/** Paths the app never claims, even when unknown: the API's, its docs, health, the assets. */
const NOT_APP_PATHS = /^\/(api|docs|openapi\.json|healthz|app-assets|tiles)(\/|$)/;

/** True for a GET of an unknown path a browser navigates to (it gets the app's own 404 page). */
function isUnknownAppPath(request: Request, pathname: string): boolean {
  if (NOT_APP_PATHS.test(pathname)) return false;
  return /\btext\/html\b/.test(request.headers.get('accept') ?? '');
}

/**
 * Answers a request for the web application: a page (index.html), an asset, the app's own
 * 404 page for an unknown path a browser opens, or `undefined` when the path is not the app's
 * (let the caller handle it). Only GET and HEAD are answered. Assets carry a strong ETag and go
 * out brotli- or gzip-compressed when the client accepts it; hashed assets are cached for a year.
 */
export async function webAppResponse(request: Request, options: WebPageOptions = {}): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const { pathname } = new URL(request.url);
  const known = isWebAppPage(pathname);
  const unknownPage = !known && assetName(pathname) === undefined && isUnknownAppPath(request, pathname);
  const page = known || unknownPage;
  const asset = page ? 'index.html' : assetName(pathname);
  if (asset === undefined) return undefined;

  const basemapKey = page && options.basemap ? JSON.stringify(options.basemap) : '';
  const file = await loadBuiltFile(
    webAssetsDir,
    asset,
    basemapKey,
    page ? (html) => withBasemapMeta(html, options.basemap) : undefined,
  );
  if (!file) {
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
    vary: 'accept-encoding',
  });
  if (page) {
    headers.set('content-security-policy', webContentSecurityPolicy(options.basemap));
    // The launch URL carries a one-time code: never send it on as a referrer, never cache it.
    headers.set('referrer-policy', 'no-referrer');
    headers.set('cache-control', 'no-store');
  } else {
    headers.set('etag', file.etag);
    headers.set('cache-control', HASHED_ASSET.test(asset) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (etagMatches(request.headers.get('if-none-match'), file.etag))
      return new Response(null, { status: 304, headers });
  }
  const out = encodedBody(file, asset, negotiateEncoding(request.headers.get('accept-encoding')));
  if (out.encoding) headers.set('content-encoding', out.encoding);
  headers.set('content-length', String(out.body.length));
  return new Response(request.method === 'HEAD' ? null : out.body, { status: unknownPage ? 404 : 200, headers });
}

/** What `mountWebApp` needs of an app: Hono's `get(path, handler)` (structurally; no Hono import here). */
export interface WebMountTarget {
  get(
    path: string,
    handler: (c: { req: { raw: Request } }, next: () => Promise<void>) => Promise<Response | void>,
  ): unknown;
}

/** Every GET path the app answers (pages and assets), as router patterns. */
export const webAppMountPaths: readonly string[] = [...webAppRoutes, '/app/', '/profile/', `${WEB_ASSETS_PREFIX}*`];

/** A mount function, with the plan request the app sends first for a field it opens (`firstPlanRequest`). */
export type WebMount = ((app: WebMountTarget) => void) & { firstPlanRequest: typeof firstPlanRequest };

/** The pages' options of a mount's options, and the local tiles when the basemap is a PMTiles file. */
function pageOptions(given: WebAppOptions): { page: WebPageOptions; tiles?: LocalTiles } {
  const b = given.basemap;
  if (!b) return { page: {} };
  if (!('pmtilesFile' in b)) return { page: { basemap: checkBasemap(b) } };
  // the archive's header is read (and checked) once, by LocalTiles
  checkPmtilesAttribution(b);
  const tiles = new LocalTiles(b.pmtilesFile);
  const basemap: BasemapSetting = {
    urlTemplate: tiles.urlTemplate,
    attribution: b.attribution,
    maxZoom: b.maxZoom ?? tiles.info.maxZoom,
    bounds: tiles.info.bounds,
  };
  return { page: { basemap }, tiles };
}

/**
 * A mount function with these options (the `web` hook of `@furrow/api`'s `createApp` / `serve`):
 * GET routes for the pages and `/app-assets/*`, and `/tiles/*` with a local basemap. It carries
 * `firstPlanRequest`, so the API can plan a launched field ahead of the app's request.
 */
export function createWebMount(given: WebAppOptions = {}): WebMount {
  const { page: options, tiles } = pageOptions(given);
  const mount = (app: WebMountTarget): void => {
    const handler = async (c: { req: { raw: Request } }): Promise<Response> =>
      (await webAppResponse(c.req.raw, options)) ??
      new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    for (const path of webAppMountPaths) app.get(path, handler);
    if (tiles) app.get(`${LOCAL_TILES_PREFIX}*`, async (c) => (await tiles.tileResponse(c.req.raw)) ?? handler(c));
    // Last: an unknown path a browser opens gets the app's 404 page; anything else falls through
    // to the API's own 404 (JSON).
    app.get('*', async (c, next) => {
      const res = await webAppResponse(c.req.raw, options);
      if (res) return res;
      await next();
    });
  };
  return Object.assign(mount, { firstPlanRequest });
}

/**
 * Mounts the web application on a Hono app with the basemap of the environment
 * (`basemapFromEnv(process.env)`).
 */
export function mountWebApp(app: WebMountTarget): void {
  createWebMount({ basemap: basemapFromEnv(process.env) })(app);
}
mountWebApp.firstPlanRequest = firstPlanRequest;
