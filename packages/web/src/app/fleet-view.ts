/**
 * The plan view's fleet: "Machines in the field" (1 to 4 copies of the form's machine, ids m1…mk)
 * planned through `POST /api/path-plans/fleet/geojson`; each machine's route drawn in its colour over
 * the field (the single plan's route steps aside), a legend (machine, finish time, waits), the fleet's
 * makespan against its lower bound, the fleet's warnings, and a time slider that moves one marker per
 * machine to where it is at that moment (fleet-timeline.ts), standing still in its waits.
 */
import { SLIDER_STEPS, SliderPlay } from './slider-play.js';
import * as L from 'leaflet';
import type { ApiClient } from './api.js';
import { ApiError } from './api.js';
import { describeError } from './describe-error.js';
import { clear, h, s } from './dom.js';
import type { FeatureCollection, Position } from './geo.js';
import type { MapView } from './map.js';
import type { FleetView as FleetData, MachineState, MachineTimeline } from './fleet-timeline.js';
import { fleetColor, fleetRequest, gapText, machineAt, machineTimeline, readFleet } from './fleet-timeline.js';
import { clockText, linesOf } from './route.js';
import { featureType, WORKING_TYPES } from './layers.js';
import { planWarnings, warningListItem } from './warnings.js';

/** The most machines the control offers (the API takes up to 20). */
export const MAX_WEB_FLEET = 4;

const STATE_WORDS: Record<MachineState, string> = {
  'not-started': 'waiting to start',
  driving: 'driving',
  waiting: 'waiting',
  finished: 'done',
};

export interface FleetViewDeps {
  api: ApiClient;
  map: MapView;
  boundaryId: string;
  /** The single-plan request of the form's parameters, or undefined when they are not valid. */
  request: () => Record<string, unknown> | undefined;
  setStatus: (text: string, error?: boolean) => void;
}

export class FleetPanel {
  /** The side panel's section: the control, the fleet's figures and warnings. */
  readonly controls: HTMLElement;
  /** Under the map: the time slider and the machines' legend (hidden until a fleet is planned). */
  readonly element: HTMLElement;
  private readonly count: HTMLSelectElement;
  private readonly planButton: HTMLButtonElement;
  private readonly figures = h('div', { class: 'fleet-figures', 'data-testid': 'fleet-figures' });
  private readonly warnings = h('ul', { class: 'warnings', 'data-testid': 'fleet-warnings', hidden: true });
  private readonly legend = h('div', { class: 'fleet-legend', 'data-testid': 'fleet-legend' });
  private readonly routes: L.LayerGroup;
  private readonly markerGroup: L.LayerGroup;
  private markers: (L.Marker | undefined)[] = [];
  private stateCells: HTMLElement[] = [];
  private data?: FleetData;
  private timelines: MachineTimeline[] = [];
  private readonly player: SliderPlay;

  constructor(private readonly deps: FleetViewDeps) {
    const map = deps.map.leaflet;
    const pane = map.createPane('furrow-fleet');
    pane.style.zIndex = '440';
    pane.dataset.layer = 'fleet';
    map.createPane('furrow-fleet-markers').style.zIndex = '620';
    this.routes = L.layerGroup().addTo(map);
    this.markerGroup = L.layerGroup().addTo(map);
    this.count = h(
      'select',
      { id: 'fleet-count', 'data-testid': 'fleet-count' },
      ...Array.from({ length: MAX_WEB_FLEET }, (_, i) =>
        h('option', { value: String(i + 1) }, i === 0 ? '1 (the plan above)' : `${i + 1} machines`),
      ),
    );
    this.planButton = h(
      'button',
      { type: 'button', class: 'button primary', 'data-testid': 'fleet-plan', disabled: true },
      'Plan the machines',
    );
    this.count.addEventListener('change', () => this.countChanged());
    this.planButton.addEventListener('click', () => void this.plan());
    this.controls = h(
      'section',
      { class: 'panel fleet-panel', 'data-testid': 'fleet-panel', 'aria-labelledby': 'fleet-title' },
      h('h2', { id: 'fleet-title' }, 'Machines in the field'),
      h(
        'div',
        { class: 'form-row' },
        h('label', { for: 'fleet-count' }, 'Machines working the field at once'),
        this.count,
        h('small', { class: 'hint' }, "Each a copy of the machine above; they share the field's passes."),
      ),
      h('div', { class: 'actions' }, this.planButton),
      this.figures,
      this.warnings,
    );
    this.player = new SliderPlay(
      { id: 'fleet', label: 'Time in the field' },
      () => this.update(),
      () => this.data !== undefined,
    );
    this.element = h(
      'div',
      { class: 'fleet-view', 'data-testid': 'fleet-view', hidden: true },
      h(
        'div',
        { class: 'playback', role: 'group', 'aria-label': 'Fleet playback' },
        this.player.button,
        this.player.slider,
        this.player.clock,
      ),
      this.legend,
    );
    this.controls.dataset.state = 'idle';
  }

