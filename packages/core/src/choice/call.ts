/** One `planRoute` call as its plannings read it (choice/planVariant.ts, choice/routedVariant.ts). */
import type { PathPlanRequest } from '../types.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import type { ProgressCallback } from '../progress.js';
import type { SafetyCap } from '../clock.js';
import type { FieldMemo } from './fieldMemo.js';
import type { TrackSubset } from './trackSubset.js';

/** One `planRoute` call as its variants read it. */
export interface Call {
  readonly request: PathPlanRequest;
  /** The settings as the request gives them (a variant plans with its own headland passes). */
  readonly settings: PlanSettings;
  readonly cap: SafetyCap | undefined;
  readonly onProgress?: ProgressCallback;
  /** Field-only work shared with other calls on the same field (choice/fieldMemo.ts). */
  readonly fieldMemo?: FieldMemo;
  /** A planning of part of the field's tracks (choice/trackSubset.ts; planFleet's pair route). */
  readonly trackSubset?: TrackSubset;
}
