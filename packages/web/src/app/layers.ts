/**
 * The plan's map layers: which GeoJSON features (docs/formats.md "Plan GeoJSON", by
 * `properties.type`) go to which toggleable layer, in what colour, and the route's start
 * and end (first and last route feature by `properties.sequence`).
 */
import type { Feature, FeatureCollection, Geometry, Position } from './geo.js';

export type LayerId =
  | 'boundary'
  | 'uncovered'
  | 'obstacles'
  | 'headlands'
  | 'tracks'
  | 'turns'
  | 'connectors'
  | 'direction'
  | 'crosshatches'
  | 'tramlines'
  | 'refill'
  | 'staging'
  | 'gates'
  | 'warnings'
  | 'startEnd';

export interface LayerStyle {
  id: LayerId;
  label: string;
  /** Stroke / marker colour; chosen to stay distinct for the common colour-vision deficiencies. */
  color: string;
  /** What the legend draws: a line, a dashed line, an area or a point marker. */
  swatch: 'line' | 'dashed' | 'area' | 'point';
  /** Feature `properties.type` values drawn in this layer. */
  types: readonly string[];
}

/** Drawing order: bottom to top. */
export const LAYERS: readonly LayerStyle[] = [
  { id: 'boundary', label: 'Field boundary', color: '#2f5d1e', swatch: 'area', types: ['Boundary'] },
  // Drawn by the app from the route's swaths (uncovered.ts), not from plan features.
  { id: 'uncovered', label: 'Uncovered ground', color: '#d81b60', swatch: 'area', types: [] },
  {
    id: 'obstacles',
    label: 'Obstacles',
    color: '#8c2d19',
    swatch: 'area',
    types: ['Obstacle', 'NoGoZone', 'PassableZone'],
  },
  { id: 'crosshatches', label: 'Cross-hatches', color: '#7a6f9b', swatch: 'dashed', types: ['Crosshatch'] },
  {
    id: 'headlands',
    label: 'Headland passes',
    color: '#d97a00',
    swatch: 'line',
    types: ['ExteriorHeadland', 'InteriorHeadland'],
  },
  { id: 'tracks', label: 'Tracks', color: '#1f5fbf', swatch: 'line', types: ['Track'] },
  // Controlled traffic (POST /api/path-plans/traffic/geojson): the wheel lanes and the drill's tramline passes.
  {
    id: 'tramlines',
    label: 'Tramlines and lanes',
    color: '#b8860b',
    swatch: 'dashed',
    types: ['TramlinePass', 'Lane'],
  },
  { id: 'turns', label: 'Turns', color: '#c2185b', swatch: 'line', types: ['Turn'] },
  { id: 'connectors', label: 'Connectors', color: '#555555', swatch: 'dashed', types: ['Connector'] },
  // Arrows and pass numbers computed from the route (route.ts passArrows).
  { id: 'direction', label: 'Direction and pass numbers', color: '#0b3d91', swatch: 'point', types: [] },
  { id: 'refill', label: 'Refill points', color: '#008b8b', swatch: 'point', types: ['RefillPoint'] },
  { id: 'staging', label: 'Start point (staging)', color: '#6a3d9a', swatch: 'point', types: ['StagingArea'] },
  // The gates: the plan's AccessPoint features (the gates it was made with) and the field's own.
  { id: 'gates', label: 'Gates', color: '#00695c', swatch: 'point', types: ['AccessPoint'] },
  { id: 'warnings', label: 'Warnings', color: '#e65100', swatch: 'point', types: ['Warning'] },
  { id: 'startEnd', label: 'Start and end', color: '#111111', swatch: 'point', types: [] },
];

const LAYER_BY_TYPE = new Map<string, LayerId>();
for (const l of LAYERS) for (const t of l.types) LAYER_BY_TYPE.set(t, l.id);

export const ROUTE_TYPES: readonly string[] = ['Track', 'ExteriorHeadland', 'InteriorHeadland', 'Turn', 'Connector'];

export interface ClassifiedPlan {
  layers: Record<LayerId, Feature[]>;
  /** Features whose type no layer knows (kept, drawn nowhere, counted for the curious). */
  other: Feature[];
  start?: Position;
  end?: Position;
  /** Route features sorted by sequence. */
  route: Feature[];
}