  /** A new single plan is on the map: the fleet (planned for other parameters) goes. */
  clear(): void {
    this.stop();
    this.data = undefined;
    this.timelines = [];
    this.routes.clearLayers();
    this.markerGroup.clearLayers();
    this.markers = [];
    clear(this.figures);
    clear(this.warnings);
    this.warnings.hidden = true;
    this.element.hidden = true;
    this.deps.map.element.classList.remove('fleet-shown');
    this.controls.dataset.state = 'idle';
  }

  private countChanged(): void {
    const k = Number(this.count.value);
    this.planButton.disabled = k < 2;
    this.planButton.textContent = k < 2 ? 'Plan the machines' : `Plan with ${k} machines`;
    if (k < 2) this.clear();
  }

  private async plan(): Promise<void> {
    const k = Number(this.count.value);
    const single = this.deps.request();
    if (k < 2 || !single) {
      if (!single) this.deps.setStatus('Check the planning parameters: the machines copy them.', true);
      return;
    }
    this.planButton.disabled = true;
    this.controls.dataset.state = 'planning';
    this.deps.setStatus(`Planning the field for ${k} machines…`);
    try {
      const fc = await this.deps.api.planFleetGeoJson(fleetRequest(single, k), this.deps.boundaryId);
      if (!fc || fc.type !== 'FeatureCollection' || !Array.isArray(fc.features))
        throw new ApiError(500, 'BadPlan', 'The server returned something that is not a fleet plan.');
      this.show(fc);
      this.deps.setStatus(`Plan for ${k} machines ready: move the time slider to watch them.`);
    } catch (err) {
      this.controls.dataset.state = this.data ? 'planned' : 'error';
      this.deps.setStatus(describeError(err, 'Planning the machines failed'), true);
    } finally {
      this.planButton.disabled = Number(this.count.value) < 2;
    }
  }

  /** Draws a fleet plan: the routes in the machines' colours, legend, figures, warnings; the clock at 0. */
  show(fc: FeatureCollection): void {
    this.clear();
    const data = readFleet(fc);
    this.data = data;
    this.timelines = data.machines.map(machineTimeline);
    const bounds = L.latLngBounds([]);
    data.machines.forEach((m, i) => {
      const color = fleetColor(i);
      for (const f of m.route) {
        const working = WORKING_TYPES.has(featureType(f));
        for (const line of linesOf(f.geometry)) {
          const path = L.polyline(
            line.map((p) => L.latLng(p[1], p[0])),
            {
              pane: 'furrow-fleet',
              color,
              weight: working ? 3 : 2,
              opacity: 1,
              interactive: false,
              className: `fleet-route fleet-machine-${i + 1}`,
              ...(working ? {} : { dashArray: '5 4' }),
            },
          );
          this.routes.addLayer(path);
          bounds.extend(path.getBounds());
        }
      }
      for (const w of m.waits) this.routes.addLayer(waitMarker(w.position, color));
      const first = this.timelines[i].positions[0];
      this.markers.push(first ? machineMarker(first, i, m.machineId) : undefined);
    });
    for (const marker of this.markers) if (marker) this.markerGroup.addLayer(marker);
    this.renderFigures(data);
    this.renderWarnings(fc);
    this.renderLegend(data);
    this.deps.map.element.classList.add('fleet-shown');
    this.element.hidden = false;
    this.player.slider.value = '0';
    this.update();
    this.controls.dataset.state = 'planned';
    this.controls.dataset.machines = String(data.machines.length);
  }

  private seconds(): number {
    return ((this.data?.figures.makespanSeconds ?? 0) * Number(this.player.slider.value)) / SLIDER_STEPS;
  }

  /** Moves every marker to where its machine is at the slider's time. */
  private update(): void {
    const total = this.data?.figures.makespanSeconds ?? 0;
    const t = this.seconds();
    this.player.clock.textContent = `${clockText(t)} / ${clockText(total)}`;
    this.player.slider.setAttribute('aria-valuetext', `${clockText(t)} of ${clockText(total)}`);
    this.timelines.forEach((tl, i) => {
      const at = machineAt(tl, t);
      const marker = this.markers[i];
      if (!at || !marker) return;
      marker.setLatLng(L.latLng(at.position[1], at.position[0]));
      const el = marker.getElement();
      if (el) {
        el.dataset.lonlat = `${at.position[0].toFixed(8)},${at.position[1].toFixed(8)}`;
        el.dataset.state = at.state;
      }
      const cell = this.stateCells[i];
      if (cell) cell.textContent = STATE_WORDS[at.state];
    });
    this.element.dataset.seconds = t.toFixed(2);
  }

