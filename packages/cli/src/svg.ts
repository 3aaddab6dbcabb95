/**
 * A plan drawn as a standalone SVG a farmer can read: the field, its no-go zones, the
 * headland passes, tracks, turns and connectors, start and end, a legend and the metrics.
 */
import type { FieldGeometry, Plan, Position, RouteSegment } from '@furrow/core';

interface Projector {
  (p: Position): [number, number];
}

const EARTH_METERS_PER_DEGREE_LAT = 110_574;
const EARTH_METERS_PER_DEGREE_LON_EQUATOR = 111_320;

const STYLE: Record<string, { stroke: string; width: number; dash?: string; label: string }> = {
  Track: { stroke: '#1b7a2f', width: 1.6, label: 'Track (working)' },
  ExteriorHeadland: { stroke: '#d9822b', width: 1.6, label: 'Headland pass (working)' },
  InteriorHeadland: { stroke: '#b5581b', width: 1.6, label: 'Headland round obstacle (working)' },
  Turn: { stroke: '#2563eb', width: 1.1, label: 'Turn' },
  Connector: { stroke: '#8b2fc9', width: 1.1, dash: '4 3', label: 'Connector (not working)' },
};

function rings(geometry: FieldGeometry): Position[][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

function bounds(geometry: FieldGeometry): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const poly of rings(geometry)) {
    for (const [x, y] of poly[0]) {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  }
  return [minX, minY, maxX, maxY];
}

function fmt(n: number): string {
  return Number.isFinite(n) ? n.toFixed(1) : '0';
}

function pathData(points: Position[], project: Projector, close: boolean): string {
  let d = '';
  for (let i = 0; i < points.length; i++) {
    const [x, y] = project(points[i]);
    d += `${i === 0 ? 'M' : 'L'}${fmt(x)} ${fmt(y)}`;
  }
  return close ? `${d}Z` : d;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}

function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

/**
 * The band of a pass's active sections (`activeWidthsMeters`, `activeOffsetsMeters` per
 * coordinate) as an SVG path in drawing units: its left edge, then its right edge back.
 */
function activeBand(seg: RouteSegment, project: Projector, scale: number): string | undefined {
  const ws = seg.activeWidthsMeters,
    os = seg.activeOffsetsMeters;
  const n = seg.coordinates.length;
  if (!Array.isArray(ws) || !Array.isArray(os) || ws.length !== n || os.length !== n || n < 2) return undefined;
  const pts = seg.coordinates.map(project);
  const left: string[] = [],
    right: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = pts[Math.max(0, i - 1)],
      b = pts[Math.min(n - 1, i + 1)];
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    // left of travel on screen (y grows downwards): (dy, -dx)
    const nx = (b[1] - a[1]) / l,
      ny = -(b[0] - a[0]) / l;
    const o = Number(os[i]) * scale,
      h = (Number(ws[i]) / 2) * scale;
    left.push(`${fmt(pts[i][0] + nx * (o + h))} ${fmt(pts[i][1] + ny * (o + h))}`);
    right.push(`${fmt(pts[i][0] + nx * (o - h))} ${fmt(pts[i][1] + ny * (o - h))}`);
  }
  return `M${left.join('L')}L${right.reverse().join('L')}Z`;
}

export interface SvgOptions {
  /** Drawing width in pixels (default 1000). */
  widthPixels?: number;
  title?: string;
}

