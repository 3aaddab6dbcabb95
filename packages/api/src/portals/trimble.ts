/**
 * Trimble Agriculture (Ag Data API 3.0) push: boundary and AB guidance line for an existing
 * field of an organization.
 */
import type { Plan } from '@furrow/core';
import { PortalError, checkPortalTarget } from './errors.js';
import { PortalHttp, type PortalHttpDeps, type RetryPolicy } from './http.js';
import { OAuthTokenSource, type OAuthConfig, type TokenSourceDeps } from './oauth.js';
import type { PlannedRequest, PushedResource } from './deere.js';
import { abLineOf, trimbleAbLineBody, trimbleBoundaryBody } from './shapes.js';

export const TRIMBLE_BASE_URL = 'https://cloud.api.trimble.com/Trimble-Ag-Software/externalApi/3.0';
export const TRIMBLE_TOKEN_URL = 'https://id.trimble.com/oauth/token';

export interface TrimbleConfig {
  baseUrl?: string;
  /** For client credentials Trimble expects the application (client) name as `scope`. */
  oauth: Omit<OAuthConfig, 'tokenUrl'> & { tokenUrl?: string };
  retry?: RetryPolicy;
}

export interface TrimbleTarget {
  organizationId: string;
  fieldId: string;
}

export interface TrimblePushOptions {
  boundaryName?: string;
  guidanceLineName?: string;
  boundary?: boolean;
}

export interface TrimbleClientDeps extends TokenSourceDeps, PortalHttpDeps {}

function checkTarget(t: TrimbleTarget): void {
  checkPortalTarget('trimble', t);
}

/** The id of a created resource from Trimble's answer body (`id` or `result.id`). */
function idOf(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.id === 'string') return b.id;
    const r = b.result as Record<string, unknown> | undefined;
    if (r && typeof r.id === 'string') return r.id;
  }
  return null;
}

function defaultNames(plan: Plan, o: TrimblePushOptions): { boundary: string; line: string } {
  const base = `furrow ${plan.heading ? `${Math.round(plan.heading.degrees)}°` : ''}`.trim();
  return { boundary: o.boundaryName ?? `${base} boundary`, line: o.guidanceLineName ?? `${base} AB` };
}

/** The requests `pushPlan` would send, without sending them (no credentials needed). */
export function previewTrimblePush(
  plan: Plan,
  t: TrimbleTarget,
  o: TrimblePushOptions = {},
  baseUrl = TRIMBLE_BASE_URL,
): PlannedRequest[] {
  checkTarget(t);
  const root = `${baseUrl.replace(/\/+$/, '')}/resources/${encodeURIComponent(t.organizationId)}`;
  const names = defaultNames(plan, o);
  const out: PlannedRequest[] = [];
  if (o.boundary !== false)
    out.push({
      method: 'POST',
      url: `${root}/boundaries`,
      body: trimbleBoundaryBody(plan.boundary, { fieldId: t.fieldId, name: names.boundary }),
    });
  out.push({
    method: 'POST',
    url: `${root}/guidancelines`,
    body: trimbleAbLineBody(abLineOf(plan, 'trimble'), { fieldId: t.fieldId, name: names.line }),
  });
  return out;
}

export class TrimbleClient {
  readonly tokens: OAuthTokenSource;
  readonly http: PortalHttp;

  constructor(config: TrimbleConfig, deps: TrimbleClientDeps = {}) {
    if (!config?.oauth) throw new PortalError('trimble', 'portal-config', 'trimble: oauth configuration is required');
    this.tokens = new OAuthTokenSource(
      'trimble',
      { ...config.oauth, tokenUrl: config.oauth.tokenUrl ?? TRIMBLE_TOKEN_URL },
      deps,
    );
    this.http = new PortalHttp(
      'trimble',
      config.baseUrl ?? TRIMBLE_BASE_URL,
      this.tokens,
      'application/json',
      config.retry,
      deps,
    );
  }

  async pushBoundary(plan: Plan, t: TrimbleTarget, name: string): Promise<PushedResource> {
    checkTarget(t);
    const res = await this.http.postJson(
      `/resources/${encodeURIComponent(t.organizationId)}/boundaries`,
      trimbleBoundaryBody(plan.boundary, { fieldId: t.fieldId, name }),
      'creating the boundary',
    );
    return {
      kind: 'boundary',
      uri: idOf(res.body) ?? res.headers.get('location'),
      status: res.status,
      attempts: res.attempts,
    };
  }

  async pushGuidanceLine(plan: Plan, t: TrimbleTarget, name: string): Promise<PushedResource> {
    checkTarget(t);
    const res = await this.http.postJson(
      `/resources/${encodeURIComponent(t.organizationId)}/guidancelines`,
      trimbleAbLineBody(abLineOf(plan, 'trimble'), { fieldId: t.fieldId, name }),
      'creating the AB guidance line',
    );
    return {
      kind: 'guidanceLine',
      uri: idOf(res.body) ?? res.headers.get('location'),
      status: res.status,
      attempts: res.attempts,
    };
  }

  async pushPlan(plan: Plan, t: TrimbleTarget, o: TrimblePushOptions = {}): Promise<PushedResource[]> {
    checkTarget(t);
    abLineOf(plan, 'trimble');
    const names = defaultNames(plan, o);
    const out: PushedResource[] = [];
    if (o.boundary !== false) out.push(await this.pushBoundary(plan, t, names.boundary));
    out.push(await this.pushGuidanceLine(plan, t, names.line));
    return out;
  }
}
