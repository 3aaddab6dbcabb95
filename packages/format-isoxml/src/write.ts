/**
 * ISO 11783-10 (v4.3) TASKDATA.XML out: customer / farm / partfield, PLN boundary (1),
 * obstacles (6) and headland (10), guidance groups with AB (C=1) and curve (C=3) patterns
 * holding LSG type 5 line strings with PNT A (6) / B (7) points, refill / staging points
 * as PNT storage (4) / home base (11), and a planned task (TSK) on the partfield.
 * Validated against the v4.3 XSD in the tests.
 */
import type { FieldGeometry, Plan, Position, Ring } from '@furrow/core';
import { FURROW_VERSION } from '@furrow/core';
import { contextFeaturesOf, polygonsOf, rewindPolygon, routeInOrder } from '@furrow/format-geojson';
import type { ParsedBoundary } from '@furrow/format-geojson';
import JSZip from 'jszip';
import { headlandArea } from './headland.js';

/** PLN types (ISO 11783-10 PolygonType). */
export const PLN_BOUNDARY = 1;
export const PLN_OBSTACLE = 6;
export const PLN_HEADLAND = 10;
/** LSG types (LineStringType). */
export const LSG_EXTERIOR = 1;
export const LSG_INTERIOR = 2;
export const LSG_GUIDANCE = 5;
/** PNT types (PointType). */
export const PNT_OTHER = 2;
export const PNT_STORAGE = 4;
export const PNT_GUIDANCE_A = 6;
export const PNT_GUIDANCE_B = 7;
export const PNT_GUIDANCE_POINT = 9;
export const PNT_HOMEBASE = 11;
/** GPN types (GuidancePatternType). */
export const GPN_AB = 1;
export const GPN_CURVE = 3;

export interface TaskDataNames {
  /** Customer (grower) name, CTR B (default "furrow"). */
  customer?: string;
  /** Farm name, FRM B (default "furrow"). */
  farm?: string;
  /** Partfield (field) name, PFD C (default "field"). */
  field?: string;
  /**
   * Planned start of the task (the GuidanceAllocation's AllocationStamp): with it the TSK also
   * allocates the route's guidance group (GAN); without it the output depends on the plan alone.
   */
  date?: Date;
}

// XSD maxLength counts characters (code points), not UTF-16 units
const designator = (s: string): string => (s.length > 32 ? Array.from(s).slice(0, 32).join('') : s);
const deg = (v: number): string => Number(v.toFixed(9)).toString();

/**
 * Ring area in m² on the WGS84 ellipsoid for field-sized rings: an equal-area (sinusoidal-like)
 * local projection with the meridian and prime-vertical radii at the ring's mean latitude;
 * relative error ~1e-6 over a few km (a spherical formula is 0.1-0.4 % off).
 */
export function ringAreaSquareMeters(ring: readonly Position[]): number {
  const rad = Math.PI / 180;
  let lat0 = 0;
  for (const p of ring) lat0 += p[1];
  lat0 = (lat0 / ring.length) * rad;
  const e2 = 0.00669437999014;
  const s = 1 - e2 * Math.sin(lat0) ** 2;
  const n = 6378137 / Math.sqrt(s);
  const m = (6378137 * (1 - e2)) / (s * Math.sqrt(s));
  const lon0 = ring[0][0];
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    // x scaled by the cosine of each point's own latitude, relative to N at lat0 (equal-area in the small)
    const xi = (ring[i][0] - lon0) * rad * n * Math.cos(ring[i][1] * rad);
    const yi = (ring[i][1] * rad - lat0) * m;
    const xj = (ring[j][0] - lon0) * rad * n * Math.cos(ring[j][1] * rad);
    const yj = (ring[j][1] * rad - lat0) * m;
    sum += xj * yi - xi * yj;
  }
  return Math.abs(sum / 2);
}

function polygonArea(rings: Ring[]): number {
  return rings.reduce((a, r, i) => (i === 0 ? a + ringAreaSquareMeters(r) : a - ringAreaSquareMeters(r)), 0);
}

function geometryArea(geometry: FieldGeometry): number {
  return polygonsOf(geometry).reduce((a, p) => a + polygonArea(p), 0);
}

const escapeXml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );

