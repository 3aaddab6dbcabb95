/**
 * A controlled-traffic system (`planTrafficSystem`) as TASKDATA.XML (ISO 11783-10 v4.3): the field
 * (PLN 1), one guidance group with the AB pattern every operation shares (GPN C=1 on the lanes'
 * reference line; N / O: the drill swaths left / right of it across the field), each tramline lane the
 * drill leaves as a LineString of type 3 (TramLine; C = the shut-off width in mm), and a task for the
 * drill whose treatment zones carry the tramline data dictionary entities (ISO 11783-11): the default
 * zone sows (Setpoint Tramline Control Level 0), each tramline pass has a zone (its shut-off bands as
 * PLN 2, treatment-zone polygons) with Setpoint Tramline Control Level (DDI 506) 1, Tramline Sequence
 * Number (507: the pass's place in the rhythm, 1…k), Unique A-B Guidance Reference Line ID (508: the
 * shared pattern, 1) and Actual Track Number (509: the pass counted from the AB line). The XSD fixes
 * the elements; the DDIs' value conventions are the dictionary's names as read here (documented in
 * docs/traffic.md), not a terminal's tested behaviour.
 */
import { FURROW_VERSION, type Position, type TrafficSystemResult } from '@furrow/core';
import { polygonsOf, rewindPolygon, sharedGuidanceLine } from '@furrow/format-geojson';
import { ringAreaSquareMeters, type TaskDataNames } from './write.js';

/** DDIs of the tramline entities (ISO 11783-11), written as 4 hex digits. */
export const DDI_SETPOINT_TRAMLINE_CONTROL_LEVEL = 506;
export const DDI_TRAMLINE_SEQUENCE_NUMBER = 507;
export const DDI_AB_REFERENCE_LINE_ID = 508;
export const DDI_ACTUAL_TRACK_NUMBER = 509;
/** LineStringType TramLine; PolygonType TreatmentZone. */
export const LSG_TRAMLINE = 3;
export const PLN_TREATMENT_ZONE = 2;
/** Treatment zone codes are 0–254: passes beyond this share the last zone. */
const MAX_ZONES = 250;

const escapeXml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
const designator = (s: string): string => (s.length > 32 ? Array.from(s).slice(0, 32).join('') : s);
const deg = (v: number): string => Number(v.toFixed(9)).toString();
const hex = (ddi: number): string => ddi.toString(16).toUpperCase().padStart(4, '0');

function tag(name: string, attrs: Record<string, string | number>, close: boolean): string {
  let out = `<${name}`;
  for (const [k, v] of Object.entries(attrs)) out += ` ${k}="${escapeXml(String(v))}"`;
  return out + (close ? '/>' : '>');
}

const point = (indent: string, type: number, p: Position): string =>
  `${indent}${tag('PNT', { A: type, C: deg(p[1]), D: deg(p[0]) }, true)}\n`;

function polygon(indent: string, type: number, rings: Position[][], name?: string): string {
  const area = rings.reduce((a, r, i) => a + (i === 0 ? 1 : -1) * ringAreaSquareMeters(r), 0);
  const attrs = { A: type, ...(name ? { B: designator(name) } : {}), C: Math.round(area) };
  let out = `${indent}${tag('PLN', attrs, false)}\n`;
  rewindPolygon(rings).forEach((ring, i) => {
    out += `${indent}  <LSG A="${i === 0 ? 1 : 2}">\n`;
    for (const p of ring) out += point(`${indent}    `, 2, p);
    out += `${indent}  </LSG>\n`;
  });
  return `${out}${indent}</PLN>\n`;
}

interface LaneLine {
  name: string;
  widthMeters: number;
  line: Position[];
  band: Position[];
}

/** A lane of a tramline pass: the line `offset` (right of travel) from the pass's centre, and its shut-off band. */
function laneGeometry(coords: Position[], offsetMeters: number, fromMeters: number, toMeters: number): LaneLine {
  const lat0 = coords[0][1];
  const mx = 111_319.49 * Math.cos((lat0 * Math.PI) / 180),
    my = 111_132.954;
  const shift = (p: Position, d: number, nx: number, ny: number): Position => [
    p[0] + (d * nx) / mx,
    p[1] + (d * ny) / my,
  ];
  const a = coords[0],
    b = coords[coords.length - 1];
  const dx = (b[0] - a[0]) * mx,
    dy = (b[1] - a[1]) * my;
  const len = Math.hypot(dx, dy) || 1;
  // Right of travel: (dy, −dx) / len.
  const nx = dy / len,
    ny = -dx / len;
  return {
    name: '',
    widthMeters: toMeters - fromMeters,
    line: [shift(a, offsetMeters, nx, ny), shift(b, offsetMeters, nx, ny)],
    band: [
      shift(a, fromMeters, nx, ny),
      shift(b, fromMeters, nx, ny),
      shift(b, toMeters, nx, ny),
      shift(a, toMeters, nx, ny),
      shift(a, fromMeters, nx, ny),
    ],
  };
}

