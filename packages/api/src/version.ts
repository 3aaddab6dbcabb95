/** The interface release (docs/api.md): in the OpenAPI document, plan bodies and a header. */
export const API_VERSION = '1.5.0';
export const VERSION_HEADER = 'X-Furrow-API-Version';
export const CORRELATION_HEADER = 'X-Correlation-Id';
