/**
 * The plan map on Leaflet (docs/web.md "Map"): an optional raster basemap (an XYZ URL template
 * the server is configured with), and the plan's layers above it, one Leaflet pane per layer of
 * `LAYERS` (the pane carries `data-layer`, so a layer hides as one element). Each layer is drawn
 * by a `LayerPainter` (layer-paint.ts): adding a layer is a row in `LAYERS` and a painter.
 * Pan with a drag or the arrow keys, zoom with the wheel, the +/− buttons or keys; "Fit" (or 0)
 * shows the whole field.
 */
import * as L from 'leaflet';
import { h } from './dom.js';
import type { Geometry, Position } from './geo.js';
import type { LayerId, MapData } from './layers.js';
import { LAYERS } from './layers.js';
import { paintLayer } from './layer-paint.js';
import { UncoveredLayer } from './uncovered.js';
import { routeCanvas } from './route-canvas.js';
import type { Timeline } from './route.js';
import { positionAt } from './route.js';

/** A raster basemap: XYZ URL template with {z}, {x}, {y}, and the attribution the provider asks for. */
export interface BasemapConfig {
  /** An http(s) template, or a path on the app's origin (`/tiles/{z}/{x}/{y}.png`: furrow serves a local archive). */
  urlTemplate: string;
  attribution: string;
  maxZoom?: number;
  /** [west, south, east, north] in degrees: the area the tiles cover (a local archive's). */
  bounds?: [number, number, number, number];
}

/** The basemap the server put in the page (`<meta name="furrow-basemap">`), or undefined. */
export function basemapFromPage(doc: Document): BasemapConfig | undefined {
  const raw = doc.querySelector<HTMLMetaElement>('meta[name="furrow-basemap"]')?.content;
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<BasemapConfig>;
    if (typeof v.urlTemplate !== 'string' || v.urlTemplate === '') return undefined;
    return {
      urlTemplate: v.urlTemplate,
      attribution: typeof v.attribution === 'string' ? v.attribution : '',
      ...(typeof v.maxZoom === 'number' ? { maxZoom: v.maxZoom } : {}),
      ...(Array.isArray(v.bounds) && v.bounds.length === 4 && v.bounds.every((n) => Number.isFinite(n))
        ? { bounds: v.bounds }
        : {}),
    };
  } catch {
    return undefined;
  }
}

/** Above this many route pieces the route layers draw on a canvas (smooth panning of 10,000+ segments). */
export const CANVAS_ROUTE_FEATURES = 2000;

/** How far beyond each side of the view a route canvas is drawn, as a share of the view's size (route-canvas.ts). */
export const ROUTE_CANVAS_PADDING = 0.3;

export class MapView {
  readonly element: HTMLElement;
  private readonly map: L.Map;
  private readonly groups = new Map<LayerId, L.LayerGroup>();
  private readonly panes = new Map<LayerId, HTMLElement>();
  private readonly svgRenderers = new Map<LayerId, L.Renderer>();
  private readonly canvasRenderers = new Map<LayerId, L.Renderer>();
  private readonly uncovered: UncoveredLayer;
  private readonly hidden = new Set<LayerId>();
  private machine?: L.Marker;
  private fitBounds?: L.LatLngBounds;
  private everFitted = false;

  /** The basemap layer while it waits for the first fit (`tilesAfterFit`). */
  private pendingTiles?: L.TileLayer;

