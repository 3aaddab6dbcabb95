/** Errors of the portal push adapters: a stable code, the portal, and what the portal answered. */
export type PortalName = 'deere' | 'trimble';

export type PortalErrorCode =
  /** Configuration missing or invalid (no credentials, bad base URL, company not configured). */
  | 'portal-config'
  /** The token endpoint refused the credentials or the refresh token (re-authorise the company). */
  | 'portal-auth-failed'
  /** The portal refused the request for this organization (scopes, permissions, licence). */
  | 'portal-forbidden'
  /** The organization or field does not exist at the portal. */
  | 'portal-not-found'
  /** The portal rejected the body (400 / 422) or it conflicts with existing data (409). */
  | 'portal-rejected'
  | 'portal-conflict'
  /** Still rate limited / unavailable after every retry. */
  | 'portal-rate-limited'
  | 'portal-unavailable'
  /** Could not reach the portal (DNS, refused, timeout) after every retry. */
  | 'portal-network'
  /** The plan has nothing the portal can take (e.g. no straight track for an AB line). */
  | 'portal-bad-plan';

export class PortalError extends Error {
  readonly code: PortalErrorCode;
  readonly portal: PortalName;
  /** HTTP status of the last answer, when there was one. */
  readonly status: number | undefined;
  /** Requests made (1 = no retry). */
  readonly attempts: number;
  /** Start of the portal's answer body (at most 2,000 characters), for the operator. */
  readonly responseBody: string | undefined;

  constructor(
    portal: PortalName,
    code: PortalErrorCode,
    message: string,
    extra: { status?: number; attempts?: number; responseBody?: string } = {},
  ) {
    super(message);
    this.name = 'PortalError';
    this.portal = portal;
    this.code = code;
    this.status = extra.status;
    this.attempts = extra.attempts ?? 1;
    this.responseBody = extra.responseBody;
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      portal: this.portal,
      message: this.message,
      status: this.status,
      attempts: this.attempts,
    };
  }
}

export function isPortalError(err: unknown): err is PortalError {
  return err instanceof PortalError;
}

/** The error code for a final HTTP status. */
export function codeForStatus(status: number): PortalErrorCode {
  if (status === 401) return 'portal-auth-failed';
  if (status === 403) return 'portal-forbidden';
  if (status === 404) return 'portal-not-found';
  if (status === 409) return 'portal-conflict';
  if (status === 429) return 'portal-rate-limited';
  if (status >= 500) return 'portal-unavailable';
  return 'portal-rejected';
}

/**
 * A portal id (organization, field): one path segment that cannot move the request elsewhere,
 * so no "/", "?", "#", "\\", "%", whitespace or control character, and not "." or "..". Ids are
 * also encoded with encodeURIComponent where URLs are built.
 */
export const PORTAL_ID = /^(?!\.{1,2}$)[^/?#\\%\s\u0000-\u001f\u007f]{1,200}$/;
export const PORTAL_ID_RULE =
  'must be a portal id: 1 to 200 characters, not "." or "..", without "/", "?", "#", "\\", "%", spaces or control ' +
  'characters';

/** Throws `portal-config` unless the target's ids are portal ids (`PORTAL_ID`). */
export function checkPortalTarget(portal: PortalName, t: { organizationId: string; fieldId: string }): void {
  for (const k of ['organizationId', 'fieldId'] as const) {
    if (typeof t?.[k] !== 'string' || !PORTAL_ID.test(t[k]))
      throw new PortalError(portal, 'portal-config', `${portal}: target.${k} ${PORTAL_ID_RULE}`);
  }
}
