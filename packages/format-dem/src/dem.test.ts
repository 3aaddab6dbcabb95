import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArrayBuffer } from 'geotiff';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { analyzeFieldTerrain, PlanError, type FieldGeometry } from '@furrow/core';
import { describeWith } from '../../../test/support/requires.js';
import { readDem, readElevationGridJson, readGeoTiffDem, writeElevationGridJson } from './index.js';

/** A north-up Float32 GeoTIFF written with geotiff.js's own writer. */
function tiff(values: number[], width: number, height: number, meta: Record<string, unknown>): ArrayBuffer {
  return writeArrayBuffer(Float32Array.from(values), { width, height, ...meta });
}

describe('GeoTIFF', () => {
  it('reads a projected (UTM) DEM: origin, cell size, CRS and values row by row', async () => {
    const width = 4,
      height = 3;
    const values = Array.from({ length: width * height }, (_, i) => 100 + i * 0.5);
    const bytes = tiff(values, width, height, {
      ModelPixelScale: [10, 10, 0],
      ModelTiepoint: [0, 0, 0, 500_000, 5_300_000, 0],
      ProjectedCSTypeGeoKey: 32633,
      GTModelTypeGeoKey: 1,
      GTRasterTypeGeoKey: 1,
    });
    const grid = await readGeoTiffDem(bytes);
    expect(grid).toMatchObject({
      crs: 'EPSG:32633',
      originX: 500_000,
      originY: 5_300_000,
      cellSizeX: 10,
      cellSizeY: 10,
      columns: 4,
      rows: 3,
    });
    expect(Array.from(grid.elevationsMeters)).toEqual(values);
  });

  it('reads a lon/lat DEM with a no-data value and PixelIsPoint', async () => {
    const values = [1, 2, -9999, 4, 5, 6];
    const bytes = tiff(values, 3, 2, {
      ModelPixelScale: [0.001, 0.001, 0],
      ModelTiepoint: [0, 0, 0, 16.0, 48.0, 0],
      GeographicTypeGeoKey: 4326,
      GTModelTypeGeoKey: 2,
      GTRasterTypeGeoKey: 2,
      GDAL_NODATA: '-9999',
    });
    const grid = await readDem(new Uint8Array(bytes));
    expect(grid.crs).toBe('EPSG:4326');
    expect(grid.originX).toBeCloseTo(16.0 - 0.0005, 12);
    expect(grid.originY).toBeCloseTo(48.0 + 0.0005, 12);
    expect(Number.isNaN(grid.elevationsMeters[2])).toBe(true);
    expect(grid.elevationsMeters[5]).toBe(6);
  });

  it('a GeoTIFF plane over a real corpus field gives the contour heading', async () => {
    const feature = JSON.parse(
      readFileSync(new URL('../../../test/fields/at-033.geojson', import.meta.url), 'utf8'),
    ) as { geometry: FieldGeometry };
    const ring =
      feature.geometry.type === 'Polygon' ? feature.geometry.coordinates[0] : feature.geometry.coordinates[0][0];
    const utm = proj4('EPSG:4326', '+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs');
    const [e, n] = utm.forward([ring[0][0], ring[0][1]]) as number[];
    const size = 80,
      cell = 5;
    // Rises 6 % towards grid north-east (bearing 45°): contours run 135° / 315°.
    const values: number[] = [];
    for (let r = 0; r < size; r++)
      for (let c = 0; c < size; c++) values.push(250 + 0.06 * Math.SQRT1_2 * ((c + 0.5) * cell - (r + 0.5) * cell));
    const bytes = tiff(values, size, size, {
      ModelPixelScale: [cell, cell, 0],
      ModelTiepoint: [0, 0, 0, e - 200, n + 200, 0],
      ProjectedCSTypeGeoKey: 32633,
      GTModelTypeGeoKey: 1,
      GTRasterTypeGeoKey: 1,
    });
    const terrain = analyzeFieldTerrain(feature.geometry, await readGeoTiffDem(bytes));
    const gap = Math.abs(terrain.best.headingDegrees - 135);
    expect(Math.min(gap, 180 - gap)).toBeLessThan(1); // meridian convergence < 1° near 15° E
    expect(Math.tan((terrain.best.meanSlopeDegrees * Math.PI) / 180)).toBeCloseTo(0.06, 3);
  });

  it('rejects what it cannot use with a PlanError naming the file', async () => {
    await expect(readGeoTiffDem(new TextEncoder().encode('hello'), { fileName: 'x.tif' })).rejects.toThrowError(
      /x\.tif: not a TIFF/,
    );
    const noGeo = tiff([1, 2, 3, 4], 2, 2, {
      ModelPixelScale: [1, 1, 0],
      ModelTiepoint: [0, 0, 0, 0, 0, 0],
      ProjectedCSTypeGeoKey: 32767,
      GTModelTypeGeoKey: 1,
    });
    await expect(readGeoTiffDem(noGeo)).rejects.toThrowError(/names no EPSG/);
    const withCrs = await readGeoTiffDem(noGeo, { crs: '+proj=utm +zone=33 +datum=WGS84' });
    expect(withCrs.crs).toMatch(/zone=33/);
    await expect(readGeoTiffDem(noGeo, { band: 2 })).rejects.toBeInstanceOf(PlanError);
    const truncated = new Uint8Array(
      tiff([1, 2, 3, 4], 2, 2, { ModelPixelScale: [1, 1, 0], ModelTiepoint: [0, 0, 0, 0, 0, 0] }),
    ).slice(0, 12);
    await expect(readGeoTiffDem(truncated)).rejects.toBeInstanceOf(PlanError);
  });
});

