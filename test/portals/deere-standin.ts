/**
 * John Deere Operations Center stand-in: token endpoint (refresh_token / client_credentials,
 * client authenticated with HTTP Basic) and the three create endpoints with the shapes and
 * headers of Deere's public API documentation (Boundaries, Guidance Lines, Work Plans).
 */
import { basicAuthOf, Checks, isNumber, StandIn, type RecordedRequest, type Reply } from './standin.js';

export const DEERE_CLIENT = { id: 'deere-client', secret: 's3cret:with/odd chars', refreshToken: 'deere-refresh-1' };
const MEDIA = 'application/vnd.deere.axiom.v3+json';

export class DeereStandIn extends StandIn {
  readonly organizations = new Map<string, Set<string>>([['4321', new Set(['field-a', 'field-b'])]]);
  readonly validTokens = new Set<string>();
  readonly guidanceLines = new Set<string>();
  private tokenCount = 0;
  private created = 0;

  constructor() {
    super();
    this.route('POST', '/oauth2/default/v1/token', (req) => this.token(req));
    this.route('POST', '/platform/organizations/:org/fields/:field/boundaries', (req, p) =>
      this.guard(req, p, () => this.boundary(req)),
    );
    this.route('POST', '/platform/organizations/:org/fields/:field/guidanceLines', (req, p) =>
      this.guard(req, p, () => this.guidanceLine(req, p)),
    );
    this.route('POST', '/platform/organizations/:org/workPlans', (req, p) =>
      this.guard(req, p, () => this.workPlan(req, p)),
    );
  }

  get baseUrl(): string {
    return `${this.url}/platform`;
  }
  get tokenUrl(): string {
    return `${this.url}/oauth2/default/v1/token`;
  }

  /** Revoke every issued access token (the next data call gets 401). */
  revokeTokens(): void {
    this.validTokens.clear();
  }

