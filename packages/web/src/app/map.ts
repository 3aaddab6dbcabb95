/**
 * The plan map: SVG drawn from GeoJSON in a local metric projection, no tiles. Pan with a drag,
 * the arrow keys or the buttons; zoom with the wheel, pinch-free +/− buttons or the +/− keys;
 * "Fit" shows the whole field. Layers are SVG groups toggled by id.
 */
import { clear, h, s } from './dom.js';
import type { Feature, Geometry, Position, Projection, ViewBox } from './geo.js';
import {
  fitViewBox,
  geometryPath,
  geometryPoints,
  panViewBox,
  projectedBounds,
  projectionFor,
  zoomViewBox,
} from './geo.js';
import type { ClassifiedPlan, LayerId } from './layers.js';
import { LAYERS } from './layers.js';

export interface MapData {
  boundary: Geometry;
  obstacles: Geometry[];
  plan?: ClassifiedPlan;
}

/** Stroke widths in screen pixels per layer (vector-effect keeps them constant under zoom). */
const STROKE_PX: Partial<Record<LayerId, number>> = {
  boundary: 2.5,
  obstacles: 2,
  headlands: 2,
  tracks: 1.6,
  turns: 1.6,
  connectors: 1.6,
  crosshatches: 1,
  tramlines: 1.2,
};

export class MapView {
  readonly element: HTMLElement;
  private readonly svg: SVGSVGElement;
  private readonly content: SVGGElement;
  private readonly layerGroups = new Map<LayerId, SVGGElement>();
  private readonly markers: SVGGElement[] = [];
  private projection?: Projection;
  private view: ViewBox = { x: 0, y: 0, width: 100, height: 100 };
  private hidden = new Set<LayerId>();
  private fitBounds?: ReturnType<typeof projectedBounds>;
  private readonly scaleBar: HTMLElement;
  private readonly scaleLabel: HTMLElement;

  constructor() {
    this.svg = s('svg', {
      class: 'map-svg',
      role: 'img',
      'aria-label': 'Field map with the planned route',
      preserveAspectRatio: 'xMidYMid meet',
    }) as SVGSVGElement;
    this.content = s('g') as SVGGElement;
    this.svg.append(this.content);
    const btn = (label: string, title: string, action: () => void, cls: string) =>
      h('button', { type: 'button', class: `map-btn ${cls}`, title, 'aria-label': title, onclick: action }, label);
    const toolbar = h(
      'div',
      { class: 'map-toolbar', role: 'toolbar', 'aria-label': 'Map controls' },
      btn('+', 'Zoom in', () => this.zoomBy(1.5), 'zoom-in'),
      btn('−', 'Zoom out', () => this.zoomBy(1 / 1.5), 'zoom-out'),
      btn('⤢', 'Fit field', () => this.fit(), 'zoom-fit'),
    );
    this.element = h(
      'div',
      {
        class: 'map',
        tabindex: 0,
        'aria-label': 'Map. Arrow keys pan, plus and minus zoom, 0 fits the field.',
        'data-testid': 'map',
      },
      toolbar,
    );
    this.scaleLabel = h('span', { class: 'scale-label' });
    this.scaleBar = h(
      'div',
      { class: 'scale-bar', 'aria-hidden': 'true' },
      h('span', { class: 'scale-line' }),
      this.scaleLabel,
    );
    const north = h(
      'div',
      { class: 'north-arrow', title: 'North is up', 'aria-hidden': 'true' },
      '▲',
      h('span', {}, 'N'),
    );
    this.element.append(this.scaleBar, north);
    this.element.prepend(this.svg);
    this.bindInteractions();
  }

