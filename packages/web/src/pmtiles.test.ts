import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { TileType } from 'pmtiles';
import { basemapFromEnv, createWebMount, webAppResponse, webContentSecurityPolicy } from './index.js';
import { LocalTiles, readPmtilesInfo } from './pmtiles.js';
// (the writer the browser suite uses too: an archive of one tile content over an area)
import { pmtilesOfArea, tileOf } from './__fixtures__/pmtiles-writer.js';

const AREA: [number, number, number, number] = [5.07, 50.11, 5.08, 50.12];
const TILE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5]); // (bytes only: no image is decoded here)

describe('a local PMTiles basemap', () => {
  const dir = mkdtempSync(join(tmpdir(), 'furrow-pmtiles-unit-'));
  const file = join(dir, 'area.pmtiles');
  writeFileSync(file, pmtilesOfArea(TILE, AREA, 10, 16));
  const opened: LocalTiles[] = [];
  afterAll(async () => {
    for (const t of opened) await t.close();
  });

  it('reads the header: format, zooms, area', () => {
    const info = readPmtilesInfo(file);
    expect(info).toMatchObject({ ext: 'png', contentType: 'image/png', minZoom: 10, maxZoom: 16 });
    info.bounds.forEach((v, i) => expect(v).toBeCloseTo(AREA[i], 6));
  });

  it('answers a tile of the archive, 204 where it has none, 404 for a path that names no tile', async () => {
    const tiles = new LocalTiles(file);
    opened.push(tiles);
    const [x, y] = tileOf(5.075, 50.115, 16);
    const get = (path: string) => tiles.tileResponse(new Request(`http://h${path}`));
    const res = (await get(`/tiles/16/${x}/${y}.png`))!;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(TILE);
    expect((await get(`/tiles/16/${x + 100}/${y}.png`))!.status).toBe(204); // outside the area
    expect((await get(`/tiles/17/${2 * x}/${2 * y}.png`))!.status).toBe(204); // above its zooms
    expect((await get(`/tiles/16/${x}/${y}.jpg`))!.status).toBe(404); // another format
    expect((await get('/tiles/3/8/1.png'))!.status).toBe(404); // x beyond 2^z
    expect((await get('/tiles/16/..%2F..%2Fetc%2Fpasswd'))!.status).toBe(404);
    expect(await get('/elsewhere')).toBeUndefined();
  });

  it('serves the tiles on the mount at /tiles/, the page naming them on its own origin (CSP: self only)', async () => {
    const app = new Hono();
    createWebMount({ basemap: { pmtilesFile: file, attribution: 'Orthophoto © Example farm' } })(app as never);
    const [x, y] = tileOf(5.075, 50.115, 15);
    const tile = await app.request(`/tiles/15/${x}/${y}.png`);
    expect(tile.status).toBe(200);
    expect(new Uint8Array(await tile.arrayBuffer())).toEqual(TILE);
    const page = await app.request('/');
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data: blob:;");
    const html = await page.text();
    const meta = /<meta name="furrow-basemap" content="([^"]*)"/.exec(html)![1].replace(/&quot;/g, '"');
    const basemap = JSON.parse(meta) as Record<string, unknown>;
    expect(basemap).toMatchObject({
      urlTemplate: '/tiles/{z}/{x}/{y}.png',
      attribution: 'Orthophoto © Example farm',
      maxZoom: 16,
    });
    expect(html).not.toContain(dir); // the file's path stays on the server
    expect(webContentSecurityPolicy({ urlTemplate: '/tiles/{z}/{x}/{y}.png', attribution: 'x' })).toContain(
      "img-src 'self' data: blob:;",
    );
    expect((await webAppResponse(new Request('http://h/tiles/1/0/0.png'))) ?? 'none').toBe('none');
  });

  it('takes FURROW_BASEMAP_PMTILES from the environment and names what is wrong', () => {
    expect(basemapFromEnv({ FURROW_BASEMAP_PMTILES: file, FURROW_BASEMAP_ATTRIBUTION: 'x' })).toEqual({
      pmtilesFile: file,
      attribution: 'x',
    });
    expect(() => basemapFromEnv({ FURROW_BASEMAP_PMTILES: file })).toThrow(/FURROW_BASEMAP_ATTRIBUTION is required/);
    expect(() =>
      basemapFromEnv({ FURROW_BASEMAP_PMTILES: join(dir, 'missing.pmtiles'), FURROW_BASEMAP_ATTRIBUTION: 'x' }),
    ).toThrow(/FURROW_BASEMAP_PMTILES: cannot read .*ENOENT/);
    const notAnArchive = join(dir, 'x.pmtiles');
    writeFileSync(notAnArchive, 'x'.repeat(200));
    expect(() => basemapFromEnv({ FURROW_BASEMAP_PMTILES: notAnArchive, FURROW_BASEMAP_ATTRIBUTION: 'x' })).toThrow(
      /not a PMTiles archive/,
    );
    const vector = join(dir, 'vector.pmtiles');
    writeFileSync(vector, pmtilesOfArea(TILE, AREA, 10, 12, TileType.Mvt));
    expect(() => basemapFromEnv({ FURROW_BASEMAP_PMTILES: vector, FURROW_BASEMAP_ATTRIBUTION: 'x' })).toThrow(
      /vector tiles; the map shows raster tiles/,
    );
    expect(() =>
      basemapFromEnv({
        FURROW_BASEMAP_PMTILES: file,
        FURROW_BASEMAP_URL: 'https://t.example/{z}/{x}/{y}.png',
        FURROW_BASEMAP_ATTRIBUTION: 'x',
      }),
    ).toThrow(/not both/);
  });
});
