/**
 * Progress by stage: `planRoute(request, { onProgress })` calls it as each stage of a planning
 * starts. A plain callback — the core does no I/O; `@furrow/worker` posts it from its worker.
 */

/** The stages of one planning, in the order they start. */
export const PLAN_STAGES = ['field', 'headlands', 'tracks', 'order', 'connect', 'metrics', 'extras'] as const;
export type PlanStage = (typeof PLAN_STAGES)[number];

export interface PlanProgress {
  stage: PlanStage;
  /** Index of the stage in PLAN_STAGES. */
  stageIndex: number;
  stageCount: number;
  /** The variant being planned: 1 for the first, then one more for each (choice/planVariants.ts). */
  planning: number;
}

export type ProgressCallback = (progress: PlanProgress) => void;

/** Reports the start of `stage` to `onProgress`, if any. */
export function reportStage(onProgress: ProgressCallback | undefined, stage: PlanStage, planning: number): void {
  if (onProgress)
    onProgress({ stage, stageIndex: PLAN_STAGES.indexOf(stage), stageCount: PLAN_STAGES.length, planning });
}
