/**
 * KML: boundaries in (Polygon, MultiGeometry, inner rings) through @tmcw/togeojson, and
 * plans / boundaries out with xmlbuilder2 (folders per feature type, styled lines,
 * metrics in the document description).
 */
import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { Plan, Position } from '@furrow/core';
import {
  boundaryError,
  collectBoundaries,
  planToFeatureCollection,
  polygonsOf,
  textOf,
} from '@furrow/format-geojson';
import type { GeoJsonGeometry, ParsedBoundary, PlanFeature, SourcePlace } from '@furrow/format-geojson';

function parseXml(text: string, where: SourcePlace): ReturnType<DOMParser['parseFromString']> {
  const problems: string[] = [];
  let doc: ReturnType<DOMParser['parseFromString']>;
  try {
    doc = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') problems.push(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (err) {
    throw boundaryError(where, `not well-formed XML (${err instanceof Error ? err.message : String(err)})`);
  }
  if (problems.length > 0) throw boundaryError(where, `not well-formed XML (${problems[0].split('\n')[0]})`);
  return doc;
}

/**
 * Reads every Placemark with a Polygon (or a MultiGeometry holding polygons) as one boundary.
 * Properties are the placemark's name, description and ExtendedData.
 */
export function readBoundary(input: string | Uint8Array, name?: string): ParsedBoundary[] {
  const where: SourcePlace = { file: name, format: 'kml' };
  const doc = parseXml(textOf(input), where);
  const root = doc.documentElement;
  if (!root || root.localName !== 'kml') {
    throw boundaryError(where, `expected a <kml> root element, found <${root?.localName ?? 'nothing'}>`);
  }
  const collection = kml(doc as unknown as Document);
  const features = collection.features.map((feature) => {
    const props = { ...(feature.properties ?? {}) } as Record<string, unknown>;
    for (const key of Object.keys(props)) {
      if (key.startsWith('stroke') || key.startsWith('fill') || key === 'styleUrl' || key === 'styleHash') delete props[key];
    }
    return { geometry: feature.geometry, properties: props };
  });
  return collectBoundaries(features, where, (i) => {
    const label = features[i].properties.name;
    return typeof label === 'string' ? `Placemark[${i}] "${label}"` : `Placemark[${i}]`;
  });
}

const coordText = (ring: readonly Position[]): string => ring.map((p) => `${p[0]},${p[1]}`).join(' ');

function addPolygon(parent: XMLBuilder, rings: Position[][]): void {
  const poly = parent.ele('Polygon');
  poly.ele('outerBoundaryIs').ele('LinearRing').ele('coordinates').txt(coordText(rings[0]));
  for (const hole of rings.slice(1)) poly.ele('innerBoundaryIs').ele('LinearRing').ele('coordinates').txt(coordText(hole));
}

function addGeometry(placemark: XMLBuilder, geometry: GeoJsonGeometry): void {
  switch (geometry.type) {
    case 'Point':
      placemark.ele('Point').ele('coordinates').txt(coordText([geometry.coordinates]));
      return;
    case 'LineString':
      placemark.ele('LineString').ele('tessellate').txt('1').up().ele('coordinates').txt(coordText(geometry.coordinates));
      return;
    case 'Polygon':
      addPolygon(placemark, geometry.coordinates);
      return;
    case 'MultiPoint': {
      const multi = placemark.ele('MultiGeometry');
      for (const p of geometry.coordinates) multi.ele('Point').ele('coordinates').txt(coordText([p]));
      return;
    }
    case 'MultiLineString': {
      const multi = placemark.ele('MultiGeometry');
      for (const l of geometry.coordinates) multi.ele('LineString').ele('coordinates').txt(coordText(l));
      return;
    }
    case 'MultiPolygon': {
      const multi = placemark.ele('MultiGeometry');
      for (const p of geometry.coordinates) addPolygon(multi, p);
    }
  }
}

function addExtendedData(placemark: XMLBuilder, props: Record<string, unknown>): void {
  const entries = Object.entries(props).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v));
  if (entries.length === 0) return;
  const data = placemark.ele('ExtendedData');
  for (const [k, v] of entries) data.ele('Data', { name: k }).ele('value').txt(String(v));
}

/** KML colours are aabbggrr. */
const STYLES: Record<string, { line: string; width: number; fill?: string }> = {
  Track: { line: 'ff00a000', width: 2 },
  ExteriorHeadland: { line: 'ff00c8ff', width: 2 },
  InteriorHeadland: { line: 'ff0080ff', width: 2 },
  Turn: { line: 'ffff6000', width: 1.5 },
  Connector: { line: 'ffff00ff', width: 1.5 },
  Boundary: { line: 'ff0000ff', width: 2.5, fill: '00000000' },
  Obstacle: { line: 'ff202020', width: 2, fill: '80404040' },
  Crosshatch: { line: 'ff00ffff', width: 1, fill: '4000ffff' },
  HeadlandArea: { line: 'ff00c8ff', width: 1, fill: '3000c8ff' },
  GuidanceLine: { line: 'ffffffff', width: 1 },
  RefillPoint: { line: 'ffff0000', width: 1 },
  StagingArea: { line: 'ff800080', width: 1 },
  Warning: { line: 'ff0000ff', width: 1 },
  Node: { line: 'ff808080', width: 1 },
};

