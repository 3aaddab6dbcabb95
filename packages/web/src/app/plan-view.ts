/**
 * `/path-planning/boundary/{boundaryId}`: the field on a map with its plan (layers, legend,
 * metrics), a form that re-plans through the API and shows how the metrics changed, save,
 * and downloads in every export format.
 */
import type { ApiClient, StoredBoundary } from './api.js';
import { ApiError, EXPORT_FORMATS, fileNameFrom } from './api.js';
import { describeError } from './describe-error.js';
import { clear, h, s } from './dom.js';
import type { FeatureCollection, Geometry } from './geo.js';
import type { ClassifiedPlan, LayerId } from './layers.js';
import { LAYERS, classifyPlan, gateMarks, layerCounts } from './layers.js';
import { holesOf } from './geo.js';
import type { MapData } from './layers.js';
import { MapView, basemapFromPage } from './map.js';
import { Playback } from './playback.js';
import { headingInWords, trackHeadingDegrees } from './route.js';
import { planWarnings, warningListItem } from './warnings.js';
import { CreditLine, PlanHistory, UnsavedPlanStore } from './plan-keeping.js';
import { MachinePicker, applyProfile } from './machines.js';
import { FieldInputsPanel } from './field-inputs.js';
import { planRequestFor } from './first-plan.js';
import { FleetPanel } from './fleet-view.js';
import type { MetricChange } from './metrics.js';
import { METRIC_ROWS, compareMetrics, formatArea } from './metrics.js';
import type { PlanParameters } from './params.js';
import {
  DEFAULT_PARAMETERS,
  ROUTE_ORDERS,
  SPEED_FIELDS,
  parametersFromRequest,
  parametersToRaw,
  parseParameters,
} from './params.js';
import type { Shell } from './shell.js';
import { backButton, messagePanel } from './shell.js';

export interface PlanViewDeps {
  shell: Shell;
  api: ApiClient;
  boundaryId: string;
  /** Called once the boundary is loaded (the frame fills its selectors from it). */
  onBoundary?: (boundary: StoredBoundary) => void;
  /** The boundary, already asked for (the page is built while it comes). */
  boundary?: Promise<StoredBoundary>;
  /**
   * The field's first plan, already asked for (the launch's head start: first-plan.ts's request),
   * taken by the plan made as the field opens; undefined inside: not asked for.
   */
  firstPlan?: Promise<FeatureCollection | undefined>;
}

interface PlanState {
  plan: FeatureCollection;
  classified: ClassifiedPlan;
  params: PlanParameters;
  request: Record<string, unknown>;
  savedPlanId?: string;
}

export class PlanView {
  private readonly map = new MapView(basemapFromPage(document), { tilesAfterFit: true });
  private readonly playback = new Playback(this.map);
  private readonly headingWords = h('p', { class: 'heading-words', 'data-testid': 'heading-words' });
  private readonly legend = h('div', { class: 'legend', 'data-testid': 'legend' });
  private readonly metrics = h('div', { class: 'metrics', 'data-testid': 'metrics' });
  private readonly warnings = h('ul', { class: 'warnings', 'data-testid': 'warnings', hidden: true });
  private readonly status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite', 'data-testid': 'status' });
  private readonly title = h('h1', { class: 'field-title' }, 'Field');
  private readonly subtitle = h('p', { class: 'field-subtitle' });
  private readonly form: HTMLFormElement;
  private readonly saveButton: HTMLButtonElement;
  private readonly downloads = h('div', { class: 'downloads', 'data-testid': 'downloads' });
  private boundary?: StoredBoundary;
  private current?: PlanState;
  private previousMetrics?: Record<string, unknown>;
  private busy = false;
  private readonly creditLine: CreditLine;
  private readonly machines: MachinePicker;
  private readonly history: PlanHistory;
  private readonly fieldInputs: FieldInputsPanel;
  private readonly fleet: FleetPanel;
  private readonly unsaved = new UnsavedPlanStore(storageOrUndefined('sessionStorage'));