  private renderFigures(data: FleetData): void {
    clear(this.figures);
    const f = data.figures;
    const rows: [string, string][] = [['Done after (makespan)', clockText(f.makespanSeconds)]];
    if (f.lowerBoundSeconds !== undefined) rows.push(['Lower bound', clockText(f.lowerBoundSeconds)]);
    if (f.gapRatio !== undefined) rows.push(['Gap to the bound', gapText(f.gapRatio)]);
    if (f.singleMachineTimeSeconds !== undefined)
      rows.push(['One machine alone', clockText(f.singleMachineTimeSeconds)]);
    if (f.waitSeconds !== undefined) rows.push(['Waiting, all machines', clockText(f.waitSeconds)]);
    this.figures.append(
      h(
        'table',
        { class: 'metrics-table' },
        h(
          'tbody',
          {},
          ...rows.map(([label, value]) =>
            h('tr', {}, h('th', { scope: 'row' }, label), h('td', { class: 'value' }, value)),
          ),
        ),
      ),
    );
  }

  /** The fleet's warnings, as the plan's are shown: title, plain text, the code as a tag. */
  private renderWarnings(fc: FeatureCollection): void {
    const list = planWarnings(fc);
    for (const w of list) this.warnings.append(warningListItem(w, (g) => this.deps.map.zoomTo(g)));
    this.warnings.hidden = list.length === 0;
  }

  private renderLegend(data: FleetData): void {
    clear(this.legend);
    this.stateCells = [];
    const body = h('tbody');
    data.machines.forEach((m, i) => {
      const state = h('td', { class: 'fleet-state' });
      this.stateCells.push(state);
      const waited = m.waits.reduce((sum, w) => sum + w.durationSeconds, 0);
      body.append(
        h(
          'tr',
          { 'data-machine-id': m.machineId },
          h('th', { scope: 'row' }, h('span', { class: 'fleet-swatch-cell' }, swatch(fleetColor(i), i), m.machineId)),
          h('td', { class: 'value' }, clockText(m.finishSeconds)),
          h('td', { class: 'value' }, m.waits.length === 0 ? '0' : `${m.waits.length} (${clockText(waited)})`),
          state,
        ),
      );
    });
    this.legend.append(
      h(
        'table',
        { class: 'metrics-table fleet-table' },
        h('caption', { class: 'legend-title' }, 'Machines'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Machine'),
            h('th', { scope: 'col' }, 'Finishes at'),
            h('th', { scope: 'col' }, 'Waits'),
            h('th', { scope: 'col' }, 'Now'),
          ),
        ),
        body,
      ),
    );
  }

  stop(): void {
    this.player.stop();
  }
}

/** A machine's marker: a dot in its colour with its number. */
function machineMarker(p: Position, index: number, machineId: string): L.Marker {
  const el = document.createElement('span');
  el.className = 'marker-dot fleet-marker-dot';
  el.style.background = fleetColor(index);
  el.textContent = String(index + 1);
  const marker = L.marker([p[1], p[0]], {
    pane: 'furrow-fleet-markers',
    keyboard: false,
    interactive: false,
    icon: L.divIcon({ className: 'marker fleet-marker', html: el, iconSize: [22, 22] }),
  });
  marker.on('add', () => {
    const root = marker.getElement();
    if (root) root.dataset.machineId = machineId;
  });
  return marker;
}

/** A wait: a white dot ringed in the machine's colour where it stands. */
function waitMarker(p: Position, color: string): L.CircleMarker {
  return L.circleMarker([p[1], p[0]], {
    pane: 'furrow-fleet',
    radius: 5,
    color,
    weight: 2,
    fillColor: '#ffffff',
    fillOpacity: 1,
    interactive: false,
    className: 'fleet-wait',
  });
}

function swatch(color: string, index: number): SVGElement {
  const svg = s('svg', { class: 'swatch', width: 22, height: 12, viewBox: '0 0 22 12', 'aria-hidden': 'true' });
  svg.append(s('line', { x1: 1, y1: 6, x2: 21, y2: 6, stroke: color, 'stroke-width': 3 }));
  svg.dataset.machineIndex = String(index);
  return svg;
}
