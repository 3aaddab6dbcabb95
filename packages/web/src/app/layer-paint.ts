/**
 * How each map layer is drawn on Leaflet: one painter per layer id. Most layers draw their plan
 * features (layers.ts sorts them) as GeoJSON in the layer's colour; a few draw what the app
 * computes (direction arrows and pass numbers, start and end). A new layer (tramlines, a fleet's
 * machines, …) is a row in `LAYERS` and, if the default does not fit, a painter here.
 */
import * as L from 'leaflet';
import type { Feature, Geometry, Position } from './geo.js';
import { geometryPoints, holesOf } from './geo.js';
import type { LayerId, LayerStyle } from './layers.js';
import { gateMarks } from './layers.js';
import type { MapData } from './layers.js';
import { passArrows } from './route.js';

export interface PaintContext {
  group: L.LayerGroup;
  pane: string;
  renderer: L.Renderer;
  /** Called with the bounds of what was drawn (the map fits to their union). */
  onBounds: (b: L.LatLngBounds) => void;
}

type Painter = (layer: LayerStyle, data: MapData, ctx: PaintContext) => void;

/** Stroke widths in screen pixels per layer. */
const STROKE_PX: Partial<Record<LayerId, number>> = {
  boundary: 2.5,
  obstacles: 2,
  headlands: 2,
  tracks: 1.6,
  turns: 1.6,
  connectors: 1.6,
  crosshatches: 1,
};

function pathStyle(layer: LayerStyle, f: Feature): L.PathOptions {
  const id = layer.id;
  const geom = f.geometry?.type ?? '';
  const area = geom === 'Polygon' || geom === 'MultiPolygon';
  const dashed = id === 'connectors' || id === 'crosshatches' || (id === 'obstacles' && f.properties?.['passable']);
  return {
    color: layer.color,
    weight: STROKE_PX[id] ?? 1.5,
    opacity: 1,
    lineJoin: 'round',
    lineCap: 'round',
    fill: area && (id === 'boundary' || id === 'obstacles'),
    fillColor: id === 'boundary' ? '#e8f2dc' : layer.color,
    fillOpacity: id === 'boundary' ? 0.18 : 0.3,
    fillRule: 'evenodd',
    ...(dashed ? { dashArray: id === 'obstacles' ? '3 3' : '5 4' } : {}),
  };
}

/** A round marker of constant screen size with a one-character label. */
export function labelMarker(p: Position, label: string, color: string, title: string, pane: string): L.Marker {
  const el = document.createElement('span');
  el.className = 'marker-dot';
  el.style.background = color;
  el.textContent = label;
  return L.marker([p[1], p[0]], {
    pane,
    keyboard: false,
    title,
    alt: title,
    icon: L.divIcon({ className: 'marker', html: el, iconSize: [20, 20] }),
  });
}

const POINT_LABEL: Partial<Record<LayerId, string>> = { refill: 'R', staging: 'P', warnings: '!' };

function drawFeatures(layer: LayerStyle, features: Feature[], ctx: PaintContext): void {
  const lines: Feature[] = [];
  for (const f of features) {
    for (const p of geometryPoints(f.geometry)) {
      const m = labelMarker(p, POINT_LABEL[layer.id] ?? '•', layer.color, describeFeature(f) ?? '', ctx.pane);
      ctx.group.addLayer(m);
      ctx.onBounds(L.latLngBounds([m.getLatLng()]));
    }
    if (f.geometry && f.geometry.type !== 'Point' && f.geometry.type !== 'MultiPoint') lines.push(f);
  }
  if (lines.length === 0) return;
  const gj = L.geoJSON(
    { type: 'FeatureCollection', features: lines } as never,
    {
      pane: ctx.pane,
      // The renderer is per pane: a layer hides as one element.
      renderer: ctx.renderer,
      style: (f) => pathStyle(layer, f as unknown as Feature),
      interactive: false,
    } as L.GeoJSONOptions,
  );
  ctx.group.addLayer(gj);
  const b = gj.getBounds();
  if (b.isValid()) ctx.onBounds(b);
}

const feature = (geometry: Geometry, properties: Record<string, unknown>): Feature => ({
  type: 'Feature',
  geometry,
  properties,
});

const painters: Partial<Record<LayerId, Painter>> = {
  boundary: (layer, data, ctx) => {
    const own = data.plan?.layers.boundary ?? [];
    drawFeatures(layer, own.length > 0 ? own : [feature(data.boundary, { type: 'Boundary' })], ctx);
  },
  obstacles: (layer, data, ctx) => {
    const own = data.plan?.layers.obstacles ?? [];
    if (own.length > 0) return drawFeatures(layer, own, ctx);
    const fromField = [
      ...data.obstacles.map((o) => feature(o, { type: 'Obstacle' })),
      ...(data.passableZones ?? []).map((o) => feature(o, { type: 'Obstacle', passable: true, name: 'passable' })),
      // Holes of the boundary are no-go zones: show them as obstacles too.
      ...holesOf(data.boundary).map((g) => feature(g, { type: 'Obstacle', name: 'hole in the field' })),
    ];
    drawFeatures(layer, fromField, ctx);
  },
  // Drawn by UncoveredLayer on its own canvas.
  uncovered: () => undefined,
  direction: (layer, data, ctx) => {
    for (const a of passArrows(data.plan?.route ?? [])) {
      const label = a.kind === 'track' ? String(a.number) : `H${a.number}`;
      const el = document.createElement('span');
      el.className = `pass-arrow ${a.kind}`;
      const arrow = document.createElement('span');
      arrow.className = 'arrow';
      arrow.textContent = '➤';
      arrow.style.transform = `rotate(${(a.bearingDegrees - 90).toFixed(1)}deg)`;
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = label;
      el.append(arrow, num);
      const title = `${a.kind === 'track' ? 'Track' : 'Headland pass'} ${a.number}`;
      ctx.group.addLayer(
        L.marker([a.position[1], a.position[0]], {
          pane: ctx.pane,
          keyboard: false,
          interactive: false,
          title,
          icon: L.divIcon({ className: 'direction-marker', html: el, iconSize: [18, 18] }),
        }),
      );
    }
  },
  gates: (layer, data, ctx) => {
    for (const g of gateMarks(data.plan, data.accessPoints)) {
      const m = labelMarker(g.position, g.label, layer.color, g.title, ctx.pane);
      ctx.group.addLayer(m);
      ctx.onBounds(L.latLngBounds([m.getLatLng()]));
    }
  },
  staging: (layer, data, ctx) => {
    const own = data.plan?.layers.staging ?? [];
    if (own.length > 0 || !data.stagingArea) return drawFeatures(layer, own, ctx);
    drawFeatures(layer, [feature({ type: 'Point', coordinates: data.stagingArea }, { type: 'StagingArea' })], ctx);
  },
  startEnd: (layer, data, ctx) => {
    const plan = data.plan;
    if (plan?.start) ctx.group.addLayer(labelMarker(plan.start, 'S', '#1b7f3b', 'Start', ctx.pane));
    if (plan?.end) ctx.group.addLayer(labelMarker(plan.end, 'E', '#b3261e', 'End', ctx.pane));
  },
};

/** Draws one layer of the map data into `ctx.group`. */
export function paintLayer(layer: LayerStyle, data: MapData, ctx: PaintContext): void {
  const painter = painters[layer.id];
  if (painter) painter(layer, data, ctx);
  else drawFeatures(layer, data.plan?.layers[layer.id] ?? [], ctx);
}

export function describeFeature(f: Feature): string | undefined {
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
