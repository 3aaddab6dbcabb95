/**
 * Field-only work shared between `planRoute` calls on one field (a traffic system's plannings,
 * traffic/planTrafficSystem.ts): the prepared field and its simplified boundary. Sharing the very
 * objects also shares what the geometry caches keep per field object (headland ring offsets,
 * corridors, swaths: geometry/clipper.ts, corridors.ts, swaths.ts), each keyed by everything it
 * depends on. A call whose field, obstacles or passable-obstacle option differ from the memo's
 * plans its own and leaves the memo alone, so a plan never depends on what shared it.
 */
import type { PathsD } from '../geometry/clipper.js';
import type { LocalField } from '../geometry/prepareField.js';
import type { PlanSettings } from '../request/normalizeRequest.js';

/** A handle on field work shared between calls (opaque: made by `createFieldMemo`, read by the planner). */
export interface FieldMemo {
  readonly kind: 'field-memo';
}

/** What a memo holds. */
export interface FieldWork extends FieldMemo {
  /** What the field was prepared from (`fieldKey`). */
  key?: string;
  prepared?: LocalField;
  simple?: PathsD;
}

export function createFieldMemo(): FieldMemo {
  const work: FieldWork = { kind: 'field-memo' };
  return work;
}

/** Everything `prepareField` reads of the settings, as one string. */
export function fieldKey(settings: PlanSettings): string {
  return JSON.stringify([settings.polygons, settings.obstacles, settings.options.includes('excludePassable')]);
}

/** The memo's field work for these settings: made by the first call, then the same objects; none on a mismatch. */
export function memoFor(memo: FieldMemo | undefined, settings: PlanSettings): FieldWork | undefined {
  if (!memo) return undefined;
  const work = memo as FieldWork;
  const key = fieldKey(settings);
  if (work.key === undefined) work.key = key;
  return work.key === key ? work : undefined;
}
