/**
 * A tiny partner product embedding furrow (docs/api.md "Full platform", the typical sequence).
 *
 * Server side, with the partner-admin key (never sent to the browser), it provisions an end
 * user, a company and access, a grower, farm and field with a boundary, then requests a launch
 * code for that user. The page it serves opens the launch URL in an iframe in embedded mode
 * (`?embedded=true&chrome=false` on the returnUrl) and steers the app with `embedded-mode`
 * messages.
 *
 *   FURROW_URL=http://127.0.0.1:8787 FURROW_ADMIN_KEY=… npx tsx examples/partner-embed/server.ts
 *   → open http://127.0.0.1:8790
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface PartnerEmbedOptions {
  /** furrow's API base address (server to server). */
  furrowUrl: string;
  /** The partner-admin API key: stays in this process. */
  adminKey: string;
  port?: number;
  host?: string;
  /** The partner's own id for its end user (GUID in real life). */
  partnerUserId?: string;
  partnerCompanyId?: string;
  /** GeoJSON Feature or Polygon of the field to plan (default: ./field.geojson). */
  fieldFile?: string;
  /** Testing credits granted to the end user on provisioning (default 500). */
  credits?: number;
  /** The partner's theme (name and colours), applied by the app in embedded mode. */
  theme?: Record<string, string>;
}

export interface Provisioned {
  userId: string;
  companyId: string;
  growerId: string;
  farmId: string;
  fieldId: string;
  boundaryId: string;
}

export interface PartnerEmbed {
  url: string;
  provisioned(): Promise<Provisioned>;
  close(): Promise<void>;
}

class FurrowError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what} failed: HTTP ${status} ${body.slice(0, 300)}`);
  }
}

export async function startPartnerEmbed(opts: PartnerEmbedOptions): Promise<PartnerEmbed> {
  const base = opts.furrowUrl.replace(/\/$/, '');
  const partnerUserId = opts.partnerUserId ?? '6f1c0d3e-7a55-4a1e-9d0b-1d2a7f0c9e11';
  const partnerCompanyId = opts.partnerCompanyId ?? 'acme-farms-eu-0001';
  const fieldFile = opts.fieldFile ?? fileURLToPath(new URL('./field.geojson', import.meta.url));

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'X-API-KEY': opts.adminKey, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new FurrowError(res.status, text, `${method} ${path}`);
    return (text ? JSON.parse(text) : {}) as T;
  }

  let provisioning: Promise<Provisioned> | undefined;
  const provision = (): Promise<Provisioned> =>
    (provisioning ??= (async () => {
      await call('GET', '/api/user/current'); // verify the key
      const { userId } = await call<{ userId: string }>('POST', '/api/partner/users', {
        partnerUserId,
        email: 'jo.farmer@example.com',
        firstName: 'Jo',
        lastName: 'Farmer',
        countryCode: 'BE',
      });
      const { companyId } = await call<{ companyId: string }>('POST', '/api/partner/companies', {
        partnerCompanyId,
        name: 'Acme Farms',
        countryCode: 'BE',
      });
      await call('POST', '/api/partner/company-accesses', { partnerUserId, partnerCompanyId });
      // Planning costs credits: give the end user some testing credits.
      await call('POST', '/api/partner/credits', { partnerUserId, credits: opts.credits ?? 500 });
      const { growerId } = await call<{ growerId: string }>(
        'POST',
        `/api/companies/${encodeURIComponent(companyId)}/growers`,
        {
          name: 'Jo Farmer',
          source: 'api',
          archived: false,
        },
      );
      const { farmId } = await call<{ farmId: string }>('POST', `/api/growers/${encodeURIComponent(growerId)}/farms`, {
        name: 'Home farm',
        source: 'api',
        archived: false,
      });
      const feature = JSON.parse(await readFile(fieldFile, 'utf8')) as {
        geometry?: { coordinates: number[][][] };
        coordinates?: number[][][];
      };
      const rings = feature.geometry?.coordinates ?? feature.coordinates;
      const saved = await call<{ field: { fieldId: string }; vBoundary: { boundaryId: string } }>(
        'POST',
        '/api/fields/save',
        {
          farmId,
          name: 'North meadow',
          boundary: rings,
        },
      );
      return {
        userId,
        companyId,
        growerId,
        farmId,
        fieldId: saved.field.fieldId,
        boundaryId: saved.vBoundary.boundaryId,
      };
    })().catch((err: unknown) => {
      provisioning = undefined; // let the next page load retry
      throw err;
    }));

  let pageOrigin = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET' || (path !== '/' && path !== '/index.html')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    (async () => {
      const ids = await provision();
      // The page the app returns to: embedded without its chrome, steerable from this page's
      // origin only (embedOrigin), in this partner's colours (partnerTheme). The API keeps this
      // URL with the code, so the browser cannot change it.
      const returnUrl = new URL(`/path-planning/boundary/${encodeURIComponent(ids.boundaryId)}`, appUrlOf(base));
      returnUrl.searchParams.set('embedded', 'true');
      returnUrl.searchParams.set('chrome', 'false');
      returnUrl.searchParams.set('embedOrigin', pageOrigin);
      if (opts.theme) returnUrl.searchParams.set('partnerTheme', JSON.stringify(opts.theme));
      const launch = await call<{ code: string; userId: string; launchUrl: string; expiresInSec: number }>(
        'POST',
        '/api/partner/launch',
        {
          userId: partnerUserId,
          returnUrl: returnUrl.toString(),
        },
      );
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'strict-origin-when-cross-origin',
      });
      res.end(page(launch.launchUrl));
    })().catch((err: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Could not open the planner: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  const url = `http://${opts.host ?? '127.0.0.1'}:${addr.port}`;
  pageOrigin = url;
  return {
    url,
    provisioned: provision,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections?.();
      }),
  };
}

