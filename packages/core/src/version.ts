/** furrow's release, reported in every plan. */
export const FURROW_VERSION = '0.1.0';