/** The system as TASKDATA.XML (see the module comment). */
export function trafficToTaskData(result: TrafficSystemResult, names: TaskDataNames = {}): string {
  const drill = result.operations.find((o) => o.kind === 'drill');
  const plan = (drill ?? result.operations[0]).plan;
  const k = result.tramlineMultiple ?? 1;
  const i4 = '    ';
  const area = polygonsOf(plan.boundary).reduce(
    (a, rings) => a + rings.reduce((s, r, i) => s + (i === 0 ? 1 : -1) * ringAreaSquareMeters(r), 0),
    0,
  );
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  const root = {
    VersionMajor: 4,
    VersionMinor: 3,
    ManagementSoftwareManufacturer: 'furrow',
    ManagementSoftwareVersion: designator(FURROW_VERSION),
    DataTransferOrigin: 1,
  };
  out.push(`${tag('ISO11783_TaskData', root, false)}\n`);
  out.push(`  ${tag('CTR', { A: 'CTR1', B: designator(names.customer ?? 'furrow') }, true)}\n`);
  out.push(`  ${tag('FRM', { A: 'FRM1', B: designator(names.farm ?? 'furrow'), I: 'CTR1' }, true)}\n`);
  const field = designator(names.field ?? 'field');
  out.push(`  ${tag('PFD', { A: 'PFD1', C: field, D: Math.round(area), E: 'CTR1', F: 'FRM1' }, false)}\n`);
  for (const rings of polygonsOf(plan.boundary)) out.push(polygon(i4, 1, rings, names.field));
  // Tramline lanes: one LSG type 3 per lane of every tramline pass along the lanes.
  const passes = (drill?.tramlinePasses ?? []).filter((p) => p.along === 'lanes');
  const zones: { passNumber: number; bands: Position[][] }[] = [];
  for (const pass of passes) {
    const bands: Position[][] = [];
    pass.lanes.forEach((lane, j) => {
      const g = laneGeometry(pass.coordinates, lane.offsetMeters, lane.shutOffFromMeters, lane.shutOffToMeters);
      const attrs = {
        A: LSG_TRAMLINE,
        B: designator(`Tramline ${pass.passNumber} ${j + 1}`),
        C: Math.round(g.widthMeters * 1000),
      };
      out.push(`${i4}${tag('LSG', attrs, false)}\n`);
      for (const p of g.line) out.push(point(`${i4}  `, 2, p));
      out.push(`${i4}</LSG>\n`);
      bands.push(g.band);
    });
    zones.push({ passNumber: pass.passNumber, bands });
  }
  // The AB line the operations share, with the drill swaths to either side.
  const ab = sharedGuidanceLine(result);
  const swaths = Math.max(1, Math.round(Math.sqrt(result.fieldAreaSquareMeters) / result.baseWidthMeters) * 2);
  out.push(`${i4}${tag('GGP', { A: 'GGP1', B: 'furrow traffic lanes' }, false)}\n`);
  const gpn = {
    A: 'GPN1',
    B: 'Lanes AB',
    C: 1,
    G: Number(result.referenceLine.headingDegrees.toFixed(6)),
    N: 0,
    O: swaths,
  };
  out.push(`${i4}  ${tag('GPN', gpn, false)}\n${i4}    <LSG A="5">\n`);
  out.push(point(`${i4}      `, 6, ab[0]), point(`${i4}      `, 7, ab[1]));
  out.push(`${i4}    </LSG>\n${i4}  </GPN>\n${i4}</GGP>\n  </PFD>\n`);
  out.push(taskXml(zones, k, drill?.name ?? 'drill'));
  out.push('</ISO11783_TaskData>\n');
  return out.join('');
}

/** The drill's task: a sowing default zone and one tramline zone per pass (the last shared past MAX_ZONES). */
function taskXml(zones: { passNumber: number; bands: Position[][] }[], k: number, name: string): string {
  const pdv = (ddi: number, value: number): string => `      ${tag('PDV', { A: hex(ddi), B: value }, true)}\n`;
  const mod = (a: number): number => ((a % k) + k) % k;
  const task = { A: 'TSK1', B: designator(`${name}: tramlines`), C: 'CTR1', D: 'FRM1', E: 'PFD1', G: 1, H: 1 };
  let out = `  ${tag('TSK', task, false)}\n`;
  out += `    ${tag('TZN', { A: 1, B: 'Sown' }, false)}\n${pdv(DDI_SETPOINT_TRAMLINE_CONTROL_LEVEL, 0)}    </TZN>\n`;
  zones.slice(0, MAX_ZONES).forEach((z, i) => {
    const shared = i === MAX_ZONES - 1 && zones.length > MAX_ZONES;
    const all = shared ? zones.slice(i) : [z];
    const zone = { A: i + 2, B: designator(shared ? 'Tramlines (rest)' : `Tramline pass ${z.passNumber}`) };
    out += `    ${tag('TZN', zone, false)}\n`;
    for (const zone of all) for (const band of zone.bands) out += polygon('      ', PLN_TREATMENT_ZONE, [band]);
    out += pdv(DDI_SETPOINT_TRAMLINE_CONTROL_LEVEL, 1);
    out += pdv(DDI_AB_REFERENCE_LINE_ID, 1);
    if (!shared) {
      out += pdv(DDI_TRAMLINE_SEQUENCE_NUMBER, mod(z.passNumber - 1) + 1);
      out += pdv(DDI_ACTUAL_TRACK_NUMBER, z.passNumber);
    }
    out += '    </TZN>\n';
  });
  return `${out}  </TSK>\n`;
}
