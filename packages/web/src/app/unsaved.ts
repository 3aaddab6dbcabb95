/**
 * The unsaved plan of a field, kept for the tab (sessionStorage): a reload shows it again instead
 * of paying for a new one. Its own module: the launch's head start (head-start.ts) reads it too.
 */
import type { FeatureCollection } from './geo.js';
import type { PlanParameters } from './params.js';

/** An unsaved plan kept for this tab. */
export interface UnsavedPlan {
  params: PlanParameters;
  plan: FeatureCollection;
}

/** Keeps the unsaved plan of a boundary in the tab's storage (best effort: big plans may not fit). */
export class UnsavedPlanStore {
  constructor(private readonly storage: Storage | undefined) {}

  private key(boundaryId: string): string {
    return `furrow.unsaved.${boundaryId}`;
  }

  load(boundaryId: string): UnsavedPlan | undefined {
    try {
      const raw = this.storage?.getItem(this.key(boundaryId));
      const v = raw ? (JSON.parse(raw) as UnsavedPlan) : undefined;
      return v && v.plan?.type === 'FeatureCollection' && Array.isArray(v.plan.features) ? v : undefined;
    } catch {
      return undefined;
    }
  }

  keep(boundaryId: string, value: UnsavedPlan): void {
    try {
      this.storage?.setItem(this.key(boundaryId), JSON.stringify(value));
    } catch {
      // Over the storage quota: a reload will plan again.
    }
  }

  forget(boundaryId: string): void {
    try {
      this.storage?.removeItem(this.key(boundaryId));
    } catch {
      // nothing kept
    }
  }
}