  /** Draws a boundary, obstacles and (optionally) a plan; keeps the view unless `refit`. */
  setData(data: MapData, refit: boolean): void {
    const all: (Geometry | null)[] = [data.boundary, ...data.obstacles];
    if (data.plan)
      for (const id of Object.keys(data.plan.layers) as LayerId[])
        all.push(...data.plan.layers[id].map((f) => f.geometry));
    const projection = this.projection && !refit ? this.projection : projectionFor([data.boundary]);
    if (!projection) return;
    this.projection = projection;
    this.fitBounds = projectedBounds(all, projection);
    clear(this.content);
    this.layerGroups.clear();
    this.markers.length = 0;
    const plan = data.plan;
    for (const layer of LAYERS) {
      const g = s('g', { class: `layer layer-${layer.id}`, 'data-layer': layer.id }) as SVGGElement;
      const features: Feature[] = plan ? [...plan.layers[layer.id]] : [];
      if (layer.id === 'boundary' && features.length === 0)
        features.push({ type: 'Feature', geometry: data.boundary, properties: { type: 'Boundary' } });
      if (layer.id === 'obstacles' && features.length === 0) {
        for (const o of data.obstacles)
          features.push({ type: 'Feature', geometry: o, properties: { type: 'Obstacle' } });
        // Holes of the boundary are no-go zones: show them as obstacles too.
        for (const hole of holesOf(data.boundary))
          features.push({
            type: 'Feature',
            geometry: hole,
            properties: { type: 'Obstacle', name: 'hole in the field' },
          });
      }
      this.drawFeatures(g, layer.id, layer.color, features, projection);
      if (layer.id === 'startEnd' && plan) {
        if (plan.start) g.append(this.marker(plan.start, 'S', '#1b7f3b', 'Start', projection));
        if (plan.end) g.append(this.marker(plan.end, 'E', '#b3261e', 'End', projection));
      }
      if (this.hidden.has(layer.id)) g.setAttribute('display', 'none');
      this.layerGroups.set(layer.id, g);
      this.content.append(g);
    }
    if (refit) this.fit();
    else this.applyView();
  }

  private drawFeatures(g: SVGGElement, id: LayerId, color: string, features: Feature[], projection: Projection): void {
    const stroke = STROKE_PX[id] ?? 1.5;
    for (const f of features) {
      const geom = f.geometry;
      const d = geometryPath(geom, projection);
      if (d !== '') {
        const area = geom?.type === 'Polygon' || geom?.type === 'MultiPolygon';
        const attrs: Record<string, string | number> = {
          d,
          stroke: color,
          'stroke-width': stroke,
          'vector-effect': 'non-scaling-stroke',
          'stroke-linejoin': 'round',
          'stroke-linecap': 'round',
          fill: 'none',
          'fill-rule': 'evenodd',
        };
        if (area) attrs.fill = id === 'boundary' ? '#e8f2dc' : id === 'obstacles' ? 'rgba(140,45,25,0.25)' : 'none';
        if (id === 'connectors' || id === 'crosshatches' || id === 'tramlines') attrs['stroke-dasharray'] = '5 4';
        if (id === 'obstacles' && f.properties?.['passable'] === true) attrs['stroke-dasharray'] = '3 3';
        const title = describeFeature(f);
        g.append(s('path', attrs, title ? s('title', {}, title) : null));
      }
      for (const p of geometryPoints(geom)) {
        const label = id === 'refill' ? 'R' : id === 'staging' ? 'P' : id === 'warnings' ? '!' : '•';
        g.append(this.marker(p, label, color, describeFeature(f) ?? '', projection));
      }
    }
  }

  /** A marker of constant screen size at a lon/lat position (rescaled on every view change). */
  private marker(p: Position, label: string, color: string, title: string, projection: Projection): SVGGElement {
    const [x, y] = projection.project(p);
    const g = s(
      'g',
      { class: 'marker', 'data-x': x, 'data-y': -y },
      s('circle', { r: 9, fill: color, stroke: '#fff', 'stroke-width': 2 }),
      s(
        'text',
        { 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 11, 'font-weight': 700, fill: '#fff' },
        label,
      ),
      title ? s('title', {}, title) : null,
    ) as SVGGElement;
    this.markers.push(g);
    return g;
  }

  setLayerVisible(id: LayerId, visible: boolean): void {
    if (visible) this.hidden.delete(id);
    else this.hidden.add(id);
    const g = this.layerGroups.get(id);
    if (g) {
      if (visible) g.removeAttribute('display');
      else g.setAttribute('display', 'none');
    }
  }

  isLayerVisible(id: LayerId): boolean {
    return !this.hidden.has(id);
  }

  fit(): void {
    if (!this.fitBounds) return;
    const r = this.svg.getBoundingClientRect();
    this.view = fitViewBox(this.fitBounds, r.width || 800, r.height || 600);
    this.applyView();
  }

  zoomBy(factor: number, clientX?: number, clientY?: number): void {
    const r = this.svg.getBoundingClientRect();
    const [px, py] =
      clientX === undefined || clientY === undefined
        ? [this.view.x + this.view.width / 2, this.view.y + this.view.height / 2]
        : this.toWorld(clientX, clientY, r);
    const next = zoomViewBox(this.view, factor, px, py);
    // Between 5 km across and 2 m across: beyond that nothing useful is left to see.
    if (next.width > 5000 * 20 || next.width < 2) return;
    this.view = next;
    this.applyView();
  }

  panByPixels(dxPx: number, dyPx: number): void {
    const k = this.metersPerPixel();
    this.view = panViewBox(this.view, -dxPx * k, -dyPx * k);
    this.applyView();
  }