/** `<TAG A="…" …/>` or `<TAG …>` with attributes in the given order (ISO-XML writes them A, B, C, …). */
function tag(name: string, attrs: Record<string, string>, close: boolean): string {
  let out = `<${name}`;
  for (const [k, v] of Object.entries(attrs)) out += ` ${k}="${escapeXml(v)}"`;
  return out + (close ? '/>' : '>');
}

function pointXml(indent: string, type: number, p: Position, name?: string): string {
  const attrs: Record<string, string> = { A: String(type) };
  if (name) attrs.B = designator(name);
  attrs.C = deg(p[1]);
  attrs.D = deg(p[0]);
  return `${indent}${tag('PNT', attrs, true)}\n`;
}

function polygonXml(indent: string, type: number, rings: Ring[], name?: string): string {
  const attrs: Record<string, string> = { A: String(type) };
  if (name) attrs.B = designator(name);
  attrs.C = String(Math.round(polygonArea(rings)));
  let out = `${indent}${tag('PLN', attrs, false)}\n`;
  // ISO 11783-10 does not fix the orientation; we write outer rings counter-clockwise, holes clockwise.
  rewindPolygon(rings).forEach((ring, i) => {
    out += `${indent}  <LSG A="${i === 0 ? LSG_EXTERIOR : LSG_INTERIOR}">\n`;
    for (const p of ring) out += pointXml(`${indent}    `, PNT_OTHER, p);
    out += `${indent}  </LSG>\n`;
  });
  return out + `${indent}</PLN>\n`;
}

function bearingDegrees(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const y = Math.sin((b[0] - a[0]) * rad) * Math.cos(b[1] * rad);
  const x =
    Math.cos(a[1] * rad) * Math.sin(b[1] * rad) -
    Math.sin(a[1] * rad) * Math.cos(b[1] * rad) * Math.cos((b[0] - a[0]) * rad);
  const d = (Math.atan2(y, x) / rad + 360) % 360;
  return Number(d.toFixed(6)) % 360;
}

/** True if every point lies within `toleranceMeters` of the chord from the first to the last point. */
export function isStraight(line: readonly Position[], toleranceMeters = 0.05): boolean {
  if (line.length <= 2) return true;
  const lat0 = (line[0][1] * Math.PI) / 180;
  const mx = 111320 * Math.cos(lat0);
  const my = 110540;
  const ax = 0;
  const ay = 0;
  const bx = (line[line.length - 1][0] - line[0][0]) * mx;
  const by = (line[line.length - 1][1] - line[0][1]) * my;
  const len = Math.hypot(bx - ax, by - ay);
  if (len === 0) return false;
  for (const p of line) {
    const px = (p[0] - line[0][0]) * mx;
    const py = (p[1] - line[0][1]) * my;
    if (Math.abs((bx * py - by * px) / len) > toleranceMeters) return false;
  }
  return true;
}

/** A guidance pattern: AB line (C=1) when straight, curve (C=3) otherwise. */
function patternXml(indent: string, id: number, name: string, line: Position[]): string {
  const straight = isStraight(line);
  const attrs: Record<string, string> = {
    A: `GPN${id}`,
    B: designator(name),
    C: String(straight ? GPN_AB : GPN_CURVE),
  };
  if (straight) attrs.G = String(bearingDegrees(line[0], line[line.length - 1]));
  let out = `${indent}${tag('GPN', attrs, false)}\n${indent}  <LSG A="${LSG_GUIDANCE}">\n`;
  const inner = `${indent}    `;
  if (straight) {
    out += pointXml(inner, PNT_GUIDANCE_A, line[0]) + pointXml(inner, PNT_GUIDANCE_B, line[line.length - 1]);
  } else {
    line.forEach((p, i) => {
      out += pointXml(inner, i === 0 ? PNT_GUIDANCE_A : i === line.length - 1 ? PNT_GUIDANCE_B : PNT_GUIDANCE_POINT, p);
    });
  }
  return out + `${indent}  </LSG>\n${indent}</GPN>\n`;
}

