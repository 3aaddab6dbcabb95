/** Plan output formats of `furrow plan --format`: every plan format of the format packages. */
import type { Plan } from '@furrow/core';
import { PLAN_FORMATS, writePlan, type PlanFormat } from '@furrow/format-vendor';

export const PLAN_OUTPUT_FORMATS = PLAN_FORMATS;
export type PlanOutputFormat = PlanFormat;

/** Text for text formats (printable on stdout), bytes for zipped layouts. */
export async function renderPlan(
  plan: Plan,
  format: PlanOutputFormat,
  name: string,
): Promise<{ content: string | Uint8Array; files?: Record<string, Uint8Array | string> }> {
  const out = await writePlan(plan, format, { field: name });
  const isText = !/zip|octet/.test(out.mediaType);
  return { content: isText ? new TextDecoder().decode(out.bytes) : out.bytes, files: out.files };
}
