/**
 * The app's calls to the furrow API (same origin). Every call but the launch exchange sends the
 * session's JWT as `Authorization: Bearer`. Errors become `ApiError` with the body's code and
 * message (the API's error bodies, docs/api.md "Errors") so pages can say what went wrong.
 */
import type { FeatureCollection, Geometry, Position } from './geo.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly correlationId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * `err` as this bundle's ApiError: an ApiError of another bundle (the head start's early script
 * has its own copy of the class) becomes one again; anything else is returned as it is.
 */
export function asApiError(err: unknown): unknown {
  if (err instanceof ApiError || !(err instanceof Error) || err.name !== 'ApiError') return err;
  const e = err as Error & { status?: unknown; code?: unknown; correlationId?: unknown };
  if (typeof e.status !== 'number' || typeof e.code !== 'string') return err;
  return new ApiError(e.status, e.code, e.message, typeof e.correlationId === 'string' ? e.correlationId : undefined);
}

/** Paths of the API the app uses, in one place. */
export const endpoints = {
  exchange: '/api/partner/launch/exchange',
  currentUser: '/api/user/current',
  boundary: (boundaryId: string) => `/api/boundaries/${encodeURIComponent(boundaryId)}`,
  planGeoJson: (boundaryId?: string) =>
    `/api/path-plans/direct/geojson${boundaryId ? `?boundaryId=${encodeURIComponent(boundaryId)}` : ''}`,
  planFleetGeoJson: (boundaryId?: string) =>
    `/api/path-plans/fleet/geojson${boundaryId ? `?boundaryId=${encodeURIComponent(boundaryId)}` : ''}`,
  savePlan: (boundaryId: string) => `/api/boundaries/${encodeURIComponent(boundaryId)}/plans`,
  exportPlan: (planId: string, format: string) =>
    `/api/plans/${encodeURIComponent(planId)}/export?format=${encodeURIComponent(format)}`,
  plansOfField: (fieldId: string, offset: number, limit = 1) =>
    `/api/fields/${encodeURIComponent(fieldId)}/plans?limit=${limit}&offset=${offset}`,
  storedPlan: (planId: string) => `/api/plans/${encodeURIComponent(planId)}`,
  fieldsOfCompany: (companyId: string) => `/api/companies/${encodeURIComponent(companyId)}/fields?limit=500`,
  credits: '/api/credits',
  readBoundaries: (filename: string) => `/api/boundaries/read?filename=${encodeURIComponent(filename)}`,
  growers: (companyId: string) => `/api/companies/${encodeURIComponent(companyId)}/growers`,
  farms: (growerId: string) => `/api/growers/${encodeURIComponent(growerId)}/farms`,
  saveField: '/api/fields/save',
  planInputs: (boundaryId: string) => `/api/boundaries/${encodeURIComponent(boundaryId)}/plan-inputs`,
  machineProfiles: (companyId: string) => `/api/companies/${encodeURIComponent(companyId)}/machine-profiles`,
  machineProfile: (profileId: string) => `/api/machine-profiles/${encodeURIComponent(profileId)}`,
  myApiKeys: '/api/user/api-keys',
  myApiKey: (keyId: string) => `/api/user/api-keys/${encodeURIComponent(keyId)}`,
} as const;

/** One of the user's API keys as listed (never its secret). */
export interface ApiKeyInfo {
  keyId: string;
  name: string;
  createdAt: string;
  revokedAt: string | null;
  expiresAt: string | null;
}

/** A key just created: the only time its secret (`apiKey`) is seen. */
export interface CreatedApiKey {
  keyId: string;
  apiKey: string;
  name: string;
  expiresAt: string | null;
}

/** Credit balances of the user and of the companies it can access. */
export interface Credits {
  user: { userId: string; balance: number };
  companies: { companyId: string; balance: number }[];
  /** What one plan costs (older servers do not say: 1). */
  planCostCredits?: number;
}