export interface PartfieldContent {
  names: TaskDataNames;
  boundary: FieldGeometry;
  obstacles?: Ring[][];
  headlands?: Ring[][];
  /** Guidance groups: name + lines (each an AB line or a curve). */
  guidance?: { name: string; lines: { name: string; coordinates: Position[] }[] }[];
  points?: { type: number; name?: string; position: Position }[];
  /** A task (TSK) on the partfield; `guidanceGroup` is the index in `guidance` it allocates (with `names.date`). */
  task?: { guidanceGroup: number };
}

/** TSK status "planned" (TaskStatus 1). */
export const TSK_PLANNED = 1;
/** ASP type "planned" (AllocationStampType 1). */
export const ASP_PLANNED = 1;

/** `<TSK>` on PFD1 (planned), with a GAN allocating the guidance group `ggpId` when a date is given. */
function taskXml(names: TaskDataNames, ggpId: string | undefined): string {
  const attrs = {
    A: 'TSK1',
    B: designator(names.field ?? 'field'),
    C: 'CTR1',
    D: 'FRM1',
    E: 'PFD1',
    G: String(TSK_PLANNED),
  };
  if (!ggpId || !names.date) return `  ${tag('TSK', attrs, true)}\n`;
  const start = names.date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return (
    `  ${tag('TSK', attrs, false)}\n    ${tag('GAN', { A: ggpId }, false)}\n` +
    `      ${tag('ASP', { A: start, D: String(ASP_PLANNED) }, true)}\n    </GAN>\n  </TSK>\n`
  );
}

// Written as text: xmlbuilder2 was the slowest part on plans with thousands of points.
function buildTaskData(content: PartfieldContent): string {
  const names = content.names;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  out.push(
    tag(
      'ISO11783_TaskData',
      {
        VersionMajor: '4',
        VersionMinor: '3',
        ManagementSoftwareManufacturer: 'furrow',
        ManagementSoftwareVersion: designator(FURROW_VERSION),
        DataTransferOrigin: '1',
      },
      false,
    ) + '\n',
  );
  out.push(`  ${tag('CTR', { A: 'CTR1', B: designator(names.customer ?? 'furrow') }, true)}\n`);
  out.push(`  ${tag('FRM', { A: 'FRM1', B: designator(names.farm ?? 'furrow'), I: 'CTR1' }, true)}\n`);
  out.push(
    `  ${tag(
      'PFD',
      {
        A: 'PFD1',
        C: designator(names.field ?? 'field'),
        D: String(Math.round(geometryArea(content.boundary))),
        E: 'CTR1',
        F: 'FRM1',
      },
      false,
    )}\n`,
  );
  const i4 = '    ';
  for (const rings of polygonsOf(content.boundary)) out.push(polygonXml(i4, PLN_BOUNDARY, rings, names.field));
  (content.obstacles ?? []).forEach((rings, i) => out.push(polygonXml(i4, PLN_OBSTACLE, rings, `Obstacle ${i + 1}`)));
  (content.headlands ?? []).forEach((rings, i) => out.push(polygonXml(i4, PLN_HEADLAND, rings, `Headland ${i + 1}`)));
  for (const p of content.points ?? []) out.push(pointXml(i4, p.type, p.position, p.name));
  let ggpId = 0;
  let gpnId = 0;
  let taskGroup: string | undefined;
  (content.guidance ?? []).forEach((group, index) => {
    const lines = group.lines.filter((l) => l.coordinates.length >= 2);
    if (lines.length === 0) return;
    const id = `GGP${++ggpId}`;
    if (content.task?.guidanceGroup === index) taskGroup = id;
    out.push(`${i4}${tag('GGP', { A: id, B: designator(group.name) }, false)}\n`);
    for (const line of lines) out.push(patternXml(`${i4}  `, ++gpnId, line.name, line.coordinates));
    out.push(`${i4}</GGP>\n`);
  });
  out.push('  </PFD>\n');
  if (content.task) out.push(taskXml(names, taskGroup));
  out.push('</ISO11783_TaskData>\n');
  return out.join('');
}

function ringsOfGeometry(g: { type: string; coordinates: unknown }): Ring[][] {
  if (g.type === 'Polygon') return [g.coordinates as Ring[]];
  if (g.type === 'MultiPolygon') return g.coordinates as Ring[][];
  return [];
}

