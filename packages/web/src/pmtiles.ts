/**
 * A local basemap: raster tiles read from a PMTiles (v3) archive on the server's disk and served by
 * furrow itself at `/tiles/{z}/{x}/{y}.{ext}`, so a farm office with no internet has imagery under
 * its fields. The archive is read with the `pmtiles` package through a file `Source` (byte ranges of
 * the file); its directories are cached by the package. Only raster archives (PNG, JPEG, WebP,
 * AVIF) fit the map.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { PMTiles, TileType, bytesToHeader, type Header, type RangeResponse, type Source } from 'pmtiles';

/** URL prefix of the local tiles. */
export const LOCAL_TILES_PREFIX = '/tiles/';

const HEADER_BYTES = 127;

/** The raster tile types the map shows, with their file extension and content type. */
const RASTER: ReadonlyMap<TileType, { ext: string; contentType: string }> = new Map([
  [TileType.Png, { ext: 'png', contentType: 'image/png' }],
  [TileType.Jpeg, { ext: 'jpg', contentType: 'image/jpeg' }],
  [TileType.Webp, { ext: 'webp', contentType: 'image/webp' }],
  [TileType.Avif, { ext: 'avif', contentType: 'image/avif' }],
]);

/** What the page needs of an archive: the tile format, the zoom range and the area it covers. */
export interface PmtilesInfo {
  ext: string;
  contentType: string;
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
}

/**
 * Reads a PMTiles archive's header (at start-up, synchronously) and checks it is a raster archive
 * of spec version 3; throws an Error naming `FURROW_BASEMAP_PMTILES` and what is wrong.
 */
export function readPmtilesInfo(path: string): PmtilesInfo {
  const bytes = new Uint8Array(HEADER_BYTES);
  let read: number;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, bytes, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new Error(`FURROW_BASEMAP_PMTILES: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? err})`, {
      cause: err,
    });
  }
  const magic = new TextDecoder().decode(bytes.subarray(0, 7));
  if (read < HEADER_BYTES || magic !== 'PMTiles')
    throw new Error(`FURROW_BASEMAP_PMTILES: ${path} is not a PMTiles archive`);
  let header: Header;
  try {
    header = bytesToHeader(bytes.buffer);
  } catch (err) {
    throw new Error(`FURROW_BASEMAP_PMTILES: ${path}: ${(err as Error).message}`, { cause: err });
  }
  if (header.specVersion !== 3)
    throw new Error(`FURROW_BASEMAP_PMTILES: ${path} is PMTiles version ${header.specVersion}; version 3 is read`);
  const type = RASTER.get(header.tileType);
  if (!type)
    throw new Error(
      `FURROW_BASEMAP_PMTILES: ${path} holds ${header.tileType === TileType.Mvt ? 'vector' : 'unknown'} tiles; ` +
        'the map shows raster tiles (PNG, JPEG, WebP or AVIF)',
    );
  return {
    ...type,
    minZoom: header.minZoom,
    maxZoom: header.maxZoom,
    bounds: [header.minLon, header.minLat, header.maxLon, header.maxLat],
  };
}

/** Byte ranges of a file on disk, for the `pmtiles` reader (opened on first use, kept open). */
class FileRangeSource implements Source {
  private handle?: Promise<FileHandle>;
  constructor(private readonly path: string) {}

  getKey(): string {
    return this.path;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.handle ??= open(this.path, 'r');
    const handle = await this.handle;
    const data = new Uint8Array(length);
    const { bytesRead } = await handle.read(data, 0, length, offset);
    return { data: data.buffer.slice(0, bytesRead) };
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    if (handle) await (await handle).close();
  }
}

const TILE_PATH = /^\/tiles\/(\d{1,2})\/(\d{1,8})\/(\d{1,8})\.([a-z]+)$/;

/** The tiles of one archive, answered over HTTP (`tileResponse`). */
export class LocalTiles {
  readonly info: PmtilesInfo;
  private readonly source: FileRangeSource;
  private readonly archive: PMTiles;

  constructor(readonly path: string) {
    this.info = readPmtilesInfo(path);
    this.source = new FileRangeSource(path);
    this.archive = new PMTiles(this.source);
  }

  /** The URL template the page's map reads the tiles from (on the app's own origin). */
  get urlTemplate(): string {
    return `${LOCAL_TILES_PREFIX}{z}/{x}/{y}.${this.info.ext}`;
  }

  /**
   * Answers `GET /tiles/{z}/{x}/{y}.{ext}`: the tile (200), or 204 where the archive has none at
   * that place (outside its area or zooms: the map shows its plain background there); 404 for a
   * path that names no tile or another format. Undefined for paths outside `/tiles/`.
   */
  async tileResponse(request: Request): Promise<Response | undefined> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(LOCAL_TILES_PREFIX)) return undefined;
    const m = TILE_PATH.exec(pathname);
    const [z, x, y] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [-1, -1, -1];
    if (!m || m[4] !== this.info.ext || z > 26 || x >= 2 ** z || y >= 2 ** z)
      return new Response('No such tile', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
      });
    const headers = new Headers({ 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' });
    const tile = await this.archive.getZxy(z, x, y);
    if (!tile) return new Response(null, { status: 204, headers });
    headers.set('content-type', this.info.contentType);
    headers.set('content-length', String(tile.data.byteLength));
    return new Response(request.method === 'HEAD' ? null : tile.data, { status: 200, headers });
  }

  close(): Promise<void> {
    return this.source.close();
  }
}