  constructor(private readonly deps: PlanViewDeps) {
    this.form = this.buildForm();
    this.saveButton = h(
      'button',
      { type: 'button', class: 'button secondary', 'data-testid': 'save-plan', disabled: true },
      'Save plan',
    );
    this.saveButton.addEventListener('click', () => void this.save());
    this.creditLine = new CreditLine(deps.api);
    this.machines = new MachinePicker(
      deps.api,
      () => this.readForm().params,
      (m) => {
        this.fillForm(applyProfile(this.readForm().params ?? DEFAULT_PARAMETERS, m));
        this.setStatus(`Machine "${m.name}" set: re-plan to use it.`);
      },
      (text, error) => this.setStatus(text, error),
    );
    this.history = new PlanHistory(deps.api, (planId) => void this.openStored(planId));
    this.fieldInputs = new FieldInputsPanel(
      this.map.leaflet,
      deps.api,
      deps.boundaryId,
      (b) => {
        this.boundary = b;
        const cur = this.current;
        this.map.setData(
          { ...fieldData(b), ...(cur ? { plan: cur.classified, widthMeters: cur.params.widthMeters } : {}) },
          false,
        );
        this.renderLegend(cur?.classified);
      },
      (text, error) => this.setStatus(text, error),
    );
    this.fleet = new FleetPanel({
      api: deps.api,
      map: this.map,
      boundaryId: deps.boundaryId,
      request: () => {
        const params = this.readForm().params;
        return params && this.boundary ? this.requestFor(params) : undefined;
      },
      setStatus: (text, error) => this.setStatus(text, error),
    });
    // An unsaved plan is not lost without asking.
    window.addEventListener('beforeunload', (e) => {
      // Only while the plan is on the page (a signed-out or expired page has nothing to lose).
      if (this.current && !this.current.savedPlanId && document.contains(this.map.element)) {
        e.preventDefault();
        e.returnValue = '';
      }
    });
  }

  async start(): Promise<void> {
    const page = this.deps.shell.page;
    page.dataset.state = 'loading';
    page.replaceChildren(
      h(
        'div',
        { class: 'plan-layout' },
        h(
          'section',
          { class: 'map-pane', 'aria-label': 'Map' },
          h('div', { class: 'map-header' }, this.title, this.subtitle),
          this.map.element,
          this.playback.element,
          this.headingWords,
          this.legend,
          this.fleet.element,
        ),
        h(
          'aside',
          { class: 'side-panel', 'aria-label': 'Plan details' },
          h('section', { class: 'panel' }, h('h2', {}, 'Plan metrics'), this.metrics, this.warnings),
          h(
            'section',
            { class: 'panel' },
            h('h2', {}, 'Planning parameters'),
            this.creditLine.element,
            this.machines.element,
            this.form,
          ),
          this.fleet.controls,
          this.fieldInputs.element,
          h(
            'section',
            { class: 'panel' },
            h('h2', {}, 'Save and download'),
            h('div', { class: 'actions' }, this.saveButton),
            this.downloads,
          ),
          this.history.element,
          this.status,
        ),
      ),
    );
    this.renderLegend(undefined);
    this.renderMetrics(undefined, undefined);
    this.renderDownloads();
    this.setStatus('Loading the field…');
    try {
      this.boundary = await (this.deps.boundary ?? this.deps.api.boundary(this.deps.boundaryId));
    } catch (err) {
      const notFound = err instanceof ApiError && err.status === 404;
      page.replaceChildren(
        messagePanel(
          notFound ? 'Field not found' : 'The field could not be loaded',
          notFound
            ? 'This field does not exist or is not shared with your organisation. Go back and choose another field.'
            : describeError(err, 'The field could not be loaded'),
          [backButton()],
        ),
      );
      page.dataset.state = 'error';
      return;
    }
    const b = this.boundary;
    this.title.textContent = b.name ?? 'Field';
    this.fieldInputs.setBoundary(b);
    // Opening a field plans it only the first time: a reload shows the tab's unsaved plan, else
    // the last saved one, at no cost. A field never planned is planned at once: its request goes
    // out before the field is drawn (the drawing happens while the server plans), and the page's
    // other requests (organisation, credits, machines, history) wait for the plan: on a busy server
    // they would only hold it up.
    if (this.showUnsaved()) return this.loadSideData(b);
    if (b.latestPlanId === null) {
      // first-plan.ts firstPlanRequest: the request the server plans ahead of a launch into this field.
      const planning = this.replan(DEFAULT_PARAMETERS, this.deps.firstPlan); // (refreshes the credits itself)
      // The field alone as the next frame is drawn, unless the plan came first (a launch's plan, asked for
      // before the app ran, often has): then that frame draws the plan, and the field is not drawn twice.
      requestAnimationFrame(() => {
        if (this.current) return;
        this.map.setData({ ...fieldData(b) }, true);
        performance.mark('furrow:field-shown');
      });
      await planning;
      // After the plan is painted: the page's other requests and their drawing would only delay it.
      afterPaint(() => this.loadSideData(b, false));
      return;
    }
    this.map.setData({ ...fieldData(b) }, true);
    this.loadSideData(b);
    if (await this.showLatestSavedPlan()) return;
    await this.replan(DEFAULT_PARAMETERS);
  }

