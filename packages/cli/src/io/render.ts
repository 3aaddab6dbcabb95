/**
 * Plan output formats of `furrow plan --format`: every plan format of the format packages.
 * JSON and GeoJSON are written without loading the other format packages (as `writePlan` writes them).
 */
import type { Plan } from '@furrow/core';
import type { PlanFormat } from '@furrow/format-vendor';
import { PLAN_FORMAT_NAMES } from '../formats.js';

export const PLAN_OUTPUT_FORMATS: readonly PlanFormat[] = PLAN_FORMAT_NAMES;
export type PlanOutputFormat = PlanFormat;

/** Text for text formats (printable on stdout), bytes for zipped layouts. */
export async function renderPlan(
  plan: Plan,
  format: PlanOutputFormat,
  name: string,
): Promise<{ content: string | Uint8Array; files?: Record<string, Uint8Array | string> }> {
  if (format === 'json') return { content: JSON.stringify(plan) };
  if (format === 'geojson') {
    const { planToFeatureCollection } = await import('@furrow/format-geojson');
    return { content: JSON.stringify(planToFeatureCollection(plan)) };
  }
  const { writePlan } = await import('@furrow/format-vendor');
  const out = await writePlan(plan, format, { field: name });
  const isText = !/zip|octet/.test(out.mediaType);
  return { content: isText ? new TextDecoder().decode(out.bytes) : out.bytes, files: out.files };
}