/** The route pieces that work ground: tracks and headland passes. */
export const WORKING_TYPES: ReadonlySet<string> = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);

export function featureType(f: Feature): string {
  const t = f.properties?.['type'];
  return typeof t === 'string' ? t : '';
}

function lineEnds(g: Geometry | null): { first?: Position; last?: Position } {
  if (!g) return {};
  if (g.type === 'LineString') {
    const c = g.coordinates as Position[];
    return { first: c[0], last: c[c.length - 1] };
  }
  if (g.type === 'MultiLineString') {
    const c = g.coordinates as Position[][];
    const a = c[0];
    const b = c[c.length - 1];
    return { first: a?.[0], last: b?.[b.length - 1] };
  }
  return {};
}

/** Sorts a plan's features into layers; the route's start and end come from its sequence order. */
export function classifyPlan(plan: FeatureCollection): ClassifiedPlan {
  const layers = Object.fromEntries(LAYERS.map((l) => [l.id, [] as Feature[]])) as Record<LayerId, Feature[]>;
  const other: Feature[] = [];
  const route: Feature[] = [];
  for (const f of plan.features ?? []) {
    const type = featureType(f);
    const layer = LAYER_BY_TYPE.get(type);
    if (layer) layers[layer].push(f);
    else other.push(f);
    if (ROUTE_TYPES.includes(type)) route.push(f);
  }
  const seq = (f: Feature): number => {
    const s = f.properties?.['sequence'];
    return typeof s === 'number' ? s : Number.MAX_SAFE_INTEGER;
  };
  route.sort((a, b) => seq(a) - seq(b));
  const start = route.length > 0 ? lineEnds(route[0].geometry).first : undefined;
  const end = route.length > 0 ? lineEnds(route[route.length - 1].geometry).last : undefined;
  return { layers, other, route, ...(start ? { start } : {}), ...(end ? { end } : {}) };
}

/** Counts of what a plan holds, per layer (for the legend). */
export function layerCounts(c: ClassifiedPlan): Record<LayerId, number> {
  const counts = Object.fromEntries(LAYERS.map((l) => [l.id, c.layers[l.id].length])) as Record<LayerId, number>;
  counts.startEnd = (c.start ? 1 : 0) + (c.end ? 1 : 0);
  counts.direction = c.route.filter((f) => WORKING_TYPES.has(featureType(f))).length;
  return counts;
}

/** A gate on the map: where, its marker's label and what it says on hover. */
export interface GateMark {
  position: Position;
  label: string;
  title: string;
}

/**
 * The gates to draw: the plan's own (its AccessPoint features: the gates it was made with), then
 * the field's gates the plan does not have (added or moved since: a re-plan uses them). Without a
 * plan, the field's gates.
 */
export function gateMarks(plan: ClassifiedPlan | undefined, fieldGates: readonly Position[] = []): GateMark[] {
  const planned: Position[] = [];
  for (const f of plan?.layers.gates ?? [])
    if (f.geometry?.type === 'Point') planned.push(f.geometry.coordinates as Position);
  const same = (a: Position, b: Position): boolean => a[0] === b[0] && a[1] === b[1];
  const marks: GateMark[] = planned.map((p, i) => ({
    position: p,
    label: `G${i + 1}`,
    title: `Gate ${i + 1} (this plan enters and leaves here)`,
  }));
  const notPlanned = fieldGates.filter((g) => !planned.some((p) => same(p, g)));
  notPlanned.forEach((g, i) => {
    const n = planned.length + i + 1;
    marks.push({
      position: g,
      label: `G${n}`,
      title: plan ? `Gate ${n} (not in this plan: re-plan to use it)` : `Gate ${n}`,
    });
  });
  return marks;
}

/** What the map draws: the field, its obstacles, zones and gates, and the plan (map.ts, layer-paint.ts). */
export interface MapData {
  boundary: Geometry;
  /** No-go obstacles besides the boundary's holes. */
  obstacles: Geometry[];
  /** Passable zones (drawn dashed). */
  passableZones?: Geometry[];
  /** The field's gates, [lon, lat] each. */
  accessPoints?: Position[];
  /** The start point, [lon, lat] (a plan's own StagingArea wins). */
  stagingArea?: Position;
  plan?: ClassifiedPlan;
  /** Working width of the plan's passes (meters): the uncovered-ground layer sweeps it. */
  widthMeters?: number;
}
