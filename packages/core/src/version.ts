/**
 * The interface release furrow implements (v1.5.0), reported in every
 * plan's `version` by the library and the API alike.
 */
export const FURROW_VERSION = '1.5.0';