  /** What the page shows besides the plan: the frame's selectors, credits, machines, plan history. */
  private loadSideData(b: StoredBoundary, credits = true): void {
    this.deps.onBoundary?.(b);
    if (credits) void this.creditLine.refresh(b.companyId);
    void this.machines.setCompany(b.companyId);
    void this.history.refresh(b.fieldId, this.deps.boundaryId);
  }

  /** The path-plan request for the field (its obstacles, passable zones, gates, start point) and `params`. */
  private requestFor(params: PlanParameters): Record<string, unknown> {
    return planRequestFor(this.boundary!, params);
  }

  /** Shows the plan this tab made and did not save (true when there is one). */
  private showUnsaved(): boolean {
    const kept = this.unsaved.load(this.deps.boundaryId);
    const b = this.boundary;
    if (!kept || !b) return false;
    this.fillForm(kept.params);
    this.show(kept.plan, kept.params, this.requestFor(kept.params), true);
    this.setStatus('Showing your unsaved plan from before (no credit used). Save it to keep it.');
    return true;
  }

  /** Opens a plan of the history (over an unsaved plan only if the user says so). */
  private async openStored(planId: string): Promise<void> {
    const b = this.boundary;
    if (!b) return;
    if (this.current && !this.current.savedPlanId) {
      const lose = 'The plan on the map is not saved. Open the saved plan instead and leave it?';
      if (!window.confirm(lose)) return;
    }
    try {
      const [plan, stored] = await Promise.all([
        this.deps.api.storedPlanGeoJson(planId),
        this.deps.api.storedPlan(planId),
      ]);
      const params = parametersFromRequest(stored.request);
      this.fillForm(params);
      this.show(plan, params, this.requestFor(params), false);
      this.markSaved(planId);
      this.setStatus('Showing a saved plan from the history.');
    } catch (err) {
      this.setStatus(describeError(err, 'The saved plan could not be opened'), true);
    }
  }

  private markSaved(planId: string): void {
    this.current!.savedPlanId = planId;
    this.saveButton.disabled = true;
    this.saveButton.textContent = 'Saved';
    this.deps.shell.page.dataset.savedPlanId = planId;
  }

  /** The newest saved plan of this boundary: named by the boundary, else found in the field's plans. */
  private async latestSaved(b: StoredBoundary): Promise<{ planId: string; request: unknown } | undefined> {
    if (b.latestPlanId) {
      const planId = b.latestPlanId;
      return { planId, request: (await this.deps.api.storedPlan(planId)).request };
    }
    if (!b.fieldId) return undefined;
    const latest = await this.deps.api.latestPlanOfField(b.fieldId);
    if (!latest || (latest.boundaryId !== undefined && latest.boundaryId !== this.deps.boundaryId)) return undefined;
    return latest;
  }

  /** Shows the field's newest saved plan of this boundary, if there is one (true when shown). */
  private async showLatestSavedPlan(): Promise<boolean> {
    const b = this.boundary;
    if (!b) return false;
    try {
      const latest = await this.latestSaved(b);
      if (!latest) return false;
      const plan = await this.deps.api.storedPlanGeoJson(latest.planId);
      if (!plan || plan.type !== 'FeatureCollection' || !Array.isArray(plan.features)) return false;
      const params = parametersFromRequest(latest.request);
      this.fillForm(params);
      this.show(plan, params, this.requestFor(params), true);
      this.markSaved(latest.planId);
      this.setStatus('Showing your last saved plan. Change the parameters and re-plan to compare.');
      return true;
    } catch {
      return false; // no stored plans to show: plan afresh
    }
  }

