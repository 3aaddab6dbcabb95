/**
 * Every output format of `furrow plan --format`: the plan formats of `@furrow/format-vendor`,
 * written out here so that `--help` and `furrow plan` do not load every format package to list
 * them (a test keeps the two lists equal).
 */
export const PLAN_FORMAT_NAMES = [
  'json',
  'geojson',
  'kml',
  'wkt',
  'shapefile',
  'isoxml',
  'agopengps',
  'trimble',
  'johndeere',
  'cnh',
  'fendt',
  'mueller',
] as const;
