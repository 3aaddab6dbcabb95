/**
 * Round trips: every corpus field through every boundary format and back gives the same rings
 * (orientation normalised), and so do random polygons with holes (fast-check, seeded).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldGeometry, Position, Ring } from '@furrow/core';
import * as geojson from '@furrow/format-geojson';
import * as wkt from '@furrow/format-wkt';
import * as kml from '@furrow/format-kml';
import * as shapefile from '@furrow/format-shapefile';
import * as isoxml from '@furrow/format-isoxml';
import { detectFormat, readAnyBoundary } from '@furrow/format-vendor';
import type { ParsedBoundary } from '@furrow/format-geojson';
import { corpusFields, maxRingDeviation } from './support/fixtures.js';

type Writer = (b: ParsedBoundary) => Promise<string | Uint8Array> | string | Uint8Array;
const writers: Record<string, { write: Writer; name: string }> = {
  geojson: { write: (b) => geojson.writeBoundaries([b]), name: 'field.geojson' },
  wkt: { write: (b) => wkt.writeBoundaries([b]), name: 'field.wkt' },
  kml: { write: (b) => kml.writeBoundaries([b]), name: 'field.kml' },
  shapefile: { write: (b) => shapefile.writeBoundaries([b]), name: 'field.zip' },
  isoxml: { write: (b) => isoxml.boundaryToTaskData(b), name: 'TASKDATA.XML' },
};

// GeoJSON, WKT, KML and Shapefile carry full doubles; ISO-XML PNT has 9 decimals.
const TOLERANCE_DEGREES: Record<string, number> = { geojson: 0, wkt: 0, kml: 0, shapefile: 0, isoxml: 5e-10 };

const fields = corpusFields();

describe('every corpus field round-trips through every boundary format', () => {
  it('has the whole corpus', () => {
    expect(fields.length).toBe(88);
  });
  for (const format of Object.keys(writers)) {
    it(`${format}: same rings back, format detected from content`, async () => {
      const failures: string[] = [];
      for (const field of fields) {
        const [original] = geojson.readBoundary(field.text, field.file);
        const written = await writers[format].write(original);
        const bytes = typeof written === 'string' ? new TextEncoder().encode(written) : written;
        // detection must not need the file name
        expect(detectFormat(bytes), field.id).toBe(format);
        const back = await readAnyBoundary(bytes);
        expect(back, field.id).toHaveLength(1);
        const deviation = maxRingDeviation(original.geometry, back[0].geometry);
        if (!(deviation <= TOLERANCE_DEGREES[format])) failures.push(`${field.id}: ${deviation}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('shapefile keeps the attribute columns', async () => {
    const field = fields.find((f) => f.id === 'at-ref-056')!;
    const [original] = geojson.readBoundary(field.text, field.file);
    original.properties = { ...original.properties, Grower: 'Gröwer & Söhne', Farm: 'Hof Süd', Field: 'Acker 7' };
    const [back] = await shapefile.readBoundary(await shapefile.writeBoundaries([original]), 'field.zip');
    expect(back.properties).toMatchObject({
      Grower: 'Gröwer & Söhne',
      Farm: 'Hof Süd',
      Field: 'Acker 7',
      id: 'at-ref-056',
      area_ha: 2.2434,
      holes: 1,
    });
  });

  it('ISO-XML keeps grower / farm / field names and obstacles', async () => {
    const field = fields.find((f) => f.id === 'at-033')!;
    const [original] = geojson.readBoundary(field.text, field.file);
    const ring = original.geometry.type === 'Polygon' ? original.geometry.coordinates[0] : [];
    const c = ring
      .slice(0, -1)
      .reduce((s, p) => [s[0] + p[0] / (ring.length - 1), s[1] + p[1] / (ring.length - 1)], [0, 0]);
    const d = 0.00003;
    const obstacle: Ring = [
      [c[0] - d, c[1] - d],
      [c[0] + d, c[1] - d],
      [c[0] + d, c[1] + d],
      [c[0] - d, c[1] + d],
      [c[0] - d, c[1] - d],
    ];
    const xml = isoxml.boundaryToTaskData({
      ...original,
      properties: { Grower: 'G', Farm: 'F', Field: 'at-033' },
      obstacles: [{ type: 'Polygon', coordinates: [obstacle] }],
    });
    const [back] = await isoxml.readBoundary(xml, 'TASKDATA.XML');
    expect(back.properties).toMatchObject({ Grower: 'G', Farm: 'F', Field: 'at-033' });
    expect(back.obstacles).toHaveLength(1);
    expect(maxRingDeviation({ type: 'Polygon', coordinates: [obstacle] }, back.obstacles![0])).toBeLessThanOrEqual(
      5e-10,
    );
  });
});

/** A star-shaped ring around (cx, cy) with n vertices at random radii, in degrees. */
function starRing(cx: number, cy: number, radii: number[], scale: number, clockwise: boolean): Ring {
  const n = radii.length;
  const ring: Position[] = radii.map((r, i) => {
    const a = ((clockwise ? -1 : 1) * 2 * Math.PI * i) / n;
    return [cx + Math.cos(a) * r * scale, cy + Math.sin(a) * r * scale];
  });
  ring.push([ring[0][0], ring[0][1]]);
  return ring;
}

