/**
 * Trimble Agriculture (Ag Data API 3.0) push: boundary and guidance line (AB, or a curve where the
 * plan has no working track) for an existing field of an organization.
 */
import type { Plan } from '@furrow/core';
import { PortalError, checkPortalTarget } from './errors.js';
import { PortalHttp, type PortalHttpDeps, type RetryPolicy } from './http.js';
import { OAuthTokenSource, type OAuthConfig, type TokenSourceDeps } from './oauth.js';
import type { PlannedRequest, PushedResource } from './deere.js';
import { guidanceOf, trimbleBoundaryBody, trimbleGuidanceBody } from './shapes.js';

export const TRIMBLE_BASE_URL = 'https://cloud.api.trimble.com/Trimble-Ag-Software/externalApi/3.0';
export const TRIMBLE_TOKEN_URL = 'https://id.trimble.com/oauth/token';

export interface TrimbleConfig {
  baseUrl?: string;
  /** For client credentials Trimble expects the application (client) name as `scope`. */
  oauth: Omit<OAuthConfig, 'tokenUrl'> & { tokenUrl?: string };
  retry?: RetryPolicy;
  /** The account takes curve guidance lines (default true). false: AB lines only. */
  guidanceCurves?: boolean;
}

export interface TrimbleTarget {
  organizationId: string;
  fieldId: string;
}

export interface TrimblePushOptions {
  boundaryName?: string;
  guidanceLineName?: string;
  boundary?: boolean;
  /** Curves may be pushed (default true; the client takes its configuration's `guidanceCurves`). */
  guidanceCurves?: boolean;
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

function defaultNames(plan: Plan, o: TrimblePushOptions, curve = false): { boundary: string; line: string } {
  const base = `furrow ${plan.heading ? `${Math.round(plan.heading.degrees)}°` : ''}`.trim();
  return {
    boundary: o.boundaryName ?? `${base} boundary`,
    line: o.guidanceLineName ?? `${base} ${curve ? 'curve' : 'AB'}`,
  };
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
  const guidance = guidanceOf(plan, 'trimble', { curves: o.guidanceCurves });
  const names = defaultNames(plan, o, guidance.kind === 'curve');
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
    body: trimbleGuidanceBody(guidance, { fieldId: t.fieldId, name: names.line }),
  });
  return out;
}

export class TrimbleClient {
  readonly tokens: OAuthTokenSource;
  readonly http: PortalHttp;
  /** Whether the account takes curve guidance lines (the configuration's `guidanceCurves`). */
  readonly guidanceCurves: boolean;

  constructor(config: TrimbleConfig, deps: TrimbleClientDeps = {}) {
    if (!config?.oauth) throw new PortalError('trimble', 'portal-config', 'trimble: oauth configuration is required');
    this.guidanceCurves = config.guidanceCurves !== false;
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
    const guidance = guidanceOf(plan, 'trimble', { curves: this.guidanceCurves });
    const res = await this.http.postJson(
      `/resources/${encodeURIComponent(t.organizationId)}/guidancelines`,
      trimbleGuidanceBody(guidance, { fieldId: t.fieldId, name }),
      guidance.kind === 'ab' ? 'creating the AB guidance line' : 'creating the curve guidance line',
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
    const guidance = guidanceOf(plan, 'trimble', { curves: this.guidanceCurves }); // fail before sending anything
    const names = defaultNames(plan, o, guidance.kind === 'curve');
    const out: PushedResource[] = [];
    if (o.boundary !== false) out.push(await this.pushBoundary(plan, t, names.boundary));
    out.push(await this.pushGuidanceLine(plan, t, names.line));
    return out;
  }
}
