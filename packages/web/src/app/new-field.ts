/**
 * `/fields/new`: bring a field. Upload a boundary file (GeoJSON, KML/KMZ, zipped Shapefile,
 * ISO-XML: read by the API's format packages, errors in words) or paste GeoJSON / WKT, or draw
 * the boundary on the map; draw obstacles (no-go zones, saved as holes of the boundary) and passable
 * zones, place the gates and the start point, edit any of them on the map (drag a corner or a point, or the
 * middle of a side to add a corner) (saved with the field: `obstacles[]` with `passable`,
 * `accessPoints`, `stagingArea`, and taken by every plan of it); name it and save it as a field of the
 * organisation through the land API, then open its plan view.
 */
import type { ApiClient } from './api.js';
import { ApiError } from './api.js';
import { clear, h } from './dom.js';
import { PointPicker, PolygonDrawer, ShapeEditor, type EditableShape } from './draw.js';
import type { Geometry, Position } from './geo.js';
import { ringsAreaSquareMeters, projectionFor } from './geo.js';
import { MapView, basemapFromPage } from './map.js';
import { formatArea } from './metrics.js';
import type { SelectorOption, Shell } from './shell.js';

export interface NewFieldDeps {
  shell: Shell;
  api: ApiClient;
  organisations: SelectorOption[];
}

/** The outer ring of a Polygon, or of the largest polygon of a MultiPolygon. */
export function outerRings(g: Geometry): Position[][] {
  if (g.type === 'Polygon') return g.coordinates as Position[][];
  if (g.type === 'MultiPolygon') {
    const polys = g.coordinates as Position[][][];
    const projection = projectionFor([g]);
    if (!projection) return [];
    return [...polys].sort((a, b) => ringsAreaSquareMeters(b, projection) - ringsAreaSquareMeters(a, projection))[0];
  }
  return [];
}