const polygonArb = fc
  .record({
    cx: fc.double({ min: -179, max: 179, noNaN: true }),
    cy: fc.double({ min: -80, max: 80, noNaN: true }),
    radii: fc.array(fc.double({ min: 0.6, max: 1, noNaN: true }), { minLength: 3, maxLength: 40 }),
    holeRadii: fc.array(fc.array(fc.double({ min: 0.5, max: 1, noNaN: true }), { minLength: 3, maxLength: 8 }), {
      maxLength: 3,
    }),
    scale: fc.double({ min: 1e-4, max: 1e-2, noNaN: true }),
    outerClockwise: fc.boolean(),
    multi: fc.boolean(),
  })
  .map(({ cx, cy, radii, holeRadii, scale, outerClockwise, multi }): FieldGeometry => {
    const outer = starRing(cx, cy, radii, scale, outerClockwise);
    // holes: small stars around points at 0.3 of the outer radius, each far from the others and the outer ring
    const holes = holeRadii.map((hr, k) => {
      const a = (2 * Math.PI * k) / 3;
      return starRing(
        cx + Math.cos(a) * 0.3 * scale,
        cy + Math.sin(a) * 0.3 * scale,
        hr,
        0.12 * scale,
        !outerClockwise,
      );
    });
    if (!multi) return { type: 'Polygon', coordinates: [outer, ...holes] };
    const second = starRing(cx + 3 * scale, cy, radii, scale, outerClockwise);
    return { type: 'MultiPolygon', coordinates: [[outer, ...holes], [second]] };
  });

describe('random polygons round-trip (fast-check)', () => {
  for (const format of Object.keys(writers)) {
    it(`${format}`, async () => {
      await fc.assert(
        fc.asyncProperty(polygonArb, async (geometry) => {
          const boundary: ParsedBoundary = {
            geometry: geojson.toFieldGeometry(geometry, { format: 'geojson' }),
            properties: {},
            format: 'geojson',
          };
          const written = await writers[format].write(boundary);
          const back = await readAnyBoundary(written, writers[format].name);
          expect(back).toHaveLength(1);
          // ISO-XML rounds to 9 decimals; everything else is exact
          expect(maxRingDeviation(boundary.geometry, back[0].geometry)).toBeLessThanOrEqual(
            format === 'isoxml' ? 5e-10 : 0,
          );
        }),
        { seed: 20261122, numRuns: 40 },
      );
    });
  }
});

describe('attribute columns round-trip through the Shapefile .dbf (fast-check)', () => {
  it('text (any Unicode up to 254 bytes, surrounding spaces aside), integers and decimals come back equal', async () => {
    const field = corpusFields()[0];
    const [base] = geojson.readBoundary(field.text, field.file);
    const text = fc
      .string({ unit: 'grapheme', maxLength: 40 })
      .filter((s) => new TextEncoder().encode(s).length <= 254 && !/[\u0000]/.test(s));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          Grower: text,
          Farm: text,
          acres: fc.integer({ min: -1e9, max: 1e9 }),
          ratio: fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((v) => Math.round(v * 1e4) / 1e4),
        }),
        async (props) => {
          const [back] = await shapefile.readBoundary(
            await shapefile.writeBoundaries([{ ...base, properties: props }]),
            'attrs.zip',
          );
          // dBASE pads text with spaces and readers (shpjs, GDAL) trim them; empty text reads back as absent or ''
          expect((back.properties.Grower ?? '') as string).toBe(props.Grower.trim());
          expect((back.properties.Farm ?? '') as string).toBe(props.Farm.trim());
          expect(back.properties.acres).toBe(props.acres);
          expect(back.properties.ratio).toBeCloseTo(props.ratio, 4);
        },
      ),
      { seed: 7, numRuns: 60 },
    );
  });
});
