/**
 * A raster tile server on loopback for the map suites: `/tiles/{z}/{x}/{y}.png` answers a 256 px
 * PNG of two tile colours in a checkerboard of 32 px squares (so a screenshot can be checked for
 * tile pixels), and logs every request. The same tiles as a WMTS server's REST resources:
 * `/wmts/ortho/default/GoogleMapsCompatible/{TileMatrix}/{TileRow}/{TileCol}.png`.
 */
import { createServer, type Server } from 'node:http';
import { PNG } from 'pngjs';

/** The two colours of every tile (nothing else in the app uses them). */
export const TILE_COLORS: readonly [number, number, number][] = [
  [0, 190, 255],
  [0, 120, 200],
];

/** A 256 px PNG tile: the two tile colours in a checkerboard of 32 px squares. */
export function tilePng(): Buffer {
  const png = new PNG({ width: 256, height: 256 });
  for (let y = 0; y < 256; y++) {
    for (let x = 0; x < 256; x++) {
      const c = TILE_COLORS[((x >> 5) + (y >> 5)) % 2];
      const i = (y * 256 + x) * 4;
      png.data[i] = c[0];
      png.data[i + 1] = c[1];
      png.data[i + 2] = c[2];
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

export interface TileServer {
  url: string;
  /** `${url}/tiles/{z}/{x}/{y}.png` */
  template: string;
  /** The WMTS REST template of the same tiles (`{TileMatrix}`, `{TileRow}`, `{TileCol}`). */
  wmtsTemplate: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startTileServer(): Promise<TileServer> {
  const body = tilePng();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const path = req.url ?? '';
    if (
      /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(path) ||
      /^\/wmts\/ortho\/default\/GoogleMapsCompatible\/\d+\/\d+\/\d+\.png$/.test(path)
    ) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
      res.end(body);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such tile');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    template: `${url}/tiles/{z}/{x}/{y}.png`,
    wmtsTemplate: `${url}/wmts/ortho/default/GoogleMapsCompatible/{TileMatrix}/{TileRow}/{TileCol}.png`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Share of a PNG's pixels that are (within `tolerance` per channel) one of the tile colours. */
export function tilePixelShare(png: Buffer, tolerance = 6): number {
  const img = PNG.sync.read(png);
  let hits = 0;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) {
    const r = img.data[i * 4];
    const g = img.data[i * 4 + 1];
    const b = img.data[i * 4 + 2];
    if (
      TILE_COLORS.some(
        (c) => Math.abs(c[0] - r) <= tolerance && Math.abs(c[1] - g) <= tolerance && Math.abs(c[2] - b) <= tolerance,
      )
    )
      hits++;
  }
  return hits / n;
}
