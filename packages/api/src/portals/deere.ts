/**
 * John Deere Operations Center push: boundary, guidance line (AB, or a curve where the plan has no
 * working track) and (optionally) a work plan that selects that guidance line, for an existing
 * field of an organization.
 */
import type { Plan } from '@furrow/core';
import { PortalError, checkPortalTarget } from './errors.js';
import { PortalHttp, type PortalHttpDeps, type RetryPolicy } from './http.js';
import { OAuthTokenSource, type OAuthConfig, type TokenSourceDeps } from './oauth.js';
import { deereBoundaryBody, deereGuidanceBody, deereWorkPlanBody, guidanceOf, type DeereWorkType } from './shapes.js';

export const DEERE_MEDIA_TYPE = 'application/vnd.deere.axiom.v3+json';
export const DEERE_SANDBOX_BASE_URL = 'https://sandboxapi.deere.com/platform';
export const DEERE_PRODUCTION_BASE_URL = 'https://partnerapi.deere.com/platform';
export const DEERE_TOKEN_URL = 'https://signin.johndeere.com/oauth2/aus78tnlaysMraFhC1t7/v1/token';

export interface DeereConfig {
  /** API root (default the sandbox, https://sandboxapi.deere.com/platform). */
  baseUrl?: string;
  oauth: Omit<OAuthConfig, 'tokenUrl'> & { tokenUrl?: string };
  retry?: RetryPolicy;
  /** The account takes curve guidance lines (AB Curve; default true). false: AB lines only. */
  guidanceCurves?: boolean;
}

export interface DeereTarget {
  organizationId: string;
  fieldId: string;
}

export interface DeerePushOptions {
  /** Names shown in Operations Center (default from the plan). */
  boundaryName?: string;
  guidanceLineName?: string;
  /** Also create a work plan that selects the pushed guidance line. */
  workPlan?: { workType: DeereWorkType; year: number; instructions?: string; workOrder?: string };
  /** Push the boundary too (default true). */
  boundary?: boolean;
  /** Curves may be pushed (default true; the client takes its configuration's `guidanceCurves`). */
  guidanceCurves?: boolean;
}

export interface PushedResource {
  kind: 'boundary' | 'guidanceLine' | 'workPlan';
  /** The created resource's address (Location header), or its id in the body. */
  uri: string | null;
  status: number;
  attempts: number;
}

export interface DeereClientDeps extends TokenSourceDeps, PortalHttpDeps {}

function checkTarget(t: DeereTarget): void {
  checkPortalTarget('deere', t);
}

/** One request a push would send. */
export interface PlannedRequest {
  method: 'POST';
  url: string;
  body: Record<string, unknown>;
}

function defaultNames(
  plan: Plan,
  o: { boundaryName?: string; guidanceLineName?: string },
  curve = false,
): { boundary: string; line: string } {
  const base = `furrow ${plan.heading ? `${Math.round(plan.heading.degrees)}°` : ''}`.trim();
  return {
    boundary: o.boundaryName ?? `${base} boundary`,
    line: o.guidanceLineName ?? `${base} ${curve ? 'curve' : 'AB'}`,
  };
}

/** The requests `pushPlan` would send, without sending them (no credentials needed). */
export function previewDeerePush(
  plan: Plan,
  t: DeereTarget,
  o: DeerePushOptions = {},
  baseUrl = DEERE_SANDBOX_BASE_URL,
): PlannedRequest[] {
  checkTarget(t);
  const root = baseUrl.replace(/\/+$/, '');
  const field = `${root}/organizations/${encodeURIComponent(t.organizationId)}/fields/${encodeURIComponent(t.fieldId)}`;
  const guidance = guidanceOf(plan, 'deere', { curves: o.guidanceCurves });
  const names = defaultNames(plan, o, guidance.kind === 'curve');
  const out: PlannedRequest[] = [];
  if (o.boundary !== false)
    out.push({
      method: 'POST',
      url: `${field}/boundaries`,
      body: deereBoundaryBody(plan.boundary, { name: names.boundary }),
    });
  out.push({
    method: 'POST',
    url: `${field}/guidanceLines`,
    body: deereGuidanceBody(guidance, { name: names.line, fieldUri: field }),
  });
  if (o.workPlan) {
    out.push({
      method: 'POST',
      url: `${root}/organizations/${encodeURIComponent(t.organizationId)}/workPlans`,
      body: deereWorkPlanBody({
        fieldUri: field,
        guidanceLineUri: '<Location of the created guidance line>',
        ...o.workPlan,
      }),
    });
  }
  return out;
}