/** The web app lives at APP_URL, by default the API's own address. */
function appUrlOf(apiBase: string): string {
  return (process.env.APP_URL ?? apiBase).replace(/\/$/, '');
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function page(launchUrl: string): string {
  const appOrigin = new URL(launchUrl).origin;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Farm Manager · route planning</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #eef3f8; color: #12243a; }
  header { background: #0a4d8c; color: #fff; padding: 10px 18px; display: flex; gap: 18px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0; }
  header label { font-size: 14px; display: flex; gap: 6px; align-items: center; }
  main { padding: 12px; }
  iframe { width: 100%; height: calc(100vh - 90px); border: 1px solid #b9c8d8; border-radius: 8px; background: #fff; }
</style>
</head>
<body>
<header>
  <h1>Acme Farm Manager</h1>
  <span>North meadow</span>
  <label><input type="checkbox" id="show-side-nav"> furrow navigation</label>
  <label><input type="checkbox" id="show-org"> organisation selector</label>
  <label><input type="checkbox" id="show-field"> field selector</label>
</header>
<main>
  <iframe id="furrow" title="furrow route planner" src="${escapeHtml(launchUrl)}" allow="fullscreen"></iframe>
</main>
<script>
  const appOrigin = ${JSON.stringify(appOrigin)};
  const frame = document.getElementById('furrow');
  const box = (id) => document.getElementById(id).checked;
  function sendMode() {
    frame.contentWindow.postMessage({
      type: 'embedded-mode',
      embedded: true,
      chrome: false,
      hideSideNav: !box('show-side-nav'),
      hideOrgSelector: !box('show-org'),
      hideFieldSelector: !box('show-field'),
    }, appOrigin);
  }
  frame.addEventListener('load', sendMode);
  for (const id of ['show-side-nav', 'show-org', 'show-field']) document.getElementById(id).addEventListener('change', sendMode);
</script>
</body>
</html>`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const furrowUrl = process.env.FURROW_URL ?? 'http://127.0.0.1:8787';
  const adminKey = process.env.FURROW_ADMIN_KEY ?? process.env.FURROW_BOOTSTRAP_API_KEY;
  if (!adminKey) {
    process.stderr.write(
      'Set FURROW_ADMIN_KEY to a partner-admin key of the furrow server (see `furrow keys create --partner-admin`).\n',
    );
    process.exit(2);
  }
  const running = await startPartnerEmbed({
    furrowUrl,
    adminKey,
    port: Number(process.env.PORT ?? 8790),
    theme: { name: 'Acme Farm Manager', primaryColor: '#0a4d8c', accentColor: '#f2a900' },
  });
  process.stdout.write(`partner page on ${running.url} (furrow at ${furrowUrl})\n`);
}
