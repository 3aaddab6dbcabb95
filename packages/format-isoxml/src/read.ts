/**
 * ISO 11783-10 TASKDATA.XML boundaries in: every partfield (PFD) with its PLN type 1
 * boundary polygons (LSG 1 exterior, LSG 2 interior rings) and PLN type 6 obstacles; names
 * from the customer (CTR), farm (FRM) and partfield. Reads TASKDATA.XML text or a zip holding
 * it, following external files (XFR → PFD00001.XML).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { GeoJsonPolygon, Position, Ring } from '@furrow/core';
import {
  boundaryError,
  entryText,
  isArchiveLimitError,
  isZip,
  rewindPolygon,
  textOf,
  toFieldGeometry,
  unzipArchive,
} from '@furrow/format-geojson';
import type { ParsedBoundary, SourcePlace } from '@furrow/format-geojson';

type El = Record<string, unknown>;

const ARRAYS = new Set(['CTR', 'FRM', 'PFD', 'PLN', 'LSG', 'PNT', 'GGP', 'GPN', 'XFR']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  isArray: (name) => ARRAYS.has(name),
});

function children(el: El | undefined, tag: string): El[] {
  const v = el?.[tag];
  return Array.isArray(v) ? (v as El[]) : [];
}

function parse(text: string, where: SourcePlace): El {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw boundaryError({ ...where, place: `line ${valid.err.line}` }, `not well-formed XML (${valid.err.msg})`);
  }
  return parser.parse(text) as El;
}

function ringOf(lsg: El, where: SourcePlace, place: string): Ring {
  const ring: Ring = [];
  children(lsg, 'PNT').forEach((pnt, i) => {
    const lat = Number(pnt.C);
    const lon = Number(pnt.D);
    if (pnt.C === undefined || pnt.D === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) {
      throw boundaryError(
        { ...where, place: `${place} > PNT[${i}]` },
        'a PNT needs numeric C (north) and D (east) attributes',
      );
    }
    ring.push([lon, lat]);
  });
  // An LSG polygon is closed by definition: terminals write it with or without the first point
  // repeated at the end. GeoJSON repeats it, so it is added here (a format conversion, not a repair).
  const first = ring[0],
    last = ring[ring.length - 1];
  if (ring.length > 2 && (first[0] !== last[0] || first[1] !== last[1])) ring.push([first[0], first[1]]);
  return ring;
}

/** Polygons of a PLN: one per exterior LSG (type 1), interior LSGs (type 2) assigned to the exterior before them. */
function polygonsOfPln(pln: El, where: SourcePlace, place: string): Position[][][] {
  const polys: Position[][][] = [];
  children(pln, 'LSG').forEach((lsg, i) => {
    const type = String(lsg.A);
    const ring = ringOf(lsg, where, `${place} > LSG[${i}]`);
    if (type === '1') polys.push([ring]);
    else if (type === '2') {
      if (polys.length === 0)
        throw boundaryError(
          { ...where, place: `${place} > LSG[${i}]` },
          'interior ring (LSG A=2) before any exterior ring (LSG A=1)',
        );
      polys[polys.length - 1].push(ring);
    }
  });
  return polys;
}

