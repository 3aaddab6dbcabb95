/**
 * Trimble Agriculture stand-in: Trimble Identity token endpoint (client credentials with the
 * client name as scope, or single-use refresh tokens) and the Ag Data API 3.0 create
 * endpoints for boundaries and guidance lines.
 */
import { basicAuthOf, Checks, isNumber, StandIn, type RecordedRequest, type Reply } from './standin.js';

export const TRIMBLE_CLIENT = {
  id: '6b1f2c1e-0000-4000-8000-000000000001',
  secret: 'trimble-secret',
  name: 'furrow-test',
  refreshToken: 'trimble-refresh-1',
};

export class TrimbleStandIn extends StandIn {
  readonly organizations = new Map<string, Set<string>>([['org-9', new Set(['f-1'])]]);
  readonly validTokens = new Set<string>();
  /** Refresh tokens still usable (single use: each is replaced on use). */
  readonly refreshTokens = new Set<string>([TRIMBLE_CLIENT.refreshToken]);
  private n = 0;

  constructor() {
    super();
    this.route('POST', '/oauth/token', (req) => this.token(req));
    this.route('POST', '/Trimble-Ag-Software/externalApi/3.0/resources/:org/boundaries', (req, p) =>
      this.guard(req, p, () => this.boundary(req, p)),
    );
    this.route('POST', '/Trimble-Ag-Software/externalApi/3.0/resources/:org/guidancelines', (req, p) =>
      this.guard(req, p, () => this.guidanceLine(req, p)),
    );
  }

  get baseUrl(): string {
    return `${this.url}/Trimble-Ag-Software/externalApi/3.0`;
  }
  get tokenUrl(): string {
    return `${this.url}/oauth/token`;
  }

  private token(req: RecordedRequest): Reply {
    if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return { status: 400, body: { error: 'invalid_request' } };
    const auth = basicAuthOf(req.headers.authorization);
    if (!auth || auth.id !== TRIMBLE_CLIENT.id || auth.secret !== TRIMBLE_CLIENT.secret)
      return { status: 401, body: { error: 'invalid_client' } };
    const form = new URLSearchParams(req.body);
    const access = `trimble-access-${++this.n}`;
    if (form.get('grant_type') === 'client_credentials') {
      if (form.get('scope') !== TRIMBLE_CLIENT.name)
        return { status: 400, body: { error: 'invalid_scope', error_description: 'scope must be the client name' } };
      this.validTokens.add(access);
      return { status: 200, body: { token_type: 'bearer', expires_in: 3600, access_token: access } };
    }
    if (form.get('grant_type') === 'refresh_token') {
      const rt = form.get('refresh_token') ?? '';
      if (!this.refreshTokens.delete(rt))
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'refresh token already used or expired' },
        };
      const next = `trimble-refresh-${this.n + 1}`;
      this.refreshTokens.add(next);
      this.validTokens.add(access);
      return {
        status: 200,
        body: { token_type: 'bearer', expires_in: 3600, access_token: access, refresh_token: next },
      };
    }
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  }

  private guard(req: RecordedRequest, p: Record<string, string>, next: () => Reply): Reply {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !this.validTokens.has(auth.slice(7)))
      return { status: 401, body: { message: 'Unauthorized' } };
    if (!req.headers['content-type']?.startsWith('application/json'))
      return { status: 415, body: { message: 'Content-Type must be application/json' } };
    if (!this.organizations.has(p.org))
      return { status: 403, body: { message: 'organization not authorised for this application' } };
    return next();
  }

  private position(c: Checks, p: unknown, where: string): void {
    c.that(
      Array.isArray(p) &&
        p.length >= 2 &&
        isNumber(p[0]) &&
        isNumber(p[1]) &&
        Math.abs(p[0]) <= 180 &&
        Math.abs(p[1]) <= 90,
      `${where} must be [lon, lat]`,
    );
  }

  private boundary(req: RecordedRequest, p: Record<string, string>): Reply {
    const b = req.json as Record<string, unknown> | undefined;
    const c = new Checks();
    c.that(typeof b?.fieldID === 'string', 'fieldID is required');
    if (typeof b?.fieldID === 'string' && !this.organizations.get(p.org)!.has(b.fieldID))
      return { status: 404, body: { message: 'field not found' } };
    c.that(typeof b?.name === 'string' && (b.name as string).length > 0, 'name is required');
    const g = b?.geometry as { type?: string; coordinates?: unknown } | undefined;
    c.that(g?.type === 'Polygon' || g?.type === 'MultiPolygon', 'geometry must be a GeoJSON Polygon or MultiPolygon');
    const polys = (
      g?.type === 'Polygon' ? [g.coordinates] : g?.type === 'MultiPolygon' ? g.coordinates : []
    ) as unknown[][][];
    (Array.isArray(polys) ? polys : []).forEach((poly, i) => {
      c.that(Array.isArray(poly) && poly.length > 0, `polygon ${i} has no rings`);
      (poly ?? []).forEach((ring, j) => {
        c.that(Array.isArray(ring) && ring.length >= 4, `ring ${i}.${j} needs at least 4 positions`);
        (ring ?? []).forEach((q, k) => this.position(c, q, `ring ${i}.${j}[${k}]`));
        if (Array.isArray(ring) && ring.length >= 4) {
          const f = ring[0] as number[],
            l = ring[ring.length - 1] as number[];
          c.that(f[0] === l[0] && f[1] === l[1], `ring ${i}.${j} must be closed`);
        }
      });
    });
    return c.reply({
      status: 200,
      body: {
        id: `b-${++this.n}`,
        links: [{ rel: 'self', href: `${this.baseUrl}/resources/${p.org}/boundaries/b-${this.n}` }],
      },
    });
  }

  private guidanceLine(req: RecordedRequest, p: Record<string, string>): Reply {
    const b = req.json as Record<string, unknown> | undefined;
    const c = new Checks();
    c.that(
      typeof b?.fieldId === 'string' && this.organizations.get(p.org)!.has(b.fieldId as string),
      'fieldId must be a field of this organization',
    );
    c.that(typeof b?.name === 'string' && (b.name as string).length > 0, 'name is required');
    c.that(b?.type === 'AB' || b?.type === 'Curve', 'type must be AB or Curve');
    const g = b?.geometry as { type?: string; coordinates?: unknown[] } | undefined;
    if (b?.type === 'Curve')
      c.that(
        g?.type === 'LineString' && Array.isArray(g.coordinates) && g.coordinates.length >= 3,
        'a Curve geometry must be a GeoJSON LineString of at least 3 positions',
      );
    else
      c.that(
        g?.type === 'LineString' && Array.isArray(g.coordinates) && g.coordinates.length === 2,
        'geometry must be a two-point GeoJSON LineString (A, B)',
      );
    (g?.coordinates ?? []).forEach((q, k) => this.position(c, q, `geometry.coordinates[${k}]`));
    return c.reply({ status: 200, body: { id: `gl-${++this.n}` } });
  }
}
