/**
 * A small PMTiles (v3) writer for the tests (pmtiles.test.ts, the map suite in a browser): one
 * raster tile content for every tile of an area over a range of zooms, laid out as the spec says
 * (header, root directory, metadata, tile data; no leaf directories, nothing compressed). Enough
 * for an archive of a few thousand tiles, which is what a test needs; furrow itself only reads
 * archives (with the `pmtiles` package).
 */
import { TileType, zxyToTileId } from 'pmtiles';

const HEADER_BYTES = 127;
/** The reader takes the header and the root directory from the first 16 KiB. */
const FIRST_FETCH_BYTES = 16_384;

interface Entry {
  tileId: number;
  runLength: number;
}

function varints(values: number[]): number[] {
  const out: number[] = [];
  for (let v of values) {
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  }
  return out;
}

/** The tile x, y of a lon, lat at zoom z (Web Mercator). */
export function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return [Math.min(Math.max(x, 0), n - 1), Math.min(Math.max(y, 0), n - 1)];
}

/**
 * An archive whose every tile over `bounds` ([west, south, east, north]) at zooms `minZoom`..`maxZoom`
 * is `tile` (all entries point to one copy of it; consecutive tile ids are one run).
 */
export function pmtilesOfArea(
  tile: Uint8Array,
  bounds: [number, number, number, number],
  minZoom: number,
  maxZoom: number,
  tileType: TileType = TileType.Png,
): Uint8Array {
  const ids: number[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const [x0, y0] = tileOf(bounds[0], bounds[3], z);
    const [x1, y1] = tileOf(bounds[2], bounds[1], z);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) ids.push(zxyToTileId(z, x, y));
  }
  ids.sort((a, b) => a - b);
  const entries: Entry[] = [];
  for (const id of ids) {
    const last = entries[entries.length - 1];
    if (last && last.tileId + last.runLength === id) last.runLength++;
    else entries.push({ tileId: id, runLength: 1 });
  }
  // Columns: count, tile id deltas, run lengths, lengths, offsets (+1; every entry at offset 0).
  const dir = Uint8Array.from([
    ...varints([entries.length]),
    ...varints(entries.map((e, i) => e.tileId - (i > 0 ? entries[i - 1].tileId : 0))),
    ...varints(entries.map((e) => e.runLength)),
    ...varints(entries.map(() => tile.length)),
    ...varints(entries.map(() => 1)),
  ]);
  if (HEADER_BYTES + dir.length > FIRST_FETCH_BYTES)
    throw new Error(`root directory of ${dir.length} bytes: too many tiles for this writer`);
  const metadata = new TextEncoder().encode('{}');
  const dirOffset = HEADER_BYTES;
  const metaOffset = dirOffset + dir.length;
  const dataOffset = metaOffset + metadata.length;
  const out = new Uint8Array(dataOffset + tile.length);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('PMTiles'), 0);
  out[7] = 3;
  const u64 = (at: number, v: number) => view.setBigUint64(at, BigInt(v), true);
  u64(8, dirOffset);
  u64(16, dir.length);
  u64(24, metaOffset);
  u64(32, metadata.length);
  u64(40, dataOffset); // leaf directories: none
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, tile.length);
  u64(72, ids.length); // addressed tiles
  u64(80, entries.length); // tile entries
  u64(88, 1); // tile contents
  out[96] = 0; // not clustered
  out[97] = 1; // internal compression: none
  out[98] = 1; // tile compression: none
  out[99] = tileType;
  out[100] = minZoom;
  out[101] = maxZoom;
  const e7 = (v: number) => Math.round(v * 1e7);
  view.setInt32(102, e7(bounds[0]), true);
  view.setInt32(106, e7(bounds[1]), true);
  view.setInt32(110, e7(bounds[2]), true);
  view.setInt32(114, e7(bounds[3]), true);
  out[118] = maxZoom;
  view.setInt32(119, e7((bounds[0] + bounds[2]) / 2), true);
  view.setInt32(123, e7((bounds[1] + bounds[3]) / 2), true);
  out.set(dir, dirOffset);
  out.set(metadata, metaOffset);
  out.set(tile, dataOffset);
  return out;
}
