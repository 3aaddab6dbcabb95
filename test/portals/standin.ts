/**
 * Local stand-ins for the portals' token and data endpoints, on 127.0.0.1 with an OS-chosen
 * port. They check what the public documentation says a request must carry (see
 * docs/portals.md) and answer like the documented responses; they also inject faults
 * (429 / 503 with Retry-After, revoked tokens) on demand.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
  status: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

type Handler = (req: RecordedRequest, params: Record<string, string>) => Reply;

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export class StandIn {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: Route[] = [];
  private readonly faults: Reply[] = [];
  private server: Server | undefined;
  url = '';

  route(method: string, path: string, handler: Handler): void {
    const keys: string[] = [];
    const pattern = new RegExp(`^${path.replace(/:(\w+)/g, (_, k: string) => (keys.push(k), '([^/]+)'))}$`);
    this.routes.push({ method, pattern, keys, handler });
  }

  /** The next `count` data requests (not token requests) get this reply instead. */
  failNext(reply: Reply, count = 1): void {
    for (let i = 0; i < count; i++) this.faults.push(reply);
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  dataRequests(): RecordedRequest[] {
    return this.requests.filter((r) => !r.path.includes('token'));
  }

  tokenRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.includes('token'));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = body.length > 0 ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const path = (req.url ?? '/').split('?')[0];
    const rec: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, json, status: 0 };
    this.requests.push(rec);
    let reply: Reply = { status: 404, body: { message: `no stand-in route for ${rec.method} ${path}` } };
    const isToken = path.includes('token');
    if (!isToken && this.faults.length > 0) {
      reply = this.faults.shift()!;
    } else {
      for (const r of this.routes) {
        const m = r.method === rec.method ? r.pattern.exec(path) : null;
        if (!m) continue;
        const params: Record<string, string> = {};
        r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1])));
        reply = r.handler(rec, params);
        break;
      }
    }
    rec.status = reply.status;
    res.writeHead(reply.status, { 'Content-Type': 'application/json', ...(reply.headers ?? {}) });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  }
}

/** Collects problems with a request; an empty list means the request is as documented. */
export class Checks {
  readonly problems: string[] = [];
  that(ok: boolean, problem: string): void {
    if (!ok) this.problems.push(problem);
  }
  reply(success: Reply): Reply {
    return this.problems.length === 0 ? success : { status: 400, body: { message: this.problems.join('; ') } };
  }
}

export function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Basic credentials as the token endpoints take them. */
export function basicAuthOf(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header?.startsWith('Basic ')) return undefined;
  const raw = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const i = raw.indexOf(':');
  return i < 0 ? undefined : { id: decodeURIComponent(raw.slice(0, i)), secret: decodeURIComponent(raw.slice(i + 1)) };
}
