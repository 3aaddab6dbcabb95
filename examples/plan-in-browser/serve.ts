/** A static server for the built example (module workers need http, not file://). `npx tsx examples/plan-in-browser/serve.ts` serves dist/ on :8090. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildExample } from './build.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.geojson': 'application/geo+json',
};

export async function serveExample(port = 0, dir?: string): Promise<{ url: string; server: Server }> {
  const root = await buildExample(dir);
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = path === '/' || path === '\\' ? 'index.html' : path;
    try {
      const body = await readFile(join(root, file));
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}/`, server };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { url } = await serveExample(8090);
  process.stdout.write(`example at ${url}\n`);
}