/** Boundaries of the partfields in a parsed TASKDATA document (plus PFDs from external files). */
function boundariesOf(root: El, external_: El[], where: SourcePlace): ParsedBoundary[] {
  const customers = new Map(children(root, 'CTR').map((c) => [String(c.A), String(c.B ?? '')]));
  const farms = new Map(children(root, 'FRM').map((f) => [String(f.A), f]));
  const pfds = [...children(root, 'PFD'), ...external_.flatMap((x) => children(x, 'PFD'))];
  const out: ParsedBoundary[] = [];
  pfds.forEach((pfd, p) => {
    const place = `PFD[${p}] ${String(pfd.A ?? '')}`.trim();
    const polys: Position[][][] = [];
    const obstacles: GeoJsonPolygon[] = [];
    children(pfd, 'PLN').forEach((pln, i) => {
      const type = String(pln.A);
      if (type !== '1' && type !== '6') return;
      const plnPlace = `${place} > PLN[${i}] (type ${type})`;
      const found = polygonsOfPln(pln, where, plnPlace);
      if (type === '1') polys.push(...found);
      else
        for (const rings of found) {
          const g = toFieldGeometry({ type: 'Polygon', coordinates: rings }, where, plnPlace);
          if (g.type === 'Polygon') obstacles.push(g);
        }
    });
    if (polys.length === 0) return;
    const geometry = toFieldGeometry(
      polys.length === 1 ? { type: 'Polygon', coordinates: polys[0] } : { type: 'MultiPolygon', coordinates: polys },
      where,
      `${place} > PLN (type 1)`,
    );
    const properties: Record<string, unknown> = { Field: String(pfd.C ?? ''), partfieldId: String(pfd.A ?? '') };
    const farm = farms.get(String(pfd.F));
    if (farm) properties.Farm = String(farm.B ?? '');
    const customer = customers.get(String(pfd.E ?? farm?.I));
    if (customer !== undefined) properties.Grower = customer;
    if (pfd.D !== undefined) properties.areaSquareMeters = Number(pfd.D);
    const b: ParsedBoundary = { geometry, properties, format: 'isoxml' };
    if (obstacles.length > 0)
      b.obstacles = obstacles.map((o) => ({ type: 'Polygon', coordinates: rewindPolygon(o.coordinates) }));
    out.push(b);
  });
  if (out.length === 0) {
    const external = children(root, 'XFR').length > 0 && external_.length === 0;
    const hint = external
      ? ' (this TASKDATA.XML keeps its data in external files (XFR): give the zip or folder with them)'
      : '';
    throw boundaryError(where, `no partfield (PFD) with a boundary polygon (PLN A="1") found${hint}`);
  }
  return out;
}

function rootOf(doc: El, where: SourcePlace): El {
  const root = doc.ISO11783_TaskData as El | undefined;
  if (!root || typeof root !== 'object')
    throw boundaryError(where, 'expected an <ISO11783_TaskData> root element (TASKDATA.XML)');
  return root;
}

/** Reads TASKDATA.XML text (external files cannot be followed without the archive). */
export function readTaskData(input: string | Uint8Array, name?: string): ParsedBoundary[] {
  const where: SourcePlace = { file: name, format: 'isoxml' };
  return boundariesOf(rootOf(parse(textOf(input), where), where), [], where);
}

/** Reads a TASKDATA.XML or a zip holding one (any folder, any letter case), following XFR external files. */
export async function readBoundary(input: string | Uint8Array, name?: string): Promise<ParsedBoundary[]> {
  if (typeof input === 'string' || !isZip(input)) return readTaskData(input, name);
  const where: SourcePlace = { file: name, format: 'isoxml' };
  let files: Map<string, Uint8Array>;
  try {
    files = unzipArchive(input, (n) => /\.xml$/i.test(n), { file: name }).files;
  } catch (err) {
    if (isArchiveLimitError(err)) throw err;
    throw boundaryError(where, `not a readable zip archive (${err instanceof Error ? err.message : String(err)})`);
  }
  const entry = [...files.keys()].find((n) => /(^|\/)taskdata\.xml$/i.test(n));
  if (!entry) throw boundaryError(where, 'the archive holds no TASKDATA.XML');
  const inner: SourcePlace = { file: `${name ?? 'archive'}:${entry}`, format: 'isoxml' };
  const root = rootOf(parse(entryText(files.get(entry)!), inner), inner);
  const folder = entry.slice(0, entry.length - 'TASKDATA.XML'.length);
  const external: El[] = [];
  for (const xfr of children(root, 'XFR')) {
    const file = `${folder}${String(xfr.A)}.XML`;
    const hit = [...files.keys()].find((n) => n.toLowerCase() === file.toLowerCase());
    if (!hit) continue;
    const xWhere: SourcePlace = { file: `${name ?? 'archive'}:${hit}`, format: 'isoxml' };
    const doc = parse(entryText(files.get(hit)!), xWhere);
    if (doc.XFC && typeof doc.XFC === 'object') external.push(doc.XFC as El);
  }
  return boundariesOf(root, external, inner);
}