  /**
   * `tilesAfterFit`: load no tiles until the map first shows its field (a page that is about to
   * show a field would otherwise fetch the world's tiles first).
   */
  constructor(
    readonly basemap?: BasemapConfig,
    opts: { tilesAfterFit?: boolean } = {},
  ) {
    this.element = h('div', {
      class: `map ${basemap ? 'with-basemap' : 'plain'}`,
      'aria-label': 'Map. Arrow keys pan, plus and minus zoom, 0 fits the field.',
      role: 'application',
      'aria-roledescription': 'map',
      'data-testid': 'map',
    });
    this.map = L.map(this.element, {
      zoomControl: false,
      attributionControl: false,
      zoomSnap: 0,
      // + and − zoom by 1.5×; no zoom animation (old cab tablets, and the view is final at once).
      zoomDelta: Math.log2(1.5),
      zoomAnimation: false,
      wheelPxPerZoomLevel: 120,
      maxZoom: 23,
      fadeAnimation: false,
      keyboard: true,
      keyboardPanDelta: 60,
    });
    this.map.setView([0, 0], 2);
    L.control.attribution({ prefix: false, position: 'bottomright' }).addTo(this.map);
    L.control.scale({ imperial: false, position: 'bottomleft', maxWidth: 120 }).addTo(this.map);
    if (basemap) {
      const tiles = L.tileLayer(basemap.urlTemplate, {
        attribution: escapeText(basemap.attribution),
        maxNativeZoom: basemap.maxZoom ?? 19,
        maxZoom: 23,
        // A local archive's area: no requests for tiles it does not have.
        ...(basemap.bounds
          ? { bounds: L.latLngBounds([basemap.bounds[1], basemap.bounds[0]], [basemap.bounds[3], basemap.bounds[2]]) }
          : {}),
        crossOrigin: false,
        className: 'basemap-tiles',
      });
      if (opts.tilesAfterFit) this.pendingTiles = tiles;
      else tiles.addTo(this.map);
    }
    LAYERS.forEach((layer, i) => {
      const pane = this.map.createPane(`furrow-${layer.id}`);
      pane.style.zIndex = String(410 + i);
      pane.dataset.layer = layer.id;
      pane.classList.add('furrow-layer');
      this.panes.set(layer.id, pane);
      const group = L.layerGroup().addTo(this.map);
      this.groups.set(layer.id, group);
    });
    this.uncovered = new UncoveredLayer({ pane: 'furrow-uncovered' });
    this.uncovered.addTo(this.map);
    this.addToolbar();
    this.element.addEventListener('keydown', (e) => {
      if (e.target === this.element && e.key === '0') {
        e.preventDefault();
        this.fit();
      }
    });
    // 'move' too: a drag's inertia ends later, the view attributes follow the map as it moves.
    this.map.on('move moveend zoomend resize', () => this.publishView());
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => {
        this.map.invalidateSize({ pan: false });
        if (!this.everFitted && this.fitBounds) this.fit();
      }).observe(this.element);
    }
  }

  /** The Leaflet map, for pages that add their own tools (drawing). */
  get leaflet(): L.Map {
    return this.map;
  }

  private addToolbar(): void {
    const Toolbar = L.Control.extend({
      onAdd: () => {
        const btn = (label: string, title: string, action: () => void, cls: string) =>
          h('button', { type: 'button', class: `map-btn ${cls}`, title, 'aria-label': title, onclick: action }, label);
        const bar = h(
          'div',
          { class: 'map-toolbar', role: 'toolbar', 'aria-label': 'Map controls' },
          btn('+', 'Zoom in', () => this.zoomBy(1.5), 'zoom-in'),
          btn('−', 'Zoom out', () => this.zoomBy(1 / 1.5), 'zoom-out'),
          btn('⤢', 'Fit field', () => this.fit(), 'zoom-fit'),
        );
        L.DomEvent.disableClickPropagation(bar);
        L.DomEvent.disableScrollPropagation(bar);
        return bar;
      },
    });
    new Toolbar({ position: 'topright' }).addTo(this.map);
  }

  private renderer(id: LayerId, canvas: boolean): L.Renderer {
    const cache = canvas ? this.canvasRenderers : this.svgRenderers;
    let r = cache.get(id);
    if (!r) {
      const pane = `furrow-${id}`;
      r = canvas ? routeCanvas({ pane, padding: ROUTE_CANVAS_PADDING }) : L.svg({ pane, padding: 0.3 });
      cache.set(id, r);
    }
    return r;
  }

  /** Draws a boundary, obstacles and (optionally) a plan; keeps the view unless `refit`. */
  setData(data: MapData, refit: boolean): void {
    const plan = data.plan;
    const bigRoute = (plan?.route.length ?? 0) > CANVAS_ROUTE_FEATURES;
    const all = L.latLngBounds([]);
    for (const layer of LAYERS) {
      const group = this.groups.get(layer.id)!;
      group.clearLayers();
      const canvas = bigRoute && ['tracks', 'turns', 'connectors', 'headlands'].includes(layer.id);
      const pane = `furrow-${layer.id}`;
      paintLayer(layer, data, {
        group,
        pane,
        renderer: this.renderer(layer.id, canvas),
        onBounds: (b) => all.extend(b),
      });
    }
    this.uncovered.setData(data);
    this.element.dataset.renderer = bigRoute ? 'canvas' : 'svg';
    if (all.isValid()) this.fitBounds = all;
    if (refit || !this.everFitted) this.fit();
    else this.publishView();
  }

  setLayerVisible(id: LayerId, visible: boolean): void {
    if (visible) this.hidden.delete(id);
    else this.hidden.add(id);
    const pane = this.panes.get(id);
    if (pane) {
      pane.style.display = visible ? '' : 'none';
      pane.dataset.hidden = visible ? 'false' : 'true';
    }
  }

  isLayerVisible(id: LayerId): boolean {
    return !this.hidden.has(id);
  }

  fit(): void {
    if (!this.fitBounds) return;
    const size = this.map.getSize();
    if (size.x === 0 || size.y === 0) return;
    this.everFitted = true;
    this.map.fitBounds(this.fitBounds, { padding: [24, 24], animate: false });
    this.pendingTiles?.addTo(this.map);
    this.pendingTiles = undefined;
    this.publishView();
  }

  /** Zooms to a place (a warning's point or area). */
  zoomTo(geometry: Geometry): void {
    const b = L.geoJSON(geometry as never).getBounds();
    if (!b.isValid()) return;
    const maxZoom = Math.max(this.map.getZoom(), 18);
    if (b.getNorthEast().equals(b.getSouthWest())) this.map.setView(b.getCenter(), maxZoom, { animate: false });
    else this.map.fitBounds(b.pad(0.5), { maxZoom, animate: false });
    this.publishView();
  }

  zoomBy(factor: number): void {
    this.map.setZoom(this.map.getZoom() + Math.log2(factor), { animate: false });
  }

  /** Puts the playback machine at `seconds` on the timeline (removes it when undefined). */
  showMachineAt(tl: Timeline | undefined, seconds: number): void {
    const at = tl ? positionAt(tl, seconds) : undefined;
    if (!at) {
      this.machine?.remove();
      this.machine = undefined;
      return;
    }
    const ll = L.latLng(at.position[1], at.position[0]);
    if (!this.machine) {
      this.machine = L.marker(ll, {
        pane: 'furrow-startEnd',
        keyboard: false,
        interactive: false,
        icon: L.divIcon({
          className: 'machine-marker',
          html: '<span class="machine-arrow">➤</span>',
          iconSize: [26, 26],
        }),
      }).addTo(this.map);
    } else this.machine.setLatLng(ll);
    const arrow = this.machine.getElement()?.querySelector<HTMLElement>('.machine-arrow');
    if (arrow) arrow.style.transform = `rotate(${at.bearingDegrees - 90}deg)`;
    this.element.dataset.machine = `${at.position[0].toFixed(7)},${at.position[1].toFixed(7)}`;
  }

  /** Current view: width across in meters, and the centre (for tests and debugging). */
  getView(): { widthMeters: number; center: Position; zoom: number } {
    const b = this.map.getBounds();
    const c = this.map.getCenter();
    return {
      widthMeters: this.map.distance([c.lat, b.getWest()], [c.lat, b.getEast()]),
      center: [c.lng, c.lat],
      zoom: this.map.getZoom(),
    };
  }

  private publishView(): void {
    const v = this.getView();
    this.element.dataset.viewWidth = v.widthMeters.toFixed(2);
    this.element.dataset.viewCenter = `${v.center[0].toFixed(7)},${v.center[1].toFixed(7)}`;
    this.element.dataset.zoom = v.zoom.toFixed(3);
  }
}

function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