/** Export formats offered for download (the formats packages), with file names. */
export const EXPORT_FORMATS: readonly { id: string; label: string; extension: string }[] = [
  { id: 'geojson', label: 'GeoJSON', extension: 'geojson' },
  { id: 'json', label: 'Plan JSON', extension: 'json' },
  { id: 'kml', label: 'KML', extension: 'kml' },
  { id: 'wkt', label: 'WKT', extension: 'wkt' },
  { id: 'shapefile', label: 'Shapefile (zip)', extension: 'zip' },
  { id: 'isoxml', label: 'ISO-XML TASKDATA (zip)', extension: 'zip' },
  { id: 'agopengps', label: 'AgOpenGPS field (zip)', extension: 'zip' },
  { id: 'trimble', label: 'Trimble', extension: 'zip' },
  { id: 'johndeere', label: 'John Deere', extension: 'zip' },
  { id: 'cnh', label: 'CNH', extension: 'zip' },
  { id: 'fendt', label: 'Fendt', extension: 'zip' },
  { id: 'mueller', label: 'Müller-Elektronik', extension: 'zip' },
];

/** The download's file name: the server's Content-Disposition one when it gives one. */
export function fileNameFrom(contentDisposition: string | null, fallback: string): string {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(contentDisposition ?? '');
  if (!m) return fallback;
  let name = m[1];
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep as is
  }
  return /^[A-Za-z0-9._ -]{1,120}$/.test(name) ? name : fallback;
}

export function errorFromBody(status: number, body: unknown, fallback: string): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const e = (typeof b['error'] === 'object' && b['error'] !== null ? b['error'] : b) as Record<string, unknown>;
  const code = [e['code'], b['errorCode']].find((v): v is string => typeof v === 'string') ?? `HTTP${status}`;
  const message = [e['message'], b['message']].find((v): v is string => typeof v === 'string') ?? fallback;
  const correlationId = typeof b['correlationId'] === 'string' ? b['correlationId'] : undefined;
  return new ApiError(status, code, message, correlationId);
}

export interface ApiClientOptions {
  /** Returns the session token, or undefined when there is none (then calls go without it). */
  token: () => string | undefined;
  /** Called on a 401 from an authenticated call (the session is no longer valid). */
  onUnauthorized?: () => void;
  fetchImpl?: typeof fetch;
}

export class ApiClient {
  constructor(private readonly opts: ApiClientOptions) {}