const FOLDER_NAMES: Record<string, string> = {
  Boundary: 'Boundary',
  Obstacle: 'Obstacles',
  ExteriorHeadland: 'Exterior headland passes',
  InteriorHeadland: 'Interior headland passes',
  Track: 'Tracks',
  Turn: 'Turns',
  Connector: 'Connectors',
  Crosshatch: 'Crosshatches',
  HeadlandArea: 'Headland areas',
  GuidanceLine: 'Guidance lines',
  RefillPoint: 'Refill points',
  StagingArea: 'Staging area',
  Warning: 'Warnings',
  Node: 'Track ends (nodes)',
};

function placemarkName(f: PlanFeature): string {
  const p = f.properties;
  if (typeof p.sequence === 'number') {
    const detail = p.type === 'Turn' && p.turnType ? ` ${String(p.turnType)}` : '';
    return `${p.type}${detail} #${p.sequence}`;
  }
  return typeof p.name === 'string' ? p.name : typeof p.index === 'number' ? `${p.type} ${p.index + 1}` : p.type;
}

function metricsTable(metrics: Record<string, unknown>): string {
  const rows = Object.entries(metrics)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string')
    .map(([k, v]) => `<tr><td>${k}</td><td>${typeof v === 'number' ? Number(v.toPrecision(10)) : v}</td></tr>`);
  return `<table>${rows.join('')}</table>`;
}

export interface KmlOptions {
  /** Document name (default "furrow plan"). */
  name?: string;
}

/** Features grouped in folders by type (in the order given), each feature a styled Placemark. */
export function featuresToKml(
  features: PlanFeature[],
  options: KmlOptions & { description?: string; extended?: Record<string, unknown> } = {},
): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('kml', { xmlns: 'http://www.opengis.net/kml/2.2' });
  const doc = root.ele('Document');
  doc.ele('name').txt(options.name ?? 'furrow plan');
  if (options.description) doc.ele('description').dat(options.description);
  const types = [...new Set(features.map((f) => f.properties.type))];
  for (const type of types) {
    const style = STYLES[type] ?? { line: 'ffffffff', width: 1 };
    const s = doc.ele('Style', { id: type });
    s.ele('LineStyle').ele('color').txt(style.line).up().ele('width').txt(String(style.width));
    if (style.fill) s.ele('PolyStyle').ele('color').txt(style.fill).up().ele('outline').txt('1');
  }
  if (options.extended) addExtendedData(doc, options.extended);
  for (const type of types) {
    const folder = doc.ele('Folder');
    folder.ele('name').txt(FOLDER_NAMES[type] ?? type);
    for (const f of features) {
      if (f.properties.type !== type) continue;
      const pm = folder.ele('Placemark');
      pm.ele('name').txt(placemarkName(f));
      pm.ele('styleUrl').txt(`#${type}`);
      addExtendedData(pm, f.properties);
      addGeometry(pm, f.geometry);
    }
  }
  return root.end({ prettyPrint: true });
}

/** The plan as KML: one folder per feature type, route placemarks in driving order, metrics in the description. */
export function planToKml(plan: Plan, options: KmlOptions = {}): string {
  const fc = planToFeatureCollection(plan);
  return featuresToKml(fc.features, {
    ...options,
    description: metricsTable(plan.metrics as Record<string, unknown>),
    extended: { version: plan.version, ...(plan.metrics as Record<string, unknown>) },
  });
}

/** Boundaries as KML (one Placemark each, attributes as ExtendedData, obstacles as their own placemarks). */
export function writeBoundaries(boundaries: Pick<ParsedBoundary, 'geometry' | 'properties' | 'obstacles'>[], options: KmlOptions = {}): string {
  const features: PlanFeature[] = [];
  for (const b of boundaries) {
    const geometry: GeoJsonGeometry = b.geometry.type === 'Polygon'
      ? { type: 'Polygon', coordinates: b.geometry.coordinates }
      : { type: 'MultiPolygon', coordinates: polygonsOf(b.geometry) };
    features.push({ type: 'Feature', properties: { ...b.properties, type: 'Boundary' }, geometry });
  }
  for (const b of boundaries) {
    for (const o of b.obstacles ?? []) features.push({ type: 'Feature', properties: { type: 'Obstacle' }, geometry: o });
  }
  return featuresToKml(features, { name: options.name ?? 'furrow boundaries' });
}
