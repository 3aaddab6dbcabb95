/**
 * The plan view's "Gates and start point" panel: the field's gates and start point, set with a
 * click on the map and kept with the stored field (`PUT /api/boundaries/{boundaryId}/plan-inputs`),
 * so the next plan (and every later one) starts there and drives through the gates. A field brought
 * in by a partner gets them here; one brought on "Bring a field" may have them already.
 */
import type * as L from 'leaflet';
import type { ApiClient, FieldInputs, StoredBoundary } from './api.js';
import { ApiError } from './api.js';
import { clear, h } from './dom.js';
import { PointPicker } from './draw.js';
import type { Position } from './geo.js';

export class FieldInputsPanel {
  readonly element: HTMLElement;
  private readonly list = h('ul', { class: 'obstacle-list', 'data-testid': 'field-inputs' });
  private readonly picker: PointPicker;
  private readonly cancel = h('button', { type: 'button', class: 'button secondary', hidden: true }, 'Cancel');
  private boundary?: StoredBoundary;

  constructor(
    map: L.Map,
    private readonly api: ApiClient,
    private readonly boundaryId: string,
    /** Called with the field as stored after a change. */
    private readonly changed: (b: StoredBoundary) => void,
    private readonly say: (text: string, error?: boolean) => void,
  ) {
    this.picker = new PointPicker(map);
    const tool = (testid: string, label: string, kind: 'gate' | 'start') => {
      const b = h('button', { type: 'button', class: 'button secondary', 'data-testid': testid }, label);
      b.addEventListener('click', () => this.pick(kind));
      return b;
    };
    this.cancel.addEventListener('click', () => {
      this.picker.cancel();
      this.cancel.hidden = true;
      this.say('');
    });
    this.element = h(
      'section',
      { class: 'panel', 'aria-label': 'Gates and start point' },
      h('h2', {}, 'Gates and start point'),
      this.list,
      h(
        'div',
        { class: 'actions' },
        tool('pv-add-gate', 'Add a gate', 'gate'),
        tool('pv-set-start', 'Set the start point', 'start'),
        this.cancel,
      ),
      h(
        'small',
        { class: 'hint' },
        'Kept with the field; the next plan starts at the start point (or the first gate).',
      ),
    );
  }

  setBoundary(b: StoredBoundary): void {
    this.boundary = b;
    this.render();
  }

  private render(): void {
    clear(this.list);
    const b = this.boundary;
    if (!b) return;
    const item = (label: string, next: () => FieldInputs) => {
      const remove = h('button', { type: 'button', class: 'button link' }, 'Remove');
      remove.addEventListener('click', () => void this.save(next(), `${label} removed: re-plan to use the change.`));
      this.list.append(h('li', {}, `${label} `, remove));
    };
    (b.accessPoints ?? []).forEach((_, i) =>
      item(`Gate ${i + 1}`, () => ({ ...this.inputs(), accessPoints: b.accessPoints!.filter((_, k) => k !== i) })),
    );
    if (b.stagingArea) item('Start point', () => ({ ...this.inputs(), stagingArea: undefined }));
    if (this.list.childElementCount === 0) this.list.append(h('li', { class: 'muted' }, 'None set.'));
  }

  /** The field's inputs as they are. */
  private inputs(): FieldInputs {
    const b = this.boundary!;
    return {
      obstacles: b.obstacles,
      ...(b.passableZones ? { passableZones: b.passableZones } : {}),
      ...(b.accessPoints ? { accessPoints: b.accessPoints } : {}),
      ...(b.stagingArea ? { stagingArea: b.stagingArea } : {}),
    };
  }

  private pick(kind: 'gate' | 'start'): void {
    if (!this.boundary) return;
    this.cancel.hidden = false;
    this.say(kind === 'gate' ? 'Click the map where the gate is.' : 'Click the map where the machine starts.');
    this.picker.start((p: Position) => {
      this.cancel.hidden = true;
      const now = this.inputs();
      const next: FieldInputs =
        kind === 'gate' ? { ...now, accessPoints: [...(now.accessPoints ?? []), p] } : { ...now, stagingArea: p };
      void this.save(next, kind === 'gate' ? 'Gate added: re-plan to use it.' : 'Start point set: re-plan to use it.');
    });
  }

  private async save(next: FieldInputs, done: string): Promise<void> {
    try {
      const stored = await this.api.setPlanInputs(this.boundaryId, next);
      const b = this.boundary!;
      this.boundary = {
        ...b,
        obstacles: stored.obstacles,
        passableZones: stored.passableZones,
        accessPoints: stored.accessPoints,
        stagingArea: stored.stagingArea,
      };
      this.render();
      this.changed(this.boundary);
      this.say(done);
    } catch (err) {
      const why = err instanceof ApiError ? err.message : 'the server could not be reached';
      this.say(`The field could not be changed: ${why}.`, true);
    }
  }
}
