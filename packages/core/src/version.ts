/**
 * The interface release furrow implements (SERVICE-SPEC section 9: v1.5.0), reported in every
 * plan's `version` by the library and the API alike.
 */
export const FURROW_VERSION = '1.5.0';