  private fillForm(p: PlanParameters): void {
    const raw = parametersToRaw(p);
    for (const el of Array.from(this.form.elements)) {
      if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement) || !(el.name in raw)) continue;
      const v = raw[el.name];
      if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = v === true;
      else el.value = typeof v === 'string' ? v : '';
    }
    const refill = this.form.querySelector<HTMLElement>('[data-testid=refill-inputs]');
    if (refill) refill.hidden = !p.calculateRefillPoints;
  }

  /** Draws a plan, its legend and KPIs (with the change from the previous plan). */
  private show(
    plan: FeatureCollection,
    params: PlanParameters,
    request: Record<string, unknown>,
    refit: boolean,
  ): void {
    const boundary = this.boundary!;
    const classified = classifyPlan(plan);
    this.previousMetrics = this.current?.plan.metrics;
    this.current = { plan, classified, params, request };
    this.fleet.clear();
    this.map.setData({ ...fieldData(boundary), plan: classified, widthMeters: params.widthMeters }, refit);
    this.playback.setRoute(classified.route, plan.metrics);
    const trackHeading = trackHeadingDegrees(classified.route);
    this.headingWords.textContent = trackHeading === undefined ? '' : `${headingInWords(trackHeading)}.`;
    this.renderLegend(classified);
    this.renderMetrics(plan.metrics, this.previousMetrics);
    this.renderWarnings(plan);
    this.renderDownloads();
    this.saveButton.disabled = false;
    this.saveButton.textContent = 'Save plan';
    const heading = trackHeading;
    this.subtitle.textContent = [
      `${params.widthMeters} m working width`,
      `${params.headlandPasses} headland pass${params.headlandPasses === 1 ? '' : 'es'}`,
      typeof heading === 'number'
        ? `heading ${Math.round(heading)}°`
        : params.headingDegrees !== undefined
          ? `heading ${params.headingDegrees}°`
          : 'best heading',
    ].join(' · ');
    const page = this.deps.shell.page;
    page.dataset.state = 'planned';
    page.dataset.planCount = String(Number(page.dataset.planCount ?? '0') + 1);
  }

  private buildForm(): HTMLFormElement {
    const raw = parametersToRaw(DEFAULT_PARAMETERS);
    const num = (name: string, label: string, attrs: Record<string, string | number>, hint?: string) =>
      h(
        'div',
        { class: 'form-row' },
        h('label', { for: `p-${name}` }, label),
        h('input', {
          id: `p-${name}`,
          name,
          type: 'number',
          inputmode: 'decimal',
          value: String(raw[name] ?? ''),
          ...attrs,
        }),
        hint ? h('small', { class: 'hint' }, hint) : null,
        h('span', { class: 'field-error', id: `p-${name}-error`, 'aria-live': 'polite' }),
      );
    const check = (name: string, label: string) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', name, id: `p-${name}`, checked: raw[name] === true }),
        label,
      );
    const order = h(
      'select',
      { id: 'p-order', name: 'order' },
      ...ROUTE_ORDERS.map((o) => h('option', { value: o.id, selected: o.id === raw['order'] }, o.label)),
    );
    // Refill points need the tank and the rate (the API refuses them without): shown with the option.
    const refill = h(
      'fieldset',
      { class: 'refill', 'data-testid': 'refill-inputs', hidden: raw['calculateRefillPoints'] !== true },
      h('legend', {}, 'Refill'),
      num('tankCapacity', 'Tank capacity (l or kg)', { min: 0, step: 1 }),
      num(
        'applicationRatePerHectare',
        'Application rate (per ha)',
        { min: 0, step: 0.1 },
        'Same unit as the tank, per hectare.',
      ),
    );
    const form = h(
      'form',
      { class: 'params', 'data-testid': 'params-form', novalidate: true },
      num('widthMeters', 'Working width (m)', { min: 0.5, max: 200, step: 0.1, required: 'true' }),
      num('headlandPasses', 'Headland passes', { min: 0, max: 20, step: 1, required: 'true' }),
      num(
        'headingDegrees',
        'Track heading (°)',
        { min: 0, max: 359, step: 1, placeholder: 'best' },
        'Empty: the planner picks the best heading.',
      ),
      h(
        'div',
        { class: 'form-row' },
        h('label', { for: 'p-order' }, 'Route order'),
        order,
        h('span', { class: 'field-error', id: 'p-order-error' }),
      ),
      num('turnRadiusMeters', 'Turn radius (m)', { min: 0.5, max: 100, step: 0.1, required: 'true' }),
      check('reverseAllowed', 'May reverse in turns'),
      h(
        'fieldset',
        { class: 'speeds' },
        h('legend', {}, 'Speeds'),
        ...SPEED_FIELDS.map((f) => num(f.name, f.label, { min: 0.5, max: 60, step: 0.1, placeholder: 'default' })),
      ),
      num('sections', 'Boom sections', { min: 1, max: 1000, step: 1, placeholder: 'any' }, 'Empty: any width.'),
      h(
        'fieldset',
        { class: 'options' },
        h('legend', {}, 'Options'),
        check('headlandsFirst', 'Headlands first'),
        check('calculateRefillPoints', 'Refill points'),
        check('enableHeadlandDrivethrough', 'Drive straight through headlands'),
        check('extendTracks', 'Extend tracks'),
        check('excludePassable', 'Exclude passable zones'),
        check('useCrossHatches', 'Cross-hatches'),
      ),
      refill,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'button primary', 'data-testid': 'replan' }, 'Re-plan'),
      ),
    );
    const refillBox = form.querySelector<HTMLInputElement>('#p-calculateRefillPoints');
    refillBox?.addEventListener('change', () => (refill.hidden = !refillBox.checked));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(form);
    });
    return form;
  }

  /** Re-plans with the form's parameters, or names the bad ones and sends nothing. */
  private submit(form: HTMLFormElement): void {
    const { params, errors } = this.readForm(form);
    for (const el of Array.from(form.querySelectorAll<HTMLElement>('.field-error'))) el.textContent = '';
    for (const el of Array.from(form.querySelectorAll('[aria-invalid]'))) el.removeAttribute('aria-invalid');
    if (!params) {
      for (const err of errors) {
        const msg = form.querySelector(`#p-${err.field}-error`);
        if (msg) msg.textContent = err.message;
        form.querySelector(`#p-${err.field}`)?.setAttribute('aria-invalid', 'true');
      }
      (form.querySelector(`#p-${errors[0].field}`) as HTMLElement | null)?.focus();
      this.setStatus('Check the highlighted parameters.', true);
      return;
    }
    void this.replan(params);
  }

  /** The form's parameters (or what is wrong with them). */
  private readForm(form: HTMLFormElement = this.form): ReturnType<typeof parseParameters> {
    const values: Record<string, string | boolean> = {};
    for (const el of Array.from(form.elements)) {
      if (el instanceof HTMLInputElement) values[el.name] = el.type === 'checkbox' ? el.checked : el.value;
      else if (el instanceof HTMLSelectElement) values[el.name] = el.value;
    }
    return parseParameters(values);
  }

  /** Plans with `params` (`given`: that plan, already asked for with the same request, if it resolves to one). */
  private async replan(params: PlanParameters, given?: Promise<FeatureCollection | undefined>): Promise<void> {
    if (!this.boundary || this.busy) return;
    this.busy = true;
    const page = this.deps.shell.page;
    page.dataset.state = 'planning';
    this.form.querySelector('button[type=submit]')?.setAttribute('disabled', '');
    this.setStatus('Planning the route…');
    this.map.element.classList.add('busy');
    this.map.element.setAttribute('aria-busy', 'true');
    const request = this.requestFor(params);
    try {
      const plan = (given && (await given)) || (await this.deps.api.planGeoJson(request, this.deps.boundaryId));
      if (!plan || plan.type !== 'FeatureCollection' || !Array.isArray(plan.features)) {
        throw new ApiError(500, 'BadPlan', 'The server returned something that is not a plan.');
      }
      const first = this.current === undefined;
      // On the page's performance timeline (read by the launch budget's test, docs/benchmarks/web.md).
      performance.mark('furrow:plan-received');
      this.show(plan, params, request, first);
      performance.mark('furrow:plan-shown');
      const companyId = this.boundary.companyId;
      afterPaint(() => {
        performance.mark('furrow:plan-painted'); // (a frame, then a task: after the plan's first paint)
        this.unsaved.keep(this.deps.boundaryId, { params, plan });
        void this.creditLine.refresh(companyId);
      });
      this.setStatus(first ? 'Plan ready.' : 'New plan ready: see how the metrics changed.');
    } catch (err) {
      page.dataset.state = this.current ? 'planned' : 'error';
      this.setStatus(describeError(err, 'Planning failed'), true);
    } finally {
      this.busy = false;
      this.map.element.classList.remove('busy');
      this.map.element.removeAttribute('aria-busy');
      this.form.querySelector('button[type=submit]')?.removeAttribute('disabled');
    }
  }

  private async save(): Promise<void> {
    const cur = this.current;
    if (!cur) return;
    this.saveButton.disabled = true;
    this.setStatus('Saving the plan…');
    try {
      const res = (await this.deps.api.savePlan(this.deps.boundaryId, cur.request)) as
        Record<string, unknown> | undefined;
      const nested = res?.['plan'] as Record<string, unknown> | undefined;
      const id = res?.['planId'] ?? nested?.['planId'] ?? res?.['id'];
      if (typeof id === 'string') cur.savedPlanId = id;
      this.saveButton.textContent = 'Saved';
      this.deps.shell.page.dataset.savedPlanId = cur.savedPlanId ?? '';
      this.unsaved.forget(this.deps.boundaryId);
      void this.history.refresh(this.boundary?.fieldId, this.deps.boundaryId);
      this.renderDownloads();
      this.setStatus(cur.savedPlanId ? `Plan saved (${cur.savedPlanId}).` : 'Plan saved.');
    } catch (err) {
      this.saveButton.disabled = false;
      this.setStatus(describeError(err, 'The plan could not be saved'), true);
    }
  }

  private renderLegend(c: ClassifiedPlan | undefined): void {
    const counts = c ? layerCounts(c) : undefined;
    // Obstacles the map draws from the boundary (its holes, stored obstacles) when the plan has none.
    const b = this.boundary;
    if (counts && counts.obstacles === 0 && b) {
      counts.obstacles = b.obstacles.length + (b.passableZones?.length ?? 0) + holesOf(b.geometry).length;
    }
    // Gates: the plan's and the field's (gateMarks); the start point comes with the field when the plan has none.
    if (counts && b) {
      counts.gates = gateMarks(c, b.accessPoints).length;
      if (counts.staging === 0 && b.stagingArea) counts.staging = 1;
    }
    clear(this.legend);
    this.legend.append(h('h2', { class: 'legend-title' }, 'Layers'));
    const list = h('ul', { class: 'legend-list' });
    for (const layer of LAYERS) {
      const uncovered = layer.id === 'uncovered' ? this.current?.plan.metrics?.['uncoveredSquareMeters'] : undefined;
      const n = typeof uncovered === 'number' ? Math.round(uncovered) : (counts?.[layer.id] ?? 0);
      if (c && n === 0 && layer.id !== 'boundary' && layer.id !== 'tracks') continue;
      const countText = typeof uncovered === 'number' ? formatArea(uncovered) : String(n);
      const box = h('input', {
        type: 'checkbox',
        checked: this.map.isLayerVisible(layer.id),
        'data-layer': layer.id,
        id: `layer-${layer.id}`,
      });
      box.addEventListener('change', () => this.map.setLayerVisible(layer.id as LayerId, box.checked));
      list.append(
        h(
          'li',
          {},
          h(
            'label',
            { for: `layer-${layer.id}` },
            box,
            swatch(layer.swatch, layer.color),
            h('span', {}, layer.label),
            counts ? h('span', { class: 'count' }, countText) : null,
          ),
        ),
      );
    }
    this.legend.append(list);
  }

  private renderMetrics(
    metrics: Record<string, unknown> | undefined,
    previous: Record<string, unknown> | undefined,
  ): void {
    clear(this.metrics);
    if (!metrics) {
      this.metrics.append(h('p', { class: 'muted' }, 'No plan yet.'));
      return;
    }
    const changes = new Map<string, MetricChange>(
      (previous ? compareMetrics(previous, metrics) : []).map((c) => [c.key, c]),
    );
    const table = h(
      'table',
      { class: 'metrics-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'KPI'),
          h('th', { scope: 'col' }, 'This plan'),
          previous ? h('th', { scope: 'col' }, 'Change') : null,
        ),
      ),
    );
    const body = h('tbody');
    for (const row of METRIC_ROWS) {
      const v = metrics[row.key];
      if (typeof v !== 'number') continue;
      const change = changes.get(row.key);
      body.append(
        h(
          'tr',
          { 'data-metric': row.key },
          h('th', { scope: 'row' }, row.label),
          h('td', { class: 'value' }, row.format(v, metrics)),
          previous
            ? h(
                'td',
                { class: `change ${change?.verdict ?? ''}`, 'data-verdict': change?.verdict ?? '' },
                change?.text ?? '',
              )
            : null,
        ),
      );
    }
    table.append(body);
    this.metrics.append(table);
  }

  /** The planner's warnings in plain words with their code as a tag; one with a place zooms there. */
  private renderWarnings(plan: FeatureCollection): void {
    clear(this.warnings);
    const list = planWarnings(plan);
    const show = (geometry: Geometry): void => {
      this.map.zoomTo(geometry);
      this.map.element.focus();
    };
    for (const w of list) this.warnings.append(warningListItem(w, show));
    this.warnings.hidden = list.length === 0;
  }

  private renderDownloads(): void {
    clear(this.downloads);
    const cur = this.current;
    const list = h('ul', { class: 'download-list' });
    for (const f of EXPORT_FORMATS) {
      const b = h('button', { type: 'button', class: 'button link', 'data-format': f.id, disabled: !cur }, f.label);
      b.addEventListener('click', () => void this.download(f.id, f.extension));
      list.append(h('li', {}, b));
    }
    this.downloads.append(h('p', { class: 'muted' }, 'Download this plan for your terminal or farm software:'), list);
  }

  private async download(format: string, extension: string): Promise<void> {
    const cur = this.current;
    if (!cur) return;
    const base = `furrow-plan-${this.deps.boundaryId}`;
    try {
      let blob: Blob;
      let fileName = `${base}.${extension}`;
      if (format === 'geojson') {
        blob = new Blob([JSON.stringify(cur.plan)], { type: 'application/geo+json' });
      } else {
        if (!cur.savedPlanId) {
          this.setStatus('Saving the plan so it can be exported…');
          await this.save();
          if (!cur.savedPlanId) return;
        }
        this.setStatus(`Preparing the ${format} export…`);
        const out = await this.deps.api.exportPlan(cur.savedPlanId, format);
        blob = out.blob;
        fileName = fileNameFrom(out.fileName, fileName);
      }
      const url = URL.createObjectURL(blob);
      const a = h('a', { href: url, download: fileName, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      this.setStatus(`Downloaded ${fileName}.`);
    } catch (err) {
      this.setStatus(describeError(err, `The ${format} export failed`), true);
    }
  }

  private setStatus(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }
}

function swatch(kind: string, color: string): SVGElement {
  const svg = s('svg', { class: 'swatch', width: 22, height: 12, viewBox: '0 0 22 12', 'aria-hidden': 'true' });
  if (kind === 'area')
    svg.append(
      s('rect', {
        x: 1,
        y: 1,
        width: 20,
        height: 10,
        fill: color,
        'fill-opacity': 0.25,
        stroke: color,
        'stroke-width': 2,
      }),
    );
  else if (kind === 'point') svg.append(s('circle', { cx: 11, cy: 6, r: 5, fill: color }));
  else
    svg.append(
      s('line', {
        x1: 1,
        y1: 6,
        x2: 21,
        y2: 6,
        stroke: color,
        'stroke-width': 3,
        'stroke-dasharray': kind === 'dashed' ? '4 3' : undefined,
      }),
    );
  return svg;
}

/** The map's data of a field: its polygon, obstacles, passable zones, gates and start point. */
function fieldData(b: StoredBoundary): MapData {
  return {
    boundary: b.geometry,
    obstacles: b.obstacles,
    ...(b.passableZones ? { passableZones: b.passableZones } : {}),
    ...(b.accessPoints ? { accessPoints: b.accessPoints } : {}),
    ...(b.stagingArea ? { stagingArea: b.stagingArea } : {}),
  };
}

/**
 * Runs `fn` once the browser has painted what is on the page now (a frame, then a task); at the
 * latest after a second (a hidden tab paints no frames).
 */
function afterPaint(fn: () => void): void {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  requestAnimationFrame(() => setTimeout(run, 0));
  setTimeout(run, 1000);
}

function storageOrUndefined(kind: 'sessionStorage' | 'localStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined;
  }
}