describeWith(['gdal'], 'GeoTIFF written by GDAL', () => {
  it(
    'reads a DEM that gdal_translate made from an ASCII grid (origin from the south-west corner, ' + 'no data)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'furrow-dem-'));
      try {
        const asc = [
          'ncols 3',
          'nrows 2',
          'xllcorner 600000',
          'yllcorner 5200000',
          'cellsize 2',
          'NODATA_value -1',
          '10 20 30',
          '40 -1 60',
          '',
        ].join('\n');
        writeFileSync(join(dir, 'in.asc'), asc);
        execFileSync('gdal_translate', [
          '-q',
          '-of',
          'GTiff',
          '-ot',
          'Float32',
          '-a_srs',
          'EPSG:32632',
          join(dir, 'in.asc'),
          join(dir, 'out.tif'),
        ]);
        const grid = await readDem(readFileSync(join(dir, 'out.tif')));
        // xllcorner / yllcorner are the south-west corner: the north edge is 2 rows × 2 m above it.
        expect(grid).toMatchObject({
          crs: 'EPSG:32632',
          originX: 600_000,
          originY: 5_200_004,
          cellSizeX: 2,
          cellSizeY: 2,
          columns: 3,
          rows: 2,
        });
        expect(Array.from(grid.elevationsMeters).map((v) => (Number.isNaN(v) ? null : v))).toEqual([
          10,
          20,
          30,
          40,
          null,
          60,
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('JSON elevation grid', () => {
  const doc = {
    type: 'ElevationGrid',
    crs: 'EPSG:4326',
    origin: [16.0, 48.0],
    cellSize: 0.0001,
    columns: 3,
    rows: 2,
    elevations: [
      [1, 2, 3],
      [4, null, 6],
    ],
  };

  it('reads nested rows, null as no data, feet converted', () => {
    const grid = readElevationGridJson(JSON.stringify(doc));
    expect(grid).toMatchObject({
      crs: 'EPSG:4326',
      originX: 16,
      originY: 48,
      cellSizeX: 0.0001,
      cellSizeY: 0.0001,
      columns: 3,
      rows: 2,
    });
    expect(Number.isNaN(grid.elevationsMeters[4])).toBe(true);
    const ft = readElevationGridJson({ ...doc, verticalUnit: 'ft', elevations: [10, 20, 30, 40, 50, 60] });
    expect(ft.elevationsMeters[0]).toBeCloseTo(3.048, 12);
  });

  it('round-trips through writeElevationGridJson', async () => {
    const grid = readElevationGridJson(doc);
    const again = await readDem(JSON.stringify(writeElevationGridJson(grid)));
    expect(writeElevationGridJson(again)).toEqual(writeElevationGridJson(grid));
    expect(writeElevationGridJson(again).elevations).toEqual(doc.elevations);
  });

  it('names the bad member', () => {
    const cases: [unknown, RegExp][] = [
      ['{', /not valid JSON/],
      [{ ...doc, type: 'Grid' }, /type must be/],
      [{ ...doc, origin: [1] }, /origin/],
      [{ ...doc, cellSize: -1 }, /cellSize/],
      [
        {
          ...doc,
          elevations: [
            [1, 2],
            [3, 4, 5],
          ],
        },
        /elevations\[0\]/,
      ],
      [{ ...doc, elevations: [1, 2, 3, 4, 5] }, /elevationsMeters/],
      [{ ...doc, crs: 7 }, /crs/],
    ];
    for (const [input, message] of cases) {
      expect(() => readElevationGridJson(input)).toThrowError(message);
    }
  });
});