/** Renders the plan as an SVG document (a string). */
export function planToSvg(plan: Plan, options: SvgOptions = {}): string {
  const drawWidth = options.widthPixels ?? 1000;
  const [minLon, minLat, maxLon, maxLat] = bounds(plan.boundary);
  const lat0 = (minLat + maxLat) / 2;
  const mx = EARTH_METERS_PER_DEGREE_LON_EQUATOR * Math.cos((lat0 * Math.PI) / 180);
  const my = EARTH_METERS_PER_DEGREE_LAT;
  const spanX = Math.max((maxLon - minLon) * mx, 1);
  const spanY = Math.max((maxLat - minLat) * my, 1);
  const margin = 20;
  const scale = Math.min((drawWidth - 2 * margin) / spanX, 900 / spanY);
  const mapHeight = spanY * scale + 2 * margin;
  const project: Projector = ([lon, lat]) => [
    margin + (lon - minLon) * mx * scale,
    margin + (maxLat - lat) * my * scale,
  ];

  const out: string[] = [];
  // Every warning in full, wrapped to the drawing's width (12 px text: about 6.6 px a character).
  const warningLines =
    plan.warnings.length > 0 ? warningText(plan, Math.max(40, Math.floor((drawWidth - 2 * margin) / 6.6))) : [];
  const legendHeight = 140 + Math.max(0, warningLines.length - 1) * 15;
  const totalHeight = Math.ceil(mapHeight + legendHeight);
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${drawWidth}" height="${totalHeight}" viewBox="0 0 ` +
      `${drawWidth} ${totalHeight}" font-family="sans-serif">`,
  );
  out.push(`<title>${escapeXml(options.title ?? 'furrow coverage plan')}</title>`);
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);

  // Field and no-go zones.
  let fieldPath = '';
  for (const poly of rings(plan.boundary)) {
    for (const ring of poly) fieldPath += pathData(ring, project, true);
  }
  out.push(`<path d="${fieldPath}" fill="#f4efdc" fill-rule="evenodd" stroke="#5b4a2f" stroke-width="1.5"/>`);
  for (const poly of rings(plan.boundary)) {
    for (const hole of poly.slice(1)) {
      out.push(`<path d="${pathData(hole, project, true)}" fill="#9ecae1" stroke="#3182bd" stroke-width="1"/>`);
    }
  }
  const obstacles = (plan.obstacles as { geometry?: FieldGeometry }[] | undefined) ?? [];
  for (const o of obstacles) {
    if (!o?.geometry) continue;
    for (const poly of rings(o.geometry)) {
      out.push(`<path d="${pathData(poly[0], project, true)}" fill="#9ecae1" fill-opacity="0.6" stroke="#3182bd"/>`);
    }
  }

  // Swaths: working passes drawn at their true width, faint, so coverage is visible.
  const route = [...plan.route].sort((a, b) => a.sequence - b.sequence);
  for (const seg of route) {
    if (seg.type === 'Turn' || seg.type === 'Connector') continue;
    const band = activeBand(seg, project, scale);
    if (band) {
      // a centre-line pass: the band its active sections work (sections off beyond it)
      out.push(`<path d="${band}" fill="#7fbf7f" fill-opacity="0.3" stroke="none"/>`);
      continue;
    }
    const w = (seg.widthMeters ?? 0) * scale;
    if (w < 1) continue;
    out.push(
      `<path d="${pathData(seg.coordinates, project, false)}" fill="none" stroke="#7fbf7f" stroke-opacity="0.25" ` +
        `stroke-width="${fmt(w)}" stroke-linecap="butt" stroke-linejoin="round"/>`,
    );
  }
  for (const seg of route) {
    const style = STYLE[seg.type];
    if (!style) continue;
    out.push(
      `<path d="${pathData(seg.coordinates, project, false)}" fill="none" stroke="${style.stroke}" stroke-width="` +
        `${style.width}"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''} stroke-linejoin="round"/>`,
    );
  }

  // Start and end of the route.
  const first = route[0]?.coordinates[0];
  const lastSeg: RouteSegment | undefined = route[route.length - 1];
  const last = lastSeg?.coordinates[lastSeg.coordinates.length - 1];
  if (first) {
    const [x, y] = project(first);
    out.push(`<circle cx="${fmt(x)}" cy="${fmt(y)}" r="7" fill="#16a34a" stroke="#fff" stroke-width="2"/>`);
  }
  if (last) {
    const [x, y] = project(last);
    out.push(
      `<rect x="${fmt(x - 6)}" y="${fmt(y - 6)}" width="12" height="12" fill="#dc2626" stroke="#fff" ` +
        `stroke-width="2"/>`,
    );
  }
  const refill = (plan.refillPoints as { position?: Position }[] | undefined) ?? [];
  for (const r of refill) {
    if (!r?.position) continue;
    const [x, y] = project(r.position);
    out.push(
      `<path d="M${fmt(x)} ${fmt(y - 8)}L${fmt(x + 7)} ${fmt(y + 5)}L${fmt(x - 7)} ${fmt(y + 5)}Z" fill="#facc15" ` +
        `stroke="#713f12"/>`,
    );
  }

  // Scale bar.
  const barMeters = niceLength(spanX / 4);
  const barPx = barMeters * scale;
  const by = mapHeight - 8;
  out.push(`<path d="M${margin} ${fmt(by)}h${fmt(barPx)}" stroke="#111" stroke-width="3"/>`);
  out.push(`<text x="${margin}" y="${fmt(by - 6)}" font-size="12">${barMeters} m</text>`);

  // Legend.
  let lx = margin;
  const ly = mapHeight + 22;
  const legend: [string, string][] = [...Object.values(STYLE).map((s) => [s.stroke, s.label] as [string, string])];
  for (const [colour, label] of legend) {
    out.push(`<path d="M${lx} ${ly}h26" stroke="${colour}" stroke-width="3"/>`);
    out.push(`<text x="${lx + 32}" y="${ly + 4}" font-size="13">${escapeXml(label)}</text>`);
    lx += 40 + label.length * 7;
  }
  const ly2 = ly + 24;
  out.push(
    `<circle cx="${margin + 6}" cy="${ly2}" r="6" fill="#16a34a"/><text x="${margin + 18}" y="${ly2 + 4}" ` +
      `font-size="13">Start</text>`,
  );
  out.push(
    `<rect x="${margin + 70}" y="${ly2 - 6}" width="12" height="12" fill="#dc2626"/><text x="${margin + 88}" ` +
      `y="${ly2 + 4}" font-size="13">End</text>`,
  );
  out.push(
    `<rect x="${margin + 140}" y="${ly2 - 6}" width="16" height="12" fill="#9ecae1" stroke="#3182bd"/><text ` +
      `x="${margin + 162}" y="${ly2 + 4}" font-size="13">No-go zone</text>`,
  );
  out.push(
    `<rect x="${margin + 260}" y="${ly2 - 6}" width="16" height="12" fill="#7fbf7f" fill-opacity="0.4"/><text ` +
      `x="${margin + 282}" y="${ly2 + 4}" font-size="13">Worked area (swaths)</text>`,
  );

  // Caption with the metrics.
  const m = plan.metrics;
  const caption1 = [
    `Field ${(m.fieldAreaSquareMeters / 10_000).toFixed(2)} ha`,
    `heading ${plan.heading.degrees.toFixed(1)}° (${plan.heading.source})`,
    `route ${(m.distanceMeters / 1000).toFixed(2)} km, of which ${(m.workingDistanceMeters / 1000).toFixed(2)} km ` +
      `working`,
    `time ${formatDuration(m.timeSeconds)}`,
  ].join(' · ');
  const caption2 = [
    `${m.turns} turns`,
    `uncovered ${(m.uncoveredRatio * 100).toFixed(2)}% of the workable area`,
    `worked twice ${(m.overlapRatio * 100).toFixed(2)}%`,
  ].join(' · ');
  out.push(`<text x="${margin}" y="${ly2 + 34}" font-size="14" font-weight="bold">${escapeXml(caption1)}</text>`);
  out.push(`<text x="${margin}" y="${ly2 + 54}" font-size="14">${escapeXml(caption2)}</text>`);
  if (warningLines.length > 0) {
    const spans = warningLines
      .map((line, i) => `<tspan x="${margin}" dy="${i === 0 ? 0 : 15}">${escapeXml(line)}</tspan>`)
      .join('');
    out.push(`<text class="warnings" x="${margin}" y="${ly2 + 74}" font-size="12" fill="#b91c1c">${spans}</text>`);
  }
  out.push('</svg>');
  return out.join('\n');
}

/**
 * Splits text into lines of at most `columns` characters at spaces (a longer word gets a line of its own, cut nowhere).
 */
export function wrapText(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The warnings block: a heading line, then each warning (code and message) wrapped, continuation lines indented. */
function warningText(plan: Plan, columns: number): string[] {
  const out = [`${plan.warnings.length} warning${plan.warnings.length === 1 ? '' : 's'}:`];
  for (const w of plan.warnings) {
    const lines = wrapText(`• [${w.code}] ${w.message}`, columns);
    out.push(lines[0], ...lines.slice(1).map((l) => `   ${l}`));
  }
  return out;
}

function niceLength(meters: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(meters, 1)));
  for (const f of [5, 2, 1]) if (f * p <= meters) return f * p;
  return p;
}
