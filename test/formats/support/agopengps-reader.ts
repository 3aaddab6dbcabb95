/**
 * A reader of AgOpenGPS field folders written from the published format (AgOpenGPS's GPS/IO/*.cs
 * and AgOpenGPS.Core/Models/Base/LocalPlane.cs, as issue 43 lists it), not from furrow's writer:
 * it shares no code with `@furrow/format-agopengps` and fails loudly on any line out of place.
 */

export interface Vec3 {
  e: number;
  n: number;
  h: number;
}

export interface FieldTxt {
  date: string;
  name: string;
  originLat: number;
  originLon: number;
}

export interface Ring {
  driveThrough: boolean;
  points: Vec3[];
}

export interface Track {
  name: string;
  heading: number;
  a: [number, number];
  b: [number, number];
  nudge: number;
  mode: number;
  visible: boolean;
  points: Vec3[];
}

export interface RecPoint extends Vec3 {
  speedKmh: number;
  auto: boolean;
}

function fail(file: string, line: number, message: string): never {
  throw new Error(`${file} line ${line + 1}: ${message}`);
}

/** Text split into lines; the file must end with one newline (as C#'s WriteLine leaves it). */
export function linesOf(file: string, text: string): string[] {
  if (!text.endsWith('\n')) throw new Error(`${file}: does not end with a newline`);
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((l, i) => {
    if (l.includes('\r')) fail(file, i, 'carriage return');
  });
  return lines;
}

/** A number as C#'s Math.Round(v, d).ToString(InvariantCulture) writes it: at most `decimals` decimals. */
function num(file: string, i: number, text: string, decimals: number): number {
  const m = /^-?\d+(\.(\d+))?$/.exec(text);
  if (!m) fail(file, i, `"${text}" is not a plain decimal number`);
  if ((m[2]?.length ?? 0) > decimals) fail(file, i, `"${text}" has more than ${decimals} decimals`);
  if (text === '-0') fail(file, i, '"-0"');
  return Number(text);
}

function heading(file: string, i: number, text: string): number {
  const h = num(file, i, text, 5);
  if (h < 0 || h > 2 * Math.PI + 1e-5) fail(file, i, `heading ${h} is outside [0, 2π)`);
  return h;
}

function vec3(file: string, i: number, line: string | undefined): Vec3 {
  const parts = (line ?? '').split(',');
  if (parts.length !== 3) fail(file, i, `expected "E,N,H", found "${line}"`);
  return { e: num(file, i, parts[0], 3), n: num(file, i, parts[1], 3), h: heading(file, i, parts[2]) };
}

function count(file: string, i: number, line: string | undefined): number {
  if (!/^\d+$/.test(line ?? '')) fail(file, i, `expected a count, found "${line}"`);
  return Number(line);
}

export function readFieldTxt(text: string): FieldTxt {
  const f = 'Field.txt';
  const l = linesOf(f, text);
  if (l.length !== 9) throw new Error(`Field.txt: ${l.length} lines, not 9`);
  const fixed: [number, string][] = [
    [1, '$FieldDir'],
    [3, '$Offsets'],
    [4, '0,0'],
    [5, 'Convergence'],
    [6, '0'],
    [7, 'StartFix'],
  ];
  for (const [i, want] of fixed) if (l[i] !== want) fail(f, i, `expected "${want}", found "${l[i]}"`);
  if (!/^\d{4}-[A-Z][a-z]+-\d{2} (0[1-9]|1[0-2]):[0-5]\d:[0-5]\d (AM|PM)$/.test(l[0]))
    fail(f, 0, `date "${l[0]}" is not yyyy-MMMM-dd hh:mm:ss tt`);
  const [lat, lon] = l[8].split(',').map(Number);
  if (l[8].split(',').length !== 2 || !Number.isFinite(lat) || !Number.isFinite(lon)) fail(f, 8, 'origin not lat,lon');
  return { date: l[0], name: l[2], originLat: lat, originLon: lon };
}

export function readBoundaryTxt(text: string): Ring[] {
  const f = 'Boundary.txt';
  const l = linesOf(f, text);
  if (l[0] !== '$Boundary') fail(f, 0, `header "${l[0]}"`);
  const rings: Ring[] = [];
  let i = 1;
  while (i < l.length) {
    if (l[i] !== 'True' && l[i] !== 'False') fail(f, i, `expected True or False, found "${l[i]}"`);
    const driveThrough = l[i++] === 'True';
    const n = count(f, i, l[i]);
    i++;
    const points: Vec3[] = [];
    for (let k = 0; k < n; k++, i++) points.push(vec3(f, i, l[i]));
    rings.push({ driveThrough, points });
  }
  return rings;
}