/** The file name a pasted text is sent under (the API detects the format from the content too). */
export function pastedFileName(text: string): string {
  return /^\s*[{[]/.test(text) ? 'pasted.geojson' : 'pasted.wkt';
}

export class NewFieldPage {
  private readonly map = new MapView(basemapFromPage(document));
  private readonly drawer: PolygonDrawer;
  private readonly picker: PointPicker;
  private readonly editor: ShapeEditor;
  private readonly editButton = h(
    'button',
    { type: 'button', class: 'button secondary', 'data-testid': 'nf-edit', 'aria-pressed': 'false' },
    'Edit on the map',
  );
  private readonly status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite', 'data-testid': 'status' });
  private readonly summary = h('p', { class: 'muted', 'data-testid': 'field-summary' }, 'No boundary yet.');
  private readonly candidates = h('div', { class: 'candidates', 'data-testid': 'candidates' });
  private readonly obstacleList = h('ul', { class: 'obstacle-list', 'data-testid': 'obstacles' });
  private readonly drawTools = h('div', { class: 'actions draw-tools', hidden: true });
  private rings: Position[][] = [];
  private obstacles: Position[][] = [];
  private passable: Position[][] = [];
  private gates: Position[] = [];
  private startPoint?: Position;

  constructor(private readonly deps: NewFieldDeps) {
    this.drawer = new PolygonDrawer(this.map.leaflet);
    this.picker = new PointPicker(this.map.leaflet);
    this.editor = new ShapeEditor(this.map.leaflet);
    this.editButton.addEventListener('click', () => (this.editor.active ? this.stopEditing() : this.edit()));
  }

  start(): void {
    const { shell } = this.deps;
    shell.setCurrentPage('new-field');
    shell.setSelectorsVisible(false);
    const page = shell.page;
    const org = h(
      'select',
      { id: 'nf-org', name: 'organisation', 'data-testid': 'nf-org' },
      ...this.deps.organisations.map((o) => h('option', { value: o.value }, o.label)),
    );
    const name = h('input', { id: 'nf-name', name: 'name', required: true, maxlength: 200, 'data-testid': 'nf-name' });
    const file = h('input', {
      id: 'nf-file',
      type: 'file',
      accept: '.geojson,.json,.kml,.kmz,.zip,.xml,.wkt,.txt',
      'data-testid': 'nf-file',
    });
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (f) void this.read(f, f.name);
    });
    const paste = h('textarea', { id: 'nf-paste', rows: 4, 'data-testid': 'nf-paste', spellcheck: 'false' });
    const readPaste = h(
      'button',
      { type: 'button', class: 'button secondary', 'data-testid': 'nf-read-paste' },
      'Read',
    );
    readPaste.addEventListener('click', () => {
      const text = paste.value.trim();
      if (text === '') return this.setStatus('Paste GeoJSON or WKT first.', true);
      void this.read(new Blob([text], { type: 'text/plain' }), pastedFileName(text));
    });
    const drawBoundary = h('button', { type: 'button', class: 'button secondary', 'data-testid': 'nf-draw' }, 'Draw');
    drawBoundary.addEventListener('click', () => this.draw('boundary'));
    const drawObstacle = h(
      'button',
      { type: 'button', class: 'button secondary', 'data-testid': 'nf-draw-obstacle' },
      'Draw an obstacle',
    );
    drawObstacle.addEventListener('click', () => this.draw('obstacle'));
    const tool = (testid: string, label: string, action: () => void) => {
      const b = h('button', { type: 'button', class: 'button secondary', 'data-testid': testid }, label);
      b.addEventListener('click', action);
      return b;
    };
    const drawPassable = tool('nf-draw-passable', 'Draw a passable zone', () => this.draw('passable'));
    const addGate = tool('nf-add-gate', 'Add a gate', () => this.pick('gate'));
    const setStart = tool('nf-set-start', 'Set the start point', () => this.pick('start'));
    const save = h('button', { type: 'submit', class: 'button primary', 'data-testid': 'nf-save' }, 'Save field');
    const form = h(
      'form',
      { class: 'params', novalidate: true },
      h('div', { class: 'form-row' }, h('label', { for: 'nf-org' }, 'Organisation'), org),
      h('div', { class: 'form-row' }, h('label', { for: 'nf-name' }, 'Field name'), name),
      save,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.save(org.value, org.selectedOptions[0]?.textContent ?? '', name.value.trim());
    });
    page.replaceChildren(
      h(
        'div',
        { class: 'plan-layout', 'data-testid': 'new-field' },
        h(
          'section',
          { class: 'map-pane', 'aria-label': 'Map' },
          h('div', { class: 'map-header' }, h('h1', { class: 'field-title' }, 'Bring a field'), this.summary),
          this.map.element,
          this.drawTools,
        ),
        h(
          'aside',
          { class: 'side-panel', 'aria-label': 'Field' },
          h(
            'section',
            { class: 'panel' },
            h('h2', {}, 'Boundary'),
            h('div', { class: 'form-row' }, h('label', { for: 'nf-file' }, 'Upload a file'), file),
            h(
              'small',
              { class: 'hint' },
              'GeoJSON, KML or KMZ, a zipped Shapefile, ISO-XML (TASKDATA.XML or its zip), WKT.',
            ),
            h('div', { class: 'form-row' }, h('label', { for: 'nf-paste' }, 'Or paste GeoJSON or WKT'), paste),
            h('div', { class: 'actions' }, readPaste, drawBoundary, this.editButton),
            this.candidates,
          ),
          h(
            'section',
            { class: 'panel' },
            h('h2', {}, 'Obstacles, gates and start'),
            this.obstacleList,
            h('div', { class: 'actions wrap' }, drawObstacle, drawPassable, addGate, setStart),
            h(
              'small',
              { class: 'hint' },
              'A passable zone is driven over but not worked; the route starts at the start point (or the first gate).',
            ),
          ),
          h('section', { class: 'panel' }, h('h2', {}, 'Save'), form),
          this.status,
        ),
      ),
    );
    page.dataset.state = 'new-field';
  }

  private async read(file: Blob, filename: string): Promise<void> {
    this.setStatus(`Reading ${filename}…`);
    clear(this.candidates);
    try {
      const items = await this.deps.api.readBoundaries(file, filename);
      if (items.length === 0) throw new ApiError(422, 'InvalidGeometry', 'the file holds no polygon');
      this.use(items[0].geometry);
      if (items.length > 1) this.offer(items);
      this.setStatus(`Read ${items.length} boundar${items.length === 1 ? 'y' : 'ies'} from ${filename}.`);
    } catch (err) {
      const why = err instanceof ApiError ? err.message : 'the server could not be reached';
      this.setStatus(`${filename} could not be read: ${why}.`, true);
    }
  }

  /** More than one polygon in the file: let the user pick. */
  private offer(items: { name: string | null; geometry: Geometry }[]): void {
    const select = h(
      'select',
      { id: 'nf-candidate', 'data-testid': 'nf-candidate' },
      ...items.map((it, i) => h('option', { value: String(i) }, it.name ?? `Polygon ${i + 1}`)),
    );
    select.addEventListener('change', () => this.use(items[Number(select.value)].geometry));
    this.candidates.append(h('div', { class: 'form-row' }, h('label', { for: 'nf-candidate' }, 'Boundary'), select));
  }

  private use(geometry: Geometry): void {
    const rings = outerRings(geometry);
    if (rings.length === 0) return;
    this.rings = rings;
    this.redraw(true);
  }

  /** Places a gate or the start point with the next click on the map. */
  private pick(kind: 'gate' | 'start'): void {
    if (this.rings.length === 0) return this.setStatus('Bring or draw the boundary first.', true);
    this.drawer.cancel();
    this.stopEditing();
    const cancel = h('button', { type: 'button', class: 'button secondary' }, 'Cancel');
    cancel.addEventListener('click', () => {
      this.picker.cancel();
      this.drawTools.hidden = true;
    });
    this.drawTools.replaceChildren(cancel);
    this.drawTools.hidden = false;
    this.setStatus(kind === 'gate' ? 'Click the map where the gate is.' : 'Click the map where the machine starts.');
    this.picker.start((p) => {
      this.drawTools.hidden = true;
      if (kind === 'gate') this.gates.push(p);
      else this.startPoint = p;
      this.redraw(false);
      this.setStatus(kind === 'gate' ? `Gate ${this.gates.length} added.` : 'Start point set.');
    });
  }

  private draw(kind: 'boundary' | 'obstacle' | 'passable'): void {
    if (kind !== 'boundary' && this.rings.length === 0)
      return this.setStatus('Bring or draw the boundary first, then its obstacles.', true);
    this.picker.cancel();
    this.stopEditing();
    const finish = h('button', { type: 'button', class: 'button primary', 'data-testid': 'nf-finish' }, 'Finish');
    const undo = h('button', { type: 'button', class: 'button secondary', 'data-testid': 'nf-undo' }, 'Undo corner');
    const cancel = h('button', { type: 'button', class: 'button secondary' }, 'Cancel');
    finish.addEventListener('click', () => {
      if (!this.drawer.finish()) this.setStatus('A shape needs at least 3 corners.', true);
    });
    undo.addEventListener('click', () => this.drawer.undo());
    cancel.addEventListener('click', () => {
      this.drawer.cancel();
      this.drawTools.hidden = true;
    });
    this.drawTools.replaceChildren(finish, undo, cancel);
    this.drawTools.hidden = false;
    const what = kind === 'passable' ? 'passable zone' : kind;
    this.setStatus(`Click the map at each corner of the ${what}; Finish closes it.`);
    this.drawer.start(kind === 'boundary' ? '#2f5d1e' : '#8c2d19', (ring) => {
      this.drawTools.hidden = true;
      if (kind === 'boundary') this.rings = [ring];
      else (kind === 'passable' ? this.passable : this.obstacles).push(ring);
      this.redraw(kind === 'boundary');
      this.setStatus(
        kind === 'boundary' ? 'Boundary drawn.' : kind === 'passable' ? 'Passable zone added.' : 'Obstacle added.',
      );
    });
  }

  /** Shows a handle on every corner and point to drag, and on every side's middle to add a corner. */
  private edit(): void {
    if (this.rings.length === 0) return this.setStatus('Bring or draw the boundary first.', true);
    this.drawer.cancel();
    this.picker.cancel();
    this.drawTools.hidden = true;
    this.editButton.textContent = 'Done editing';
    this.editButton.setAttribute('aria-pressed', 'true');
    this.showHandles();
    this.setStatus('Drag a corner or a point to move it, or the middle of a side to add a corner.');
  }

  private stopEditing(): void {
    if (!this.editor.active) return;
    this.editor.stop();
    this.editButton.textContent = 'Edit on the map';
    this.editButton.setAttribute('aria-pressed', 'false');
  }

  /** The editor's shapes, in the order `changedShape` reads them back. */
  private shapes(): EditableShape[] {
    return [
      ...this.rings.map((ring, i) => ({ label: i === 0 ? 'the boundary' : `hole ${i} of the boundary`, ring })),
      ...this.obstacles.map((ring, i) => ({ label: `obstacle ${i + 1}`, ring })),
      ...this.passable.map((ring, i) => ({ label: `passable zone ${i + 1}`, ring })),
      ...this.gates.map((point, i) => ({ label: `Gate ${i + 1}`, point })),
      ...(this.startPoint ? [{ label: 'The start point', point: this.startPoint }] : []),
    ];
  }

  private showHandles(): void {
    this.editor.show(this.shapes(), (k, shape) => {
      const lists: Position[][][] = [this.rings, this.obstacles, this.passable];
      for (const list of lists) {
        if (k < list.length) {
          if (shape.ring) list[k] = shape.ring;
          return this.redraw(false);
        }
        k -= list.length;
      }
      if (k < this.gates.length && shape.point) this.gates[k] = shape.point;
      else if (shape.point) this.startPoint = shape.point;
      this.redraw(false);
    });
  }

  private redraw(refit: boolean): void {
    const boundary: Geometry = { type: 'Polygon', coordinates: [...this.rings, ...this.obstacles] };
    this.map.setData({ boundary, obstacles: [], ...this.inputs() }, refit);
    const projection = projectionFor([boundary]);
    const area = projection ? ringsAreaSquareMeters(boundary.coordinates as Position[][], projection) : 0;
    const holes = this.rings.length - 1 + this.obstacles.length;
    const count = (n: number, one: string, many = `${one}s`) => (n > 0 ? [`${n} ${n === 1 ? one : many}`] : []);
    this.summary.textContent = [
      formatArea(area),
      ...count(holes, 'obstacle'),
      ...count(this.passable.length, 'passable zone'),
      ...count(this.gates.length, 'gate'),
      ...(this.startPoint ? ['start point set'] : []),
    ].join(', ');
    clear(this.obstacleList);
    const item = (label: string, remove: () => void) => {
      const button = h('button', { type: 'button', class: 'button link' }, 'Remove');
      button.addEventListener('click', () => {
        remove();
        this.redraw(false);
      });
      this.obstacleList.append(h('li', {}, `${label} `, button));
    };
    this.obstacles.forEach((_, i) => item(`Obstacle ${i + 1} (no-go)`, () => this.obstacles.splice(i, 1)));
    this.passable.forEach((_, i) => item(`Passable zone ${i + 1}`, () => this.passable.splice(i, 1)));
    this.gates.forEach((_, i) => item(`Gate ${i + 1}`, () => this.gates.splice(i, 1)));
    if (this.startPoint) item('Start point', () => (this.startPoint = undefined));
    if (this.editor.active) this.showHandles();
  }

  /** The passable zones, gates and start point, as the field keeps them. */
  private inputs(): { passableZones?: Geometry[]; accessPoints?: Position[]; stagingArea?: Position } {
    return {
      ...(this.passable.length > 0
        ? { passableZones: this.passable.map((ring) => ({ type: 'Polygon', coordinates: [ring] }) as Geometry) }
        : {}),
      ...(this.gates.length > 0 ? { accessPoints: [...this.gates] } : {}),
      ...(this.startPoint ? { stagingArea: this.startPoint } : {}),
    };
  }

  private async save(companyId: string, companyName: string, name: string): Promise<void> {
    if (this.rings.length === 0) return this.setStatus('Bring or draw the boundary first.', true);
    if (name === '') {
      document.getElementById('nf-name')?.focus();
      return this.setStatus('Give the field a name.', true);
    }
    if (!companyId) return this.setStatus('You have no organisation to save the field in.', true);
    this.setStatus('Saving the field…');
    try {
      const farmId = await this.deps.api.farmOf(companyId, companyName || 'My farm');
      const saved = await this.deps.api.saveField(farmId, name, [...this.rings, ...this.obstacles], this.inputs());
      this.deps.shell.page.dataset.savedBoundaryId = saved.boundaryId;
      location.assign(this.deps.shell.link(`/path-planning/boundary/${encodeURIComponent(saved.boundaryId)}`));
    } catch (err) {
      const why = err instanceof ApiError ? err.message : 'the server could not be reached';
      this.setStatus(`The field could not be saved: ${why}.`, true);
    }
  }

  private setStatus(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }
}
