/**
 * AgOpenGPS field folders in: the origin from Field.txt (`StartFix`) and the fence rings of
 * Boundary.txt (ring 0 the outer boundary, the others holes; a hole marked drive-through is a
 * passable zone). Read as AgOpenGPS's BoundaryFiles.Load reads it: optional `$` header, the flag
 * once or twice, the point count, `E,N,H` lines.
 */
import type { GeoJsonPolygon, Position, Ring } from '@furrow/core';
import { boundaryError, entryText, toFieldGeometry, unzipArchive } from '@furrow/format-geojson';
import type { ParsedBoundary, SourcePlace } from '@furrow/format-geojson';
import { toWgs84, type LocalPlane } from './localPlane.js';

const textOf = (x: Uint8Array | string): string => (typeof x === 'string' ? x : entryText(x));
const lines = (text: string): string[] => text.replace(/^\uFEFF/, '').split(/\r?\n/);

/** The folder of a path (`a/b/Field.txt` → `a/b`, `Field.txt` → ``). */
const folderOf = (path: string): string => path.replace(/\\/g, '/').replace(/\/?[^/]*$/, '');
const baseName = (path: string): string => path.replace(/\\/g, '/').replace(/^.*\//, '');

/** True if the paths hold an AgOpenGPS field folder (a Field.txt beside a Boundary.txt). */
export function isAgOpenGpsFolder(paths: readonly string[]): boolean {
  const fields = new Set(paths.filter((p) => /(^|\/)field\.txt$/i.test(p)).map((p) => folderOf(p).toLowerCase()));
  return paths.some((p) => /(^|\/)boundary\.txt$/i.test(p) && fields.has(folderOf(p).toLowerCase()));
}

/** Field.txt: the origin (the line after `StartFix`) and the name (the line after `$FieldDir`). */
export function readFieldTxt(text: string, where: SourcePlace): { plane: LocalPlane; name?: string } {
  const all = lines(text);
  const dirAt = all.findIndex((l) => l.trim() === '$FieldDir');
  const name = dirAt >= 0 ? all[dirAt + 1]?.trim() : undefined;
  const at = all.findIndex((l) => /^\s*StartFix/i.test(l));
  if (at < 0) throw boundaryError(where, 'no StartFix line: the field origin ("StartFix", then "lat,lon") is missing');
  const parts = (all[at + 1] ?? '').split(',').map((s) => Number(s.trim()));
  const [lat, lon] = parts;
  if (parts.length < 2 || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    throw boundaryError(
      { ...where, place: `line ${at + 2}` },
      `the line after StartFix must be "latitude,longitude" in degrees, found "${(all[at + 1] ?? '').trim()}"`,
    );
  }
  return { plane: { originLatitudeDegrees: lat, originLongitudeDegrees: lon }, name: name || undefined };
}

/** One ring of Boundary.txt in local meters. */
export interface ReadFenceRing {
  driveThrough: boolean;
  points: { eastingMeters: number; northingMeters: number }[];
}

/** Boundary.txt's rings, as AgOpenGPS's loader reads them (malformed count: stop; short point line: skipped). */
export function readBoundaryTxt(text: string, where: SourcePlace): ReadFenceRing[] {
  const all = lines(text);
  let i = all.length > 0 && all[0].trimStart().startsWith('$') ? 1 : 0;
  const rings: ReadFenceRing[] = [];
  while (i < all.length) {
    if (all[i].trim() === '') {
      i++;
      continue;
    }
    let driveThrough = false;
    for (let pass = 0; pass < 2 && /^(true|false)$/i.test(all[i]?.trim() ?? ''); pass++) {
      driveThrough = all[i].trim().toLowerCase() === 'true';
      i++;
    }
    const countLine = all[i]?.trim() ?? '';
    if (!/^\d+$/.test(countLine)) {
      if (rings.length === 0)
        throw boundaryError(
          { ...where, place: `line ${i + 1}` },
          `expected the point count of a ring, found "${countLine}"`,
        );
      break;
    }
    const count = Number(countLine);
    i++;
    const points: ReadFenceRing['points'] = [];
    for (let k = 0; k < count && i < all.length; k++, i++) {
      const [e, n] = all[i].split(',').map((s) => Number(s.trim()));
      if (all[i].split(',').length >= 3 && Number.isFinite(e) && Number.isFinite(n))
        points.push({ eastingMeters: e, northingMeters: n });
    }
    rings.push({ driveThrough, points });
  }
  if (rings.length === 0) throw boundaryError(where, 'Boundary.txt holds no ring: the field has no boundary yet');
  return rings;
}

function lonLatRing(plane: LocalPlane, ring: ReadFenceRing): Ring {
  const out: Position[] = ring.points.map((p) => toWgs84(plane, p.eastingMeters, p.northingMeters));
  if (out.length > 0) out.push([out[0][0], out[0][1]]);
  return out;
}

/** One field folder (its Field.txt and Boundary.txt text) as a boundary. */
export function readFieldFolder(
  field: string,
  boundary: string,
  where: { file?: string; folder: string },
): ParsedBoundary {
  const file = where.file ? `${where.file}:` : '';
  const at = (name: string): SourcePlace => ({
    file: `${file}${where.folder ? `${where.folder}/` : ''}${name}`,
    format: 'agopengps',
  });
  const { plane, name } = readFieldTxt(field, at('Field.txt'));
  const rings = readBoundaryTxt(boundary, at('Boundary.txt'));
  const holes = rings.slice(1).filter((r) => !r.driveThrough);
  const geometry = toFieldGeometry(
    { type: 'Polygon', coordinates: [rings[0], ...holes].map((r) => lonLatRing(plane, r)) },
    at('Boundary.txt'),
    'ring[0]',
  );
  const passableZones: GeoJsonPolygon[] = [];
  rings.forEach((r, k) => {
    if (k === 0 || !r.driveThrough) return;
    const zone = toFieldGeometry(
      { type: 'Polygon', coordinates: [lonLatRing(plane, r)] },
      at('Boundary.txt'),
      `ring[${k}]`,
    );
    if (zone.type === 'Polygon') passableZones.push(zone);
  });
  const fieldName = name ?? (baseName(where.folder) || 'field');
  const out: ParsedBoundary = { geometry, properties: { name: fieldName, Field: fieldName }, format: 'agopengps' };
  if (passableZones.length > 0) out.passableZones = passableZones;
  return out;
}

/**
 * Every field folder among the files (relative paths → content): each folder holding a Field.txt
 * and a Boundary.txt is one boundary, in path order.
 */
export function readFieldFolders(files: Record<string, Uint8Array | string>, name?: string): ParsedBoundary[] {
  const byFolder = new Map<string, { field?: string; boundary?: string }>();
  for (const path of Object.keys(files).sort()) {
    const base = baseName(path).toLowerCase();
    if (base !== 'field.txt' && base !== 'boundary.txt') continue;
    const folder = folderOf(path);
    const entry = byFolder.get(folder) ?? {};
    if (base === 'field.txt') entry.field = textOf(files[path]);
    else entry.boundary = textOf(files[path]);
    byFolder.set(folder, entry);
  }
  const out: ParsedBoundary[] = [];
  for (const [folder, entry] of byFolder) {
    if (entry.field === undefined || entry.boundary === undefined) continue;
    out.push(readFieldFolder(entry.field, entry.boundary, { file: name, folder }));
  }
  if (out.length === 0)
    throw boundaryError(
      { file: name, format: 'agopengps' },
      'no AgOpenGPS field folder: expected a folder holding Field.txt and Boundary.txt',
    );
  return out;
}

/** A zip of AgOpenGPS field folders (or a files map) as boundaries. */
export function readBoundary(input: Uint8Array | Record<string, Uint8Array | string>, name?: string): ParsedBoundary[] {
  if (!(input instanceof Uint8Array)) return readFieldFolders(input, name);
  const { files } = unzipArchive(input, (n) => /(^|\/)(field|boundary)\.txt$/i.test(n), { file: name });
  return readFieldFolders(Object.fromEntries(files), name);
}