/** Headland.txt: per boundary ring its headland line (possibly empty); no ring when only the header. */
export function readHeadlandTxt(text: string, rings: number): Vec3[][] {
  const f = 'Headland.txt';
  const l = linesOf(f, text);
  if (l[0] !== '$Headland') fail(f, 0, `header "${l[0]}"`);
  if (l.length === 1) return [];
  const out: Vec3[][] = [];
  let i = 1;
  for (let r = 0; r < rings; r++) {
    const n = count(f, i, l[i]);
    i++;
    const line: Vec3[] = [];
    for (let k = 0; k < n; k++, i++) line.push(vec3(f, i, l[i]));
    out.push(line);
  }
  if (i !== l.length) fail(f, i, `${l.length - i} lines after the last ring`);
  return out;
}

function en(file: string, i: number, line: string | undefined): [number, number] {
  const parts = (line ?? '').split(',');
  if (parts.length !== 2) fail(file, i, `expected "E,N", found "${line}"`);
  return [num(file, i, parts[0], 3), num(file, i, parts[1], 3)];
}

export function readTrackLinesTxt(text: string): Track[] {
  const f = 'TrackLines.txt';
  const l = linesOf(f, text);
  if (l[0] !== '$TrackLines') fail(f, 0, `header "${l[0]}"`);
  const out: Track[] = [];
  let i = 1;
  while (i < l.length) {
    const name = l[i++];
    if (name.trim() === '') fail(f, i - 1, 'empty track name');
    const h = heading(f, i, l[i++]);
    const a = en(f, i, l[i++]);
    const b = en(f, i, l[i++]);
    const nudge = num(f, i, l[i++], 3);
    const mode = Number(l[i]);
    if (mode !== 2 && mode !== 4) fail(f, i, `mode "${l[i]}" is neither AB (2) nor Curve (4)`);
    i++;
    if (l[i] !== 'True' && l[i] !== 'False') fail(f, i, `visible "${l[i]}"`);
    const visible = l[i++] === 'True';
    const n = count(f, i, l[i]);
    i++;
    if (mode === 2 && n !== 0) fail(f, i - 1, `an AB line with ${n} points`);
    if (mode === 4 && n < 4) fail(f, i - 1, `a curve with ${n} points (older loaders need 4)`);
    const points: Vec3[] = [];
    for (let k = 0; k < n; k++, i++) points.push(vec3(f, i, l[i]));
    out.push({ name, heading: h, a, b, nudge, mode, visible, points });
  }
  return out;
}

export function readRecPathTxt(text: string): RecPoint[] {
  const f = 'RecPath.txt';
  const l = linesOf(f, text);
  if (l[0] !== '$RecPath') fail(f, 0, `header "${l[0]}"`);
  const n = count(f, 1, l[1]);
  if (l.length !== n + 2) throw new Error(`RecPath.txt: count ${n} but ${l.length - 2} point lines`);
  const out: RecPoint[] = [];
  for (let i = 2; i < l.length; i++) {
    const parts = l[i].split(',');
    if (parts.length !== 5) fail(f, i, `expected "E,N,H,speed,autoBtn", found "${l[i]}"`);
    const v = vec3(f, i, parts.slice(0, 3).join(','));
    const speedKmh = num(f, i, parts[3], 1);
    if (parts[4] !== 'True' && parts[4] !== 'False') fail(f, i, `autoBtn "${parts[4]}"`);
    out.push({ ...v, speedKmh, auto: parts[4] === 'True' });
  }
  return out;
}

// ----- the local plane, from the published formulas -----

const RAD = Math.PI / 180;
export const mLat = (deg: number): number =>
  111132.92 - 559.82 * Math.cos(2 * deg * RAD) + 1.175 * Math.cos(4 * deg * RAD) - 0.0023 * Math.cos(6 * deg * RAD);
export const mLon = (deg: number): number =>
  111412.84 * Math.cos(deg * RAD) - 93.5 * Math.cos(3 * deg * RAD) + 0.118 * Math.cos(5 * deg * RAD);

/** Local easting / northing back to [lon, lat] with the field's origin. */
export function toLonLat(field: FieldTxt, e: number, n: number): [number, number] {
  const lat = field.originLat + n / mLat(field.originLat);
  return [field.originLon + e / mLon(lat), lat];
}

/** Distance in meters between two lon/lat positions (local equirectangular; fine within a field). */
export function metersBetween(a: readonly number[], b: readonly number[]): number {
  const lat = ((a[1] + b[1]) / 2) * RAD;
  const dy = (a[1] - b[1]) * RAD * 6371008.8;
  const dx = (a[0] - b[0]) * RAD * 6371008.8 * Math.cos(lat);
  return Math.hypot(dx, dy);
}

/** Shoelace area of a ring of local points, m². */
export function ringArea(points: readonly Vec3[]): number {
  let s = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++)
    s += points[j].e * points[i].n - points[i].e * points[j].n;
  return Math.abs(s) / 2;
}

export function pathLength(points: readonly Vec3[]): number {
  let s = 0;
  for (let i = 1; i < points.length; i++) s += Math.hypot(points[i].e - points[i - 1].e, points[i].n - points[i - 1].n);
  return s;
}