  private token(req: RecordedRequest): Reply {
    const c = new Checks();
    c.that(
      req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true,
      'token request must be application/x-www-form-urlencoded',
    );
    const auth = basicAuthOf(req.headers.authorization);
    if (!auth || auth.id !== DEERE_CLIENT.id || auth.secret !== DEERE_CLIENT.secret)
      return { status: 401, body: { error: 'invalid_client' } };
    const form = new URLSearchParams(req.body);
    const grant = form.get('grant_type');
    if (grant === 'refresh_token') {
      if (form.get('refresh_token') !== DEERE_CLIENT.refreshToken)
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'The refresh token is invalid or expired.' },
        };
    } else if (grant !== 'client_credentials') {
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    }
    const token = `deere-access-${++this.tokenCount}`;
    this.validTokens.add(token);
    return c.reply({
      status: 200,
      body: {
        token_type: 'Bearer',
        expires_in: 43_200,
        access_token: token,
        scope: 'ag1 ag2 ag3 work2 offline_access',
      },
    });
  }

  private guard(req: RecordedRequest, p: Record<string, string>, next: () => Reply): Reply {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !this.validTokens.has(auth.slice(7)))
      return { status: 401, body: { message: 'Unauthorized' } };
    if (req.headers.accept !== MEDIA) return { status: 406, body: { message: `Accept must be ${MEDIA}` } };
    if (req.headers['content-type'] !== MEDIA)
      return { status: 415, body: { message: `Content-Type must be ${MEDIA}` } };
    const fields = this.organizations.get(p.org);
    if (!fields) return { status: 403, body: { message: 'no access to this organization' } };
    if (p.field !== undefined && !fields.has(p.field)) return { status: 404, body: { message: 'field not found' } };
    return next();
  }

  private location(path: string): Reply {
    return {
      status: 201,
      headers: {
        Location: `${this.url}${path}/${(++this.created).toString().padStart(8, '0')}-0000-4000-8000-000000000000`,
      },
    };
  }

  private point(c: Checks, v: unknown, where: string): void {
    const p = v as Record<string, unknown> | undefined;
    c.that(p?.['@type'] === 'Point', `${where}.@type must be Point`);
    c.that(isNumber(p?.lat) && Math.abs(p!.lat as number) <= 90, `${where}.lat must be a latitude`);
    c.that(isNumber(p?.lon) && Math.abs(p!.lon as number) <= 180, `${where}.lon must be a longitude`);
  }

  private boundary(req: RecordedRequest): Reply {
    const b = req.json as Record<string, unknown> | undefined;
    const c = new Checks();
    c.that(typeof b?.name === 'string' && (b.name as string).length > 0, 'name is required');
    c.that(b?.sourceType === undefined || typeof b.sourceType === 'string', 'sourceType must be a string');
    c.that(typeof b?.active === 'boolean' || b?.active === undefined, 'active must be a boolean');
    const mps = b?.multipolygons;
    c.that(Array.isArray(mps) && mps.length > 0, 'multipolygons must be a non-empty array');
    (Array.isArray(mps) ? mps : []).forEach((mp: Record<string, unknown>, i: number) => {
      c.that(mp?.['@type'] === 'Polygon', `multipolygons[${i}].@type must be Polygon`);
      const rings = mp?.rings as Record<string, unknown>[] | undefined;
      c.that(Array.isArray(rings) && rings.length > 0, `multipolygons[${i}].rings must be a non-empty array`);
      (rings ?? []).forEach((r, j) => {
        const where = `multipolygons[${i}].rings[${j}]`;
        c.that(r?.['@type'] === 'Ring', `${where}.@type must be Ring`);
        c.that(
          r?.type === (j === 0 ? 'exterior' : 'interior'),
          `${where}.type must be ${j === 0 ? 'exterior' : 'interior'}`,
        );
        c.that(typeof r?.passable === 'boolean', `${where}.passable must be a boolean`);
        const pts = r?.points as unknown[] | undefined;
        c.that(Array.isArray(pts) && pts.length >= 4, `${where}.points needs at least 4 points (closed ring)`);
        (pts ?? []).forEach((pt, k) => this.point(c, pt, `${where}.points[${k}]`));
        if (Array.isArray(pts) && pts.length >= 4) {
          const f = pts[0] as Record<string, number>,
            l = pts[pts.length - 1] as Record<string, number>;
          c.that(f.lat === l.lat && f.lon === l.lon, `${where} must be closed`);
        }
      });
    });
    return c.reply(this.location(req.path));
  }

  /** An AB Curve: its points in order (at least 3), A its first and B its last. */
  private curve(c: Checks, b: Record<string, unknown>): void {
    const points = b.points as unknown[] | undefined;
    c.that(Array.isArray(points) && points.length >= 3, 'an ABCurve needs points[] (at least 3)');
    if (!Array.isArray(points) || points.length < 3) return;
    points.forEach((q, k) => this.point(c, q, `points[${k}]`));
    const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);
    c.that(same(points[0], b.aPoint), 'aPoint must be the first point of the curve');
    c.that(same(points[points.length - 1], b.bPoint), 'bPoint must be the last point of the curve');
  }

  private guidanceLine(req: RecordedRequest, p: Record<string, string>): Reply {
    const b = req.json as Record<string, unknown> | undefined;
    const c = new Checks();
    c.that(b?.['@type'] === 'ABLine' || b?.['@type'] === 'ABCurve', '@type must be ABLine or ABCurve');
    c.that(typeof b?.name === 'string' && (b.name as string).length > 0, 'name is required');
    this.point(c, b?.aPoint, 'aPoint');
    c.that((b?.bPoint === undefined) !== (b?.heading === undefined), 'give exactly one of bPoint and heading');
    if (b?.bPoint !== undefined) this.point(c, b.bPoint, 'bPoint');
    if (b?.['@type'] === 'ABCurve') this.curve(c, b);
    c.that(
      b?.fieldUri === `${this.baseUrl}/organizations/${p.org}/fields/${p.field}`,
      'fieldUri must be the field this line is posted to',
    );
    c.that(
      b?.tramOffset === undefined ||
        (Number.isInteger(b.tramOffset) && (b.tramOffset as number) >= 0 && (b.tramOffset as number) <= 20),
      'tramOffset must be 0-20',
    );
    const reply = c.reply(this.location(req.path));
    if (reply.status === 201) this.guidanceLines.add(reply.headers!.Location);
    return reply;
  }

  private workPlan(req: RecordedRequest, p: Record<string, string>): Reply {
    const b = req.json as Record<string, unknown> | undefined;
    const c = new Checks();
    const loc = b?.location as Record<string, unknown> | undefined;
    c.that(
      typeof loc?.fieldUri === 'string' &&
        (loc.fieldUri as string).startsWith(`${this.baseUrl}/organizations/${p.org}/fields/`),
      'location.fieldUri must be a field of this organization',
    );
    const wt = b?.workType as Record<string, unknown> | undefined;
    c.that(
      wt?.representationDomainId === 'dtOperationClass',
      'workType.representationDomainId must be dtOperationClass',
    );
    c.that(
      ['dtiTillage', 'dtiSeeding', 'dtiApplication', 'dtiHarvest'].includes(wt?.instanceDomainId as string),
      'workType.instanceDomainId must be a dtOperationClass instance',
    );
    c.that(Number.isInteger(b?.year), 'year must be an integer');
    const ops = b?.operations as unknown[] | undefined;
    c.that(Array.isArray(ops) && ops.length >= 1 && ops.length <= 2, 'operations must hold 1 or 2 operations');
    const gs = b?.guidanceSettings as Record<string, Record<string, unknown>> | undefined;
    const pref = gs?.preferenceSettings;
    c.that(
      pref?.entityType === 'GUIDANCE_LINE' && typeof pref?.entityUri === 'string',
      'guidanceSettings.preferenceSettings must name a GUIDANCE_LINE',
    );
    c.that(
      typeof pref?.entityUri !== 'string' || this.guidanceLines.has(pref.entityUri as string),
      'guidanceSettings.preferenceSettings.entityUri is not a guidance line of this organization',
    );
    c.that(
      b?.instructions === undefined || (typeof b.instructions === 'string' && (b.instructions as string).length <= 255),
      'instructions at most 255 characters',
    );
    return c.reply(this.location(req.path));
  }
}
