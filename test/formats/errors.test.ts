/** Bad boundary files: a PlanError with code invalid-boundary naming file, format and place; never a crash or hang. */
import { describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { isPlanError } from '@furrow/core';
import { detectFormat, readAnyBoundary } from '@furrow/format-vendor';

async function errorOf(input: string | Uint8Array, name?: string): Promise<{ code: string; message: string }> {
  try {
    await readAnyBoundary(input, name);
  } catch (err) {
    expect(isPlanError(err)).toBe(true);
    return err as { code: string; message: string };
  }
  throw new Error('expected an error');
}

const square = '[[10,50],[10.001,50],[10.001,50.001],[10,50.001],[10,50]]';

describe('bad boundary files', () => {
  const cases: { what: string; input: string | (() => Promise<Uint8Array>); name: string; expect: RegExp[] }[] = [
    {
      what: 'broken JSON',
      input: '{"type": "Polygon", "coordinates": [',
      name: 'a.geojson',
      expect: [/a\.geojson \(geojson\)/, /not valid JSON/],
    },
    {
      what: 'a LineString',
      input: '{"type":"LineString","coordinates":[[10,50],[11,51]]}',
      name: 'l.geojson',
      expect: [/expected a Polygon or MultiPolygon, found LineString/],
    },
    {
      what: 'projected coordinates',
      input: '{"type":"Polygon","coordinates":[[[500000,5400000],[500100,5400000],[500100,5400100],[500000,5400000]]]}',
      name: 'utm.geojson',
      expect: [/utm\.geojson \(geojson\) at \(root\)\.coordinates\[0\]\[0\]/, /reproject/],
    },
    {
      what: 'too few points',
      input: '{"type":"Polygon","coordinates":[[[10,50],[11,50],[10,50]]]}',
      name: 'p.geojson',
      expect: [/coordinates\[0\]/, /at least 4 positions/],
    },
    {
      what: 'a string coordinate',
      input:
        '{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[10,50],["11",50],[11,51],[10,50]]]}}',
      name: 'f.geojson',
      expect: [/geometry\.coordinates\[0\]\[1\]/, /finite numbers/],
    },
    {
      what: 'a collection without polygons',
      input:
        '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}]}',
      name: 'c.geojson',
      expect: [/no Polygon or MultiPolygon feature/],
    },
    {
      what: 'bad WKT',
      input: 'POLYGON ((10 50, 11 50, 11 x, 10 50))',
      name: 'b.wkt',
      expect: [/b\.wkt \(wkt\) at line 1/],
    },
    {
      what: 'WKT in another SRID',
      input: `SRID=25832;POLYGON ((500000 5400000, 500100 5400000, 500100 5400100, 500000 5400000))`,
      name: 's.wkt',
      expect: [/SRID=25832 is not supported/],
    },
    {
      what: 'malformed KML',
      input: '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark></Document></kml>',
      name: 'm.kml',
      expect: [/m\.kml \(kml\)/, /not well-formed XML/],
    },
    {
      what: 'KML without polygons',
      input:
        '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>p</name><Point><coordinates>10,50</coordinates></Point></Placemark></Document></kml>',
      name: 'n.kml',
      expect: [/no Polygon or MultiPolygon/],
    },
    {
      what: 'TASKDATA without partfield boundary',
      input:
        '<ISO11783_TaskData VersionMajor="4" VersionMinor="3" DataTransferOrigin="1"><PFD A="PFD1" C="x" D="0"/></ISO11783_TaskData>',
      name: 'TASKDATA.XML',
      expect: [/TASKDATA\.XML \(isoxml\)/, /PLN A="1"/],
    },
    {
      what: 'TASKDATA with a bad point',
      input:
        '<ISO11783_TaskData VersionMajor="4" VersionMinor="3" DataTransferOrigin="1"><PFD A="PFD1" C="x" D="0"><PLN A="1"><LSG A="1"><PNT A="2" C="50" D="10"/><PNT A="2" C="fifty" D="10"/></LSG></PLN></PFD></ISO11783_TaskData>',
      name: 'TASKDATA.XML',
      expect: [/PFD\[0\] PFD1 > PLN\[0\] \(type 1\) > LSG\[0\] > PNT\[1\]/],
    },
    {
      what: 'unknown text',
      input: 'hello, this is not a boundary',
      name: 'x.txt',
      expect: [/unrecognised boundary format/, /saw content starting with "hello, this is not a boundary"/],
    },
    { what: 'an empty file', input: '', name: 'x.txt', expect: [/unrecognised boundary format: saw an empty file/] },
    {
      what: 'XML of another kind',
      input: '<?xml version="1.0"?>\n<gpx version="1.1"><trk/></gpx>',
      name: 'track.gpx',
      expect: [/saw an XML document whose root element is <gpx>/],
    },
    {
      what: 'a zip with neither shapefile nor TASKDATA',
      input: async () => {
        const z = new JSZip();
        z.file('readme.txt', 'hi');
        return z.generateAsync({ type: 'uint8array' });
      },
      name: 'z.zip',
      expect: [
        /z\.zip/,
        /without a \.shp, TASKDATA\.XML, \.kml file or AgOpenGPS field folder \(Field\.txt and Boundary\.txt\)/,
        /it holds readme\.txt/,
      ],
    },
    {
      what: 'a shapefile zip without .dbf / .shx',
      input: async () => {
        const z = new JSZip();
        z.file('a.shp', new Uint8Array([0, 0, 39, 10, 1, 2, 3]));
        return z.generateAsync({ type: 'uint8array' });
      },
      name: 'broken.zip',
      expect: [/broken\.zip \(shapefile\)/],
    },
  ];
  for (const c of cases) {
    it(`${c.what}`, async () => {
      const input = typeof c.input === 'function' ? await c.input() : c.input;
      const err = await errorOf(input, c.name);
      expect(err.code).toBe('invalid-boundary');
      for (const re of c.expect) expect(err.message).toMatch(re);
    });
  }

  it('detects each format from content, whatever the file is called', async () => {
    expect(detectFormat(`{"type":"Polygon","coordinates":[${square}]}`, 'field.txt')).toBe('geojson');
    expect(detectFormat('  POLYGON((10 50, 11 50, 11 51, 10 50))', 'field.json')).toBe('wkt');
    expect(detectFormat('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"/>', 'x.xml')).toBe('kml');
    expect(detectFormat('<?xml version="1.0"?>\n<ISO11783_TaskData VersionMajor="4"/>', 'x.kml')).toBe('isoxml');
  });

  it('reads KMZ, MultiGeometry and inner rings', async () => {
    const ring = (pts: number[][]) => pts.map((p) => p.join(',')).join(' ');
    const outer = ring([
      [10, 50],
      [10.01, 50],
      [10.01, 50.01],
      [10, 50.01],
      [10, 50],
    ]);
    const hole = ring([
      [10.004, 50.004],
      [10.004, 50.006],
      [10.006, 50.006],
      [10.006, 50.004],
      [10.004, 50.004],
    ]);
    const other = ring([
      [11, 50],
      [11.01, 50],
      [11.01, 50.01],
      [11, 50],
    ]);
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>F</name><MultiGeometry>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>${outer}</coordinates></LinearRing></outerBoundaryIs><innerBoundaryIs><LinearRing><coordinates>${hole}</coordinates></LinearRing></innerBoundaryIs></Polygon>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>${other}</coordinates></LinearRing></outerBoundaryIs></Polygon>
      </MultiGeometry></Placemark></kml>`;
    const zip = new JSZip();
    zip.file('doc.kml', kml);
    const [b] = await readAnyBoundary(await zip.generateAsync({ type: 'uint8array' }), 'field.kmz');
    expect(b.geometry.type).toBe('MultiPolygon');
    expect(b.geometry.coordinates).toHaveLength(2);
    expect((b.geometry.coordinates as number[][][][])[0]).toHaveLength(2);
    expect(b.properties.name).toBe('F');
  });

  it('WKT: several geometries, EWKT SRID=4326, MULTIPOLYGON with holes', async () => {
    const text =
      'SRID=4326;POLYGON((10 50, 10.01 50, 10.01 50.01, 10 50))\nMULTIPOLYGON(((11 50, 11.01 50, 11.01 50.01, 11 50.01, 11 50),(11.004 50.004, 11.004 50.006, 11.006 50.006, 11.004 50.004)))\n';
    const out = await readAnyBoundary(text, 'two.wkt');
    expect(out.map((b) => b.geometry.type)).toEqual(['Polygon', 'MultiPolygon']);
    expect((out[1].geometry.coordinates as number[][][][])[0]).toHaveLength(2);
  });
});

describe('ISO-XML external files', () => {
  const pfd =
    '<PFD A="PFD1" C="North" D="0"><PLN A="1"><LSG A="1"><PNT A="2" C="50" D="10"/><PNT A="2" C="50" D="10.01"/><PNT A="2" C="50.01" D="10.01"/><PNT A="2" C="50" D="10"/></LSG></PLN></PFD>';
  const main =
    '<?xml version="1.0" encoding="UTF-8"?><ISO11783_TaskData VersionMajor="4" VersionMinor="3" DataTransferOrigin="1"><XFR A="PFD00001" B="1"/></ISO11783_TaskData>';
  it('follows XFR into PFD00001.XML inside a zip', async () => {
    const zip = new JSZip();
    zip.file('TASKDATA/TASKDATA.XML', main);
    zip.file('TASKDATA/PFD00001.XML', `<?xml version="1.0" encoding="UTF-8"?><XFC>${pfd}</XFC>`);
    const [b] = await readAnyBoundary(await zip.generateAsync({ type: 'uint8array' }), 'task.zip');
    expect(b.properties.Field).toBe('North');
    expect(b.geometry.coordinates[0]).toHaveLength(4);
  });
  it('says to give the archive when only the main file is given', async () => {
    const err = await errorOf(main, 'TASKDATA.XML');
    expect(err.message).toMatch(/external files \(XFR\)/);
  });
});
