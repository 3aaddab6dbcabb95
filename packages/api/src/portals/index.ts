/** Push adapters to manufacturer portals (John Deere Operations Center, Trimble Agriculture). */
export { PortalError, isPortalError, codeForStatus, type PortalErrorCode, type PortalName } from './errors.js';
export { OAuthTokenSource, type OAuthConfig, type OAuthGrant, type TokenSourceDeps } from './oauth.js';
export { PortalHttp, retryAfterMs, type RetryPolicy, type PortalHttpDeps, type PortalResponse } from './http.js';
export {
  abLineOf,
  guidanceOf,
  bearingDegrees,
  deereBoundaryBody,
  deereAbLineBody,
  deereWorkPlanBody,
  trimbleBoundaryBody,
  trimbleAbLineBody,
  deereCurveBody,
  deereGuidanceBody,
  trimbleCurveBody,
  trimbleGuidanceBody,
  MIN_CURVE_LENGTH_METERS,
  type AbLine,
  type CurveLine,
  type PushedGuidance,
  type DeereWorkType,
} from './shapes.js';
export {
  DeereClient,
  previewDeerePush,
  DEERE_MEDIA_TYPE,
  DEERE_SANDBOX_BASE_URL,
  DEERE_PRODUCTION_BASE_URL,
  DEERE_TOKEN_URL,
  type DeereConfig,
  type DeereTarget,
  type DeerePushOptions,
  type PushedResource,
  type PlannedRequest,
} from './deere.js';
export {
  TrimbleClient,
  previewTrimblePush,
  TRIMBLE_BASE_URL,
  TRIMBLE_TOKEN_URL,
  type TrimbleConfig,
  type TrimbleTarget,
  type TrimblePushOptions,
} from './trimble.js';
export {
  parsePortalsConfig,
  portalRegistryFromEnv,
  PortalRegistry,
  type PortalsConfig,
  type CompanyPortals,
} from './config.js';
