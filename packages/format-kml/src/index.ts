/**
 * KML: boundaries in (Polygon, MultiGeometry, inner rings) through @tmcw/togeojson, and
 * plans / boundaries out as text (folders per feature type, styled lines,
 * metrics in the document description).
 */
import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';
import type { Plan, Position } from '@furrow/core';
import {
  boundaryError,
  collectBoundaries,
  planToFeatureCollection,
  polygonsOf,
  textOf,
  toFieldGeometry,
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
 * KML, like GeoJSON, requires a LinearRing's last coordinate to repeat its first; @tmcw/togeojson
 * closes an open ring silently. An open ring gets the planner's answer instead (the same code and
 * message as the same ring sent to `planRoute` or the API).
 */
function rejectUnclosedRings(doc: ReturnType<DOMParser['parseFromString']>, where: SourcePlace): void {
  const rings = doc.getElementsByTagName('LinearRing');
  for (let k = 0; k < rings.length; k++) {
    const coordinates = rings[k].getElementsByTagName('coordinates')[0];
    const ring = (coordinates?.textContent ?? '')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((t) => t.split(',').map(Number));
    const first = ring[0],
      last = ring[ring.length - 1];
    if (first !== undefined && (first[0] !== last[0] || first[1] !== last[1])) {
      toFieldGeometry({ type: 'Polygon', coordinates: [ring] }, where, `LinearRing[${k}]`);
    }
  }
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
  rejectUnclosedRings(doc, where);
  const collection = kml(doc as unknown as Document);
  const features = collection.features.map((feature) => {
    const props = { ...(feature.properties ?? {}) } as Record<string, unknown>;
    for (const key of Object.keys(props)) {
      if (key.startsWith('stroke') || key.startsWith('fill') || key === 'styleUrl' || key === 'styleHash')
        delete props[key];
    }
    return { geometry: feature.geometry, properties: props };
  });
  return collectBoundaries(features, where, (i) => {
    const label = features[i].properties.name;
    return typeof label === 'string' ? `Placemark[${i}] "${label}"` : `Placemark[${i}]`;
  });
}

const coordText = (ring: readonly Position[]): string => ring.map((p) => `${p[0]},${p[1]}`).join(' ');

/** Escapes text and attribute values for XML. */
export function escapeXml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

// Plan KML is written as text: xmlbuilder2 took ~0.8 s for a 900-feature plan, string building ~10 ms.
function polygonXml(rings: Position[][]): string {
  let out =
    `<Polygon><outerBoundaryIs><LinearRing><coordinates>${coordText(rings[0])}` +
    `</coordinates></LinearRing></outerBoundaryIs>`;
  for (const hole of rings.slice(1))
    out += `<innerBoundaryIs><LinearRing><coordinates>${coordText(hole)}</coordinates></LinearRing></innerBoundaryIs>`;
  return out + '</Polygon>';
}

function geometryXml(geometry: GeoJsonGeometry): string {
  switch (geometry.type) {
    case 'Point':
      return `<Point><coordinates>${coordText([geometry.coordinates])}</coordinates></Point>`;
    case 'LineString':
      return (
        `<LineString><tessellate>1</tessellate><coordinates>${coordText(geometry.coordinates)}` +
        `</coordinates></LineString>`
      );
    case 'Polygon':
      return polygonXml(geometry.coordinates);
    case 'MultiPoint': {
      const points = geometry.coordinates.map((p) => `<Point><coordinates>${coordText([p])}</coordinates></Point>`);
      return `<MultiGeometry>${points.join('')}</MultiGeometry>`;
    }
    case 'MultiLineString': {
      const lines = geometry.coordinates.map(
        (l) => `<LineString><coordinates>${coordText(l)}</coordinates></LineString>`,
      );
      return `<MultiGeometry>${lines.join('')}</MultiGeometry>`;
    }
    case 'MultiPolygon':
      return `<MultiGeometry>${geometry.coordinates.map(polygonXml).join('')}</MultiGeometry>`;
  }
}

function extendedDataXml(props: Record<string, unknown>, indent: string): string {
  const entries = Object.entries(props).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v));
  if (entries.length === 0) return '';
  const data = entries
    .map(([k, v]) => `<Data name="${escapeXml(k)}"><value>${escapeXml(String(v))}</value></Data>`)
    .join('');
  return `${indent}<ExtendedData>${data}</ExtendedData>\n`;
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
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n  <Document>\n',
  ];
  parts.push(`    <name>${escapeXml(options.name ?? 'furrow plan')}</name>\n`);
  if (options.description)
    parts.push(
      `    <description><![CDATA[${options.description.replace(/]]>/g, ']]]]><![CDATA[>')}]]></description>\n`,
    );
  const types = [...new Set(features.map((f) => f.properties.type))];
  for (const type of types) {
    const style = STYLES[type] ?? { line: 'ffffffff', width: 1 };
    const poly = style.fill ? `<PolyStyle><color>${style.fill}</color><outline>1</outline></PolyStyle>` : '';
    parts.push(
      `    <Style id="${escapeXml(type)}"><LineStyle><color>${style.line}</color><width>${style.width}` +
        `</width></LineStyle>${poly}</Style>\n`,
    );
  }
  if (options.extended) parts.push(extendedDataXml(options.extended, '    '));
  for (const type of types) {
    parts.push(`    <Folder>\n      <name>${escapeXml(FOLDER_NAMES[type] ?? type)}</name>\n`);
    for (const f of features) {
      if (f.properties.type !== type) continue;
      parts.push(
        `      <Placemark>\n        <name>${escapeXml(placemarkName(f))}</name>\n        ` +
          `<styleUrl>#${escapeXml(type)}</styleUrl>\n`,
      );
      parts.push(extendedDataXml(f.properties, '        '));
      parts.push(`        ${geometryXml(f.geometry)}\n      </Placemark>\n`);
    }
    parts.push('    </Folder>\n');
  }
  parts.push('  </Document>\n</kml>');
  return parts.join('');
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
export function writeBoundaries(
  boundaries: Pick<ParsedBoundary, 'geometry' | 'properties' | 'obstacles'>[],
  options: KmlOptions = {},
): string {
  const features: PlanFeature[] = [];
  for (const b of boundaries) {
    const geometry: GeoJsonGeometry =
      b.geometry.type === 'Polygon'
        ? { type: 'Polygon', coordinates: b.geometry.coordinates }
        : { type: 'MultiPolygon', coordinates: polygonsOf(b.geometry) };
    features.push({ type: 'Feature', properties: { ...b.properties, type: 'Boundary' }, geometry });
  }
  for (const b of boundaries) {
    for (const o of b.obstacles ?? [])
      features.push({ type: 'Feature', properties: { type: 'Obstacle' }, geometry: o });
  }
  return featuresToKml(features, { name: options.name ?? 'furrow boundaries' });
}