  private async call(method: string, path: string, body?: unknown, authenticated = true): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const raw = body instanceof Uint8Array || body instanceof Blob;
    if (body !== undefined) headers['content-type'] = raw ? 'application/octet-stream' : 'application/json';
    const token = authenticated ? this.opts.token() : undefined;
    if (token) headers['authorization'] = `Bearer ${token}`;
    let res: Response;
    try {
      res = await (this.opts.fetchImpl ?? fetch)(path, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: raw ? (body as BodyInit) : JSON.stringify(body) } : {}),
      });
    } catch {
      throw new ApiError(
        0,
        'NetworkError',
        'The furrow server could not be reached. Check the connection and try again.',
      );
    }
    if (!res.ok) {
      let parsed: unknown;
      try {
        parsed = await res.json();
      } catch {
        parsed = undefined;
      }
      if (res.status === 401 && authenticated) this.opts.onUnauthorized?.();
      throw errorFromBody(res.status, parsed, `${method} ${path} failed with HTTP ${res.status}`);
    }
    return res;
  }

  async json<T>(method: string, path: string, body?: unknown, authenticated = true): Promise<T> {
    const res = await this.call(method, path, body, authenticated);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }

  exchangeLaunchCode(code: string, userId: string): Promise<unknown> {
    return this.json('POST', endpoints.exchange, { code, userId }, false);
  }

  currentUser(): Promise<unknown> {
    return this.json('GET', endpoints.currentUser);
  }

  async boundary(boundaryId: string): Promise<StoredBoundary> {
    const body = await this.json<unknown>('GET', endpoints.boundary(boundaryId));
    const b = normalizeBoundary(body);
    if (!b) throw new ApiError(500, 'BadBoundary', `Boundary ${boundaryId} came back without a usable geometry.`);
    return b;
  }

  /** Plans `request`; with the stored boundary it plans, the boundary's company pays for it. */
  planGeoJson(request: unknown, boundaryId?: string): Promise<FeatureCollection> {
    return this.json('POST', endpoints.planGeoJson(boundaryId), request);
  }

  /** Plans a fleet (`fleet` instead of `machine`, docs/fleet.md); with the stored boundary, its company pays. */
  planFleetGeoJson(request: unknown, boundaryId?: string): Promise<FeatureCollection> {
    return this.json('POST', endpoints.planFleetGeoJson(boundaryId), request);
  }

  /** Fields of a company that have a boundary, as selector options (value = boundaryId). */
  async fieldsOfCompany(companyId: string): Promise<{ value: string; label: string }[]> {
    const body = await this.json<{ items?: unknown }>('GET', endpoints.fieldsOfCompany(companyId));
    const items = Array.isArray(body?.items) ? (body.items as Record<string, unknown>[]) : [];
    return items
      .filter((f) => typeof f['boundaryId'] === 'string')
      .map((f) => ({
        value: f['boundaryId'] as string,
        label: typeof f['name'] === 'string' ? f['name'] : (f['boundaryId'] as string),
      }));
  }

  /** The newest stored plan of a field (id, boundary, request), or undefined when none. */
  async latestPlanOfField(
    fieldId: string,
  ): Promise<{ planId: string; boundaryId?: string; request: unknown } | undefined> {
    const first = await this.json<{ total?: number }>('GET', endpoints.plansOfField(fieldId, 0));
    const total = typeof first?.total === 'number' ? first.total : 0;
    if (total === 0) return undefined;
    const page = await this.json<{ items?: Record<string, unknown>[] }>(
      'GET',
      endpoints.plansOfField(fieldId, total - 1),
    );
    const item = page?.items?.[0];
    if (!item || typeof item['planId'] !== 'string') return undefined;
    return {
      planId: item['planId'],
      ...(typeof item['boundaryId'] === 'string' ? { boundaryId: item['boundaryId'] } : {}),
      request: item['request'],
    };
  }

  /** The stored plans of a field, oldest first (at most 100). */
  async plansOfField(fieldId: string): Promise<{ planId: string; createdAt: string; boundaryId?: string }[]> {
    const page = await this.json<{ items?: Record<string, unknown>[] }>('GET', endpoints.plansOfField(fieldId, 0, 100));
    return (page?.items ?? [])
      .filter((i) => typeof i['planId'] === 'string')
      .map((i) => ({
        planId: i['planId'] as string,
        createdAt: typeof i['createdAt'] === 'string' ? i['createdAt'] : '',
        ...(typeof i['boundaryId'] === 'string' ? { boundaryId: i['boundaryId'] } : {}),
      }));
  }

  /** A stored plan's metrics and request. */
  async storedPlan(planId: string): Promise<{ metrics: Record<string, unknown>; request: unknown }> {
    const body = await this.json<{ plan?: { metrics?: Record<string, unknown> }; request?: unknown }>(
      'GET',
      endpoints.storedPlan(planId),
    );
    return { metrics: body?.plan?.metrics ?? {}, request: body?.request };
  }

  /** A stored plan as plan GeoJSON (the server's rendering). */
  async storedPlanGeoJson(planId: string): Promise<FeatureCollection> {
    const res = await this.call('GET', endpoints.exportPlan(planId, 'geojson'));
    return (await res.json()) as FeatureCollection;
  }

  savePlan(boundaryId: string, request: unknown): Promise<unknown> {
    return this.json('POST', endpoints.savePlan(boundaryId), { request });
  }

  /** The polygons of a boundary file (read by the API's format packages; nothing stored). */
  async readBoundaries(file: Blob, filename: string): Promise<{ name: string | null; geometry: Geometry }[]> {
    const res = await this.call('POST', endpoints.readBoundaries(filename), file);
    const body = (await res.json()) as { items?: { name: string | null; geometry: Geometry }[] };
    return Array.isArray(body?.items) ? body.items : [];
  }

  /** The first farm of the company's first grower, created ("<company>", "Main farm") when there is none. */
  async farmOf(companyId: string, companyName: string): Promise<string> {
    const growers = await this.json<{ items?: { growerId: string }[] }>('GET', endpoints.growers(companyId));
    const growerId =
      growers?.items?.[0]?.growerId ??
      (await this.json<{ growerId: string }>('POST', endpoints.growers(companyId), { name: companyName })).growerId;
    const farms = await this.json<{ items?: { farmId: string }[] }>('GET', endpoints.farms(growerId));
    return (
      farms?.items?.[0]?.farmId ??
      (await this.json<{ farmId: string }>('POST', endpoints.farms(growerId), { name: 'Main farm' })).farmId
    );
  }

  /**
   * Saves a field with its boundary rings (outer first, then the holes: no-go obstacles), and what
   * its plans take: passable zones, gates and the start point.
   */
  async saveField(
    farmId: string,
    name: string,
    rings: Position[][],
    inputs: Omit<FieldInputs, 'obstacles'> = {},
  ): Promise<{ fieldId: string; boundaryId: string }> {
    const body = await this.json<{ field: { fieldId: string }; vBoundary: { boundaryId: string } }>(
      'POST',
      endpoints.saveField,
      {
        farmId,
        name,
        boundary: rings,
        ...(inputs.passableZones?.length
          ? { obstacles: inputs.passableZones.map((geometry) => ({ geometry, passable: true })) }
          : {}),
        ...(inputs.accessPoints?.length ? { accessPoints: inputs.accessPoints } : {}),
        ...(inputs.stagingArea ? { stagingArea: inputs.stagingArea } : {}),
      },
    );
    return { fieldId: body.field.fieldId, boundaryId: body.vBoundary.boundaryId };
  }

  /** Replaces what a stored field's plans take (its obstacles, passable zones, gates, start point). */
  async setPlanInputs(boundaryId: string, inputs: FieldInputs): Promise<StoredBoundary> {
    const body = await this.json<unknown>('PUT', endpoints.planInputs(boundaryId), {
      ...(inputs.obstacles.length > 0 || inputs.passableZones?.length
        ? {
            obstacles: [
              ...inputs.obstacles.map((geometry) => ({ geometry })),
              ...(inputs.passableZones ?? []).map((geometry) => ({ geometry, passable: true })),
            ],
          }
        : {}),
      ...(inputs.accessPoints?.length ? { accessPoints: inputs.accessPoints } : {}),
      ...(inputs.stagingArea ? { stagingArea: inputs.stagingArea } : {}),
    });
    const b = normalizeBoundary(body);
    if (!b) throw new ApiError(500, 'BadBoundary', `Boundary ${boundaryId} came back without a usable geometry.`);
    return b;
  }

  /** The company's machine profiles, by name. */
  async machineProfiles(companyId: string): Promise<StoredMachineProfile[]> {
    const body = await this.json<{ items?: StoredMachineProfile[] }>('GET', endpoints.machineProfiles(companyId));
    return Array.isArray(body?.items) ? body.items : [];
  }

  /** Saves a profile for the company, or replaces the one with `profileId`. */
  saveMachineProfile(
    companyId: string,
    profile: { name: string; machine: Record<string, unknown> },
    profileId?: string,
  ): Promise<StoredMachineProfile> {
    return profileId
      ? this.json('PUT', endpoints.machineProfile(profileId), profile)
      : this.json('POST', endpoints.machineProfiles(companyId), profile);
  }

  credits(): Promise<Credits> {
    return this.json('GET', endpoints.credits);
  }

  /** The signed-in user's own API keys. */
  async myApiKeys(): Promise<ApiKeyInfo[]> {
    const body = await this.json<{ items?: ApiKeyInfo[] }>('GET', endpoints.myApiKeys);
    return Array.isArray(body?.items) ? body.items : [];
  }

  createMyApiKey(name: string): Promise<CreatedApiKey> {
    return this.json('POST', endpoints.myApiKeys, { name });
  }

  revokeMyApiKey(keyId: string): Promise<ApiKeyInfo> {
    return this.json('DELETE', endpoints.myApiKey(keyId));
  }

  /** Downloads an export of a stored plan: its bytes and the server's file name, if any. */
  async exportPlan(planId: string, format: string): Promise<{ blob: Blob; fileName: string | null }> {
    const res = await this.call('GET', endpoints.exportPlan(planId, format));
    return { blob: await res.blob(), fileName: res.headers.get('content-disposition') };
  }
}

