/**
 * Shared set-up of tests that plan a field of the corpus (test/fields, copied from ../shared/fields with its
 * SOURCES.md).
 */
import { readFileSync } from 'node:fs';
import type { FieldGeometry } from '../types.js';

const fieldsDir = new URL('../../../../test/fields/', import.meta.url);

/** The geometry of corpus field `id` (its file is a GeoJSON Feature or a bare geometry). */
export function corpusField(id: string): FieldGeometry {
  const g = JSON.parse(readFileSync(new URL(`${id}.geojson`, fieldsDir), 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
  };
  return (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
}