export class DeereClient {
  readonly tokens: OAuthTokenSource;
  readonly http: PortalHttp;
  /** Whether the account takes curve guidance lines (the configuration's `guidanceCurves`). */
  readonly guidanceCurves: boolean;

  constructor(config: DeereConfig, deps: DeereClientDeps = {}) {
    if (!config?.oauth) throw new PortalError('deere', 'portal-config', 'deere: oauth configuration is required');
    this.guidanceCurves = config.guidanceCurves !== false;
    this.tokens = new OAuthTokenSource(
      'deere',
      { ...config.oauth, tokenUrl: config.oauth.tokenUrl ?? DEERE_TOKEN_URL },
      deps,
    );
    this.http = new PortalHttp(
      'deere',
      config.baseUrl ?? DEERE_SANDBOX_BASE_URL,
      this.tokens,
      DEERE_MEDIA_TYPE,
      config.retry,
      deps,
    );
  }

  fieldUri(t: DeereTarget): string {
    return this.http.url(
      `/organizations/${encodeURIComponent(t.organizationId)}/fields/${encodeURIComponent(t.fieldId)}`,
    );
  }

  async pushBoundary(plan: Plan, t: DeereTarget, name: string): Promise<PushedResource> {
    checkTarget(t);
    const res = await this.http.postJson(
      `/organizations/${encodeURIComponent(t.organizationId)}/fields/${encodeURIComponent(t.fieldId)}/boundaries`,
      deereBoundaryBody(plan.boundary, { name }),
      'creating the boundary',
    );
    return { kind: 'boundary', uri: res.headers.get('location'), status: res.status, attempts: res.attempts };
  }

  async pushGuidanceLine(plan: Plan, t: DeereTarget, name: string): Promise<PushedResource> {
    checkTarget(t);
    const guidance = guidanceOf(plan, 'deere', { curves: this.guidanceCurves });
    const body = deereGuidanceBody(guidance, { name, fieldUri: this.fieldUri(t) });
    const res = await this.http.postJson(
      `/organizations/${encodeURIComponent(t.organizationId)}/fields/${encodeURIComponent(t.fieldId)}/guidanceLines`,
      body,
      guidance.kind === 'ab' ? 'creating the AB guidance line' : 'creating the curve guidance line',
    );
    return { kind: 'guidanceLine', uri: res.headers.get('location'), status: res.status, attempts: res.attempts };
  }

  async pushWorkPlan(
    t: DeereTarget,
    guidanceLineUri: string,
    o: NonNullable<DeerePushOptions['workPlan']>,
  ): Promise<PushedResource> {
    checkTarget(t);
    const res = await this.http.postJson(
      `/organizations/${encodeURIComponent(t.organizationId)}/workPlans`,
      deereWorkPlanBody({ fieldUri: this.fieldUri(t), guidanceLineUri, ...o }),
      'creating the work plan',
    );
    return { kind: 'workPlan', uri: res.headers.get('location'), status: res.status, attempts: res.attempts };
  }

  /** Boundary, guidance line, then the work plan (which needs the guidance line's address). */
  async pushPlan(plan: Plan, t: DeereTarget, o: DeerePushOptions = {}): Promise<PushedResource[]> {
    checkTarget(t);
    // fail before sending anything when there is no line the account takes
    const guidance = guidanceOf(plan, 'deere', { curves: this.guidanceCurves });
    const names = defaultNames(plan, o, guidance.kind === 'curve');
    const out: PushedResource[] = [];
    if (o.boundary !== false) out.push(await this.pushBoundary(plan, t, names.boundary));
    const line = await this.pushGuidanceLine(plan, t, names.line);
    out.push(line);
    if (o.workPlan) {
      if (!line.uri)
        throw new PortalError(
          'deere',
          'portal-rejected',
          'deere: the guidance line was created without a Location header, so no work plan can point at it',
        );
      out.push(await this.pushWorkPlan(t, line.uri, o.workPlan));
    }
    return out;
  }
}