/** What a plan of a field takes besides its polygon (the path-plan request's names). */
export interface FieldInputs {
  /** No-go obstacles stored with the field (GeoJSON Polygons), besides the boundary's holes. */
  obstacles: Geometry[];
  /** Passable zones: driven over, never worked (`obstacles[]` with `passable: true`). */
  passableZones?: Geometry[];
  /** The field's gates, [lon, lat] each (`accessPoints`). */
  accessPoints?: Position[];
  /** Where the machine starts and ends (`routeOptions.stagingArea`). */
  stagingArea?: Position;
}

/** A stored boundary as the app uses it. */
export interface StoredBoundary extends FieldInputs {
  boundaryId?: string;
  fieldId?: string;
  companyId?: string;
  name?: string;
  geometry: Geometry;
  /** The newest stored plan of this boundary: null when none, undefined when the server does not say. */
  latestPlanId?: string | null;
}

/** A machine profile of a company, as the API keeps it. */
export interface StoredMachineProfile {
  profileId: string;
  name: string;
  machine: Record<string, unknown>;
}

function isPosition(v: unknown): v is Position {
  return Array.isArray(v) && v.length >= 2 && Number.isFinite(v[0]) && Number.isFinite(v[1]);
}

function closedRings(v: unknown): Position[][] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const ok = v.every(
    (r) =>
      Array.isArray(r) &&
      r.length >= 4 &&
      r.every((p) => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number'),
  );
  return ok ? (v as Position[][]) : undefined;
}