  /** Current view box (for tests and debugging). */
  getView(): ViewBox {
    return { ...this.view };
  }

  private metersPerPixel(): number {
    const r = this.svg.getBoundingClientRect();
    const w = r.width || 800;
    const h = r.height || 600;
    return Math.max(this.view.width / w, this.view.height / h);
  }

  private toWorld(clientX: number, clientY: number, r: DOMRect): [number, number] {
    const k = this.metersPerPixel();
    const cx = this.view.x + this.view.width / 2;
    const cy = this.view.y + this.view.height / 2;
    return [cx + (clientX - (r.left + r.width / 2)) * k, cy + (clientY - (r.top + r.height / 2)) * k];
  }

  private applyView(): void {
    const v = this.view;
    this.svg.setAttribute('viewBox', `${v.x} ${v.y} ${v.width} ${v.height}`);
    const k = this.metersPerPixel();
    for (const m of this.markers) {
      m.setAttribute('transform', `translate(${m.getAttribute('data-x')} ${m.getAttribute('data-y')}) scale(${k})`);
    }
    this.element.dataset.viewWidth = v.width.toFixed(2);
    const { meters, pixels } = scaleFor(k);
    (this.scaleBar.firstChild as HTMLElement).style.width = `${pixels}px`;
    this.scaleLabel.textContent = meters >= 1000 ? `${meters / 1000} km` : `${meters} m`;
  }

  private bindInteractions(): void {
    let drag: { id: number; x: number; y: number } | undefined;
    this.svg.addEventListener('pointerdown', (e) => {
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
      this.svg.setPointerCapture(e.pointerId);
      this.element.classList.add('dragging');
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (!drag || drag.id !== e.pointerId) return;
      this.panByPixels(e.clientX - drag.x, e.clientY - drag.y);
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
    });
    const end = (e: PointerEvent) => {
      if (drag && drag.id === e.pointerId) drag = undefined;
      this.element.classList.remove('dragging');
    };
    this.svg.addEventListener('pointerup', end);
    this.svg.addEventListener('pointercancel', end);
    this.svg.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoomBy(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
      },
      { passive: false },
    );
    this.element.addEventListener('keydown', (e) => {
      if (e.target !== this.element) return;
      const step = 60;
      const actions: Record<string, () => void> = {
        ArrowLeft: () => this.panByPixels(step, 0),
        ArrowRight: () => this.panByPixels(-step, 0),
        ArrowUp: () => this.panByPixels(0, step),
        ArrowDown: () => this.panByPixels(0, -step),
        '+': () => this.zoomBy(1.5),
        '=': () => this.zoomBy(1.5),
        '-': () => this.zoomBy(1 / 1.5),
        '0': () => this.fit(),
      };
      const a = actions[e.key];
      if (a) {
        e.preventDefault();
        a();
      }
    });
    if (typeof ResizeObserver !== 'undefined') {
      let first = true;
      new ResizeObserver(() => {
        if (first) {
          first = false;
          return;
        }
        this.applyView();
      }).observe(this.svg);
    }
  }
}

function describeFeature(f: Feature): string | undefined {
  const p = f.properties ?? {};
  const type = typeof p['type'] === 'string' ? p['type'] : undefined;
  if (!type) return undefined;
  const parts = [type === 'Turn' && typeof p['turnType'] === 'string' ? `Turn (${p['turnType']})` : type];
  if (typeof p['sequence'] === 'number') parts.push(`#${p['sequence']}`);
  if (typeof p['lengthMeters'] === 'number') parts.push(`${Math.round(p['lengthMeters'])} m`);
  if (typeof p['name'] === 'string') parts.push(p['name']);
  if (typeof p['message'] === 'string') parts.push(p['message']);
  return parts.join(' · ');
}

/** A round scale-bar length (1, 2 or 5 × 10^n m) near 100 px at `metersPerPixel`. */
export function scaleFor(metersPerPixel: number): { meters: number; pixels: number } {
  const target = 100 * metersPerPixel;
  const p = Math.pow(10, Math.floor(Math.log10(target)));
  const meters = [5, 2, 1].map((m) => m * p).find((m) => m <= target) ?? p;
  return { meters, pixels: Math.round(meters / metersPerPixel) };
}

/** The holes of a Polygon / MultiPolygon as Polygons. */
export function holesOf(g: Geometry): Geometry[] {
  const polys =
    g.type === 'Polygon'
      ? [g.coordinates as Position[][]]
      : g.type === 'MultiPolygon'
        ? (g.coordinates as Position[][][])
        : [];
  return polys.flatMap((rings) => rings.slice(1).map((ring) => ({ type: 'Polygon', coordinates: [ring] })));
}