/** Every working pass in driving order: tracks ("Track n") and headland passes ("Headland n", curves). */
function routePatterns(plan: Plan): { name: string; coordinates: Position[] }[] {
  let tracks = 0;
  let headland = 0;
  const out: { name: string; coordinates: Position[] }[] = [];
  for (const s of routeInOrder(plan)) {
    if (s.type === 'Track') out.push({ name: `Track ${++tracks}`, coordinates: s.coordinates });
    else if (s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland')
      out.push({ name: `Headland ${++headland}`, coordinates: s.coordinates });
  }
  return out;
}

/**
 * The plan as TASKDATA.XML: PFD with the boundary (PLN 1), its holes and the plan's obstacles
 * (PLN 6), the headland area (PLN 10: the plan's, else the band of its exterior passes), the route
 * as a guidance group with a pattern per working pass in driving order (tracks AB or curve,
 * headland passes as curves), the plan's guidance lines as a second group, refill points (PNT 4)
 * and the staging area (PNT 11); then a planned task (TSK) on the partfield, allocating the route's
 * group (GAN) when `names.date` is given.
 */
export function planToTaskData(plan: Plan, names: TaskDataNames = {}): string {
  const context = contextFeaturesOf(plan);
  const obstacles: Ring[][] = [];
  for (const rings of polygonsOf(plan.boundary)) for (const hole of rings.slice(1)) obstacles.push([hole]);
  const headlands: Ring[][] = [];
  const points: PartfieldContent['points'] = [];
  const guidanceLines: { name: string; coordinates: Position[] }[] = [];
  for (const f of context) {
    const t = f.properties.type;
    if (t === 'Obstacle') obstacles.push(...ringsOfGeometry(f.geometry));
    else if (t === 'HeadlandArea') headlands.push(...ringsOfGeometry(f.geometry));
    else if ((t === 'RefillPoint' || t === 'StagingArea') && f.geometry.type === 'Point') {
      const index = typeof f.properties.index === 'number' ? f.properties.index + 1 : 1;
      points.push({
        type: t === 'RefillPoint' ? PNT_STORAGE : PNT_HOMEBASE,
        name: t === 'RefillPoint' ? `Refill ${index}` : 'Staging area',
        position: f.geometry.coordinates,
      });
    } else if (t === 'GuidanceLine' && f.geometry.type === 'LineString') {
      const index = typeof f.properties.index === 'number' ? f.properties.index + 1 : guidanceLines.length + 1;
      guidanceLines.push({ name: `Guidance ${index}`, coordinates: f.geometry.coordinates });
    }
  }
  // headland area: given by the plan, else the band the exterior headland passes cover
  if (headlands.length === 0) headlands.push(...headlandArea(plan));
  return buildTaskData({
    names,
    boundary: plan.boundary,
    obstacles,
    headlands,
    points,
    guidance: [
      { name: 'furrow route', lines: routePatterns(plan) },
      { name: 'furrow guidance lines', lines: guidanceLines },
    ],
    task: { guidanceGroup: 0 },
  });
}

function nameOf(props: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const hit = Object.keys(props).find((p) => p.toLowerCase() === k.toLowerCase());
    if (hit && props[hit] !== undefined && props[hit] !== null && String(props[hit]).trim() !== '')
      return String(props[hit]);
  }
  return undefined;
}

/** A boundary as TASKDATA.XML (names from its Grower / Farm / Field properties, obstacles as PLN 6). */
export function boundaryToTaskData(
  boundary: Pick<ParsedBoundary, 'geometry' | 'properties' | 'obstacles'>,
  names: TaskDataNames = {},
): string {
  const props = boundary.properties ?? {};
  return buildTaskData({
    names: {
      customer: names.customer ?? nameOf(props, ['Grower', 'Customer', 'Client']),
      farm: names.farm ?? nameOf(props, ['Farm']),
      field: names.field ?? nameOf(props, ['Field', 'name', 'id']),
    },
    boundary: boundary.geometry,
    obstacles: (boundary.obstacles ?? []).map((o) => o.coordinates),
  });
}

/** TASKDATA.XML in a zip under `TASKDATA/`, as terminals read it from a USB stick. */
export async function zipTaskData(xml: string, folder = 'TASKDATA'): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(`${folder}/TASKDATA.XML`, xml, { date: new Date(Date.UTC(2020, 0, 1)) });
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', platform: 'UNIX' });
}