function asGeometry(v: unknown): Geometry | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (o['type'] === 'Polygon' || o['type'] === 'MultiPolygon') return o as unknown as Geometry;
  if (o['type'] === 'Feature') return asGeometry(o['geometry']);
  if (o['type'] === 'FeatureCollection' && Array.isArray(o['features'])) {
    for (const f of o['features']) {
      const g = asGeometry(f);
      if (g) return g;
    }
  }
  const rings = closedRings(v);
  return rings ? { type: 'Polygon', coordinates: rings } : undefined;
}

/**
 * Reads a boundary from what the API returns for it: a GeoJSON geometry / Feature, or an object
 * with `geometry`, `boundary` (GeoJSON or rings of [lon, lat]), `rings` or `coordinates`,
 * possibly wrapped in `vBoundary` / `boundary`.
 */
export function normalizeBoundary(body: unknown): StoredBoundary | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const o = body as Record<string, unknown>;
  const direct = asGeometry(o);
  if (direct && o['type'] !== undefined) return { geometry: direct, obstacles: [] };
  const inner = (typeof o['vBoundary'] === 'object' && o['vBoundary'] !== null ? o['vBoundary'] : o) as Record<
    string,
    unknown
  >;
  const geometry =
    asGeometry(inner['geometry']) ??
    asGeometry(inner['boundary']) ??
    asGeometry(inner['rings']) ??
    asGeometry(inner['coordinates']) ??
    (inner !== o ? undefined : asGeometry(o['boundary']));
  if (!geometry) return undefined;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const field = (typeof o['field'] === 'object' && o['field'] !== null ? o['field'] : {}) as Record<string, unknown>;
  const listed: unknown[] = Array.isArray(inner['obstacles'])
    ? inner['obstacles']
    : Array.isArray(o['obstacles'])
      ? o['obstacles']
      : [];
  const obstacles: Geometry[] = [];
  const passableZones: Geometry[] = [];
  for (const x of listed) {
    const g = asGeometry((x as Record<string, unknown>)?.['geometry'] ?? x);
    if (g) ((x as Record<string, unknown>)['passable'] === true ? passableZones : obstacles).push(g);
  }
  const accessPoints = (Array.isArray(inner['accessPoints']) ? (inner['accessPoints'] as unknown[]) : []).filter(
    isPosition,
  );
  const stagingArea = isPosition(inner['stagingArea']) ? inner['stagingArea'] : undefined;
  const boundaryId = str(inner['boundaryId']) ?? str(o['boundaryId']);
  const fieldId = str(inner['fieldId']) ?? str(o['fieldId']) ?? str(field['fieldId']);
  const companyId = str(inner['companyId']) ?? str(o['companyId']);
  const name = str(o['name']) ?? str(field['name']) ?? str(inner['name']);
  return {
    geometry,
    obstacles,
    ...(passableZones.length > 0 ? { passableZones } : {}),
    ...(accessPoints.length > 0 ? { accessPoints } : {}),
    ...(stagingArea ? { stagingArea } : {}),
    ...(inner['latestPlanId'] === null || typeof inner['latestPlanId'] === 'string'
      ? { latestPlanId: inner['latestPlanId'] }
      : {}),
    ...(boundaryId ? { boundaryId } : {}),
    ...(fieldId ? { fieldId } : {}),
    ...(companyId ? { companyId } : {}),
    ...(name ? { name } : {}),
  };
}
