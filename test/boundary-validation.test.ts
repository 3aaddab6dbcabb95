/**
 * One boundary validation: the same bad boundary gets the same code and the same message from
 * the library (`planRoute` and the boundary readers), the CLI (`furrow plan`), and the API
 * (`/direct`, `fields/save`, boundary import), whatever format the boundary came in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPlanError, planRoute } from '@furrow/core';
import { openStore, type Store } from '@furrow/api';
import { readAnyBoundary } from '@furrow/format-vendor';
import { main } from '../packages/cli/src/index.js';
import { call, makeApp, type TestApp } from './api/support.js';

type Ring = number[][];
const wktOf = (ring: Ring) => `POLYGON ((${ring.map((p) => `${p[0]} ${p[1]}`).join(', ')}))`;
const kmlOf = (ring: Ring) =>
  `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>F</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring
    .map((p) => p.join(','))
    .join(' ')}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`;

const BAD: { what: string; ring: Ring; code: string; message: RegExp }[] = [
  {
    what: 'an unclosed ring',
    ring: [
      [8.54, 47.37],
      [8.544, 47.37],
      [8.544, 47.374],
      [8.54, 47.374],
    ],
    code: 'invalid-boundary',
    message: /ring is not closed/,
  },
  {
    what: 'a bow-tie',
    ring: [
      [8.54, 47.37],
      [8.544, 47.374],
      [8.544, 47.37],
      [8.54, 47.374],
      [8.54, 47.37],
    ],
    code: 'self-intersection',
    message: /intersects itself .*near \[/,
  },
];

/** The library's verdict: `planRoute`'s PlanError (code and the message of its first detail). */
function libraryVerdict(ring: Ring): { code: string; message: string } {
  try {
    planRoute({ boundary: { type: 'Polygon', coordinates: [ring] }, equipment: { widthMeters: 6 } } as never);
  } catch (err) {
    expect(isPlanError(err)).toBe(true);
    const e = err as { code: string; details: { message: string }[] };
    return { code: e.code, message: e.details[0].message };
  }
  throw new Error('planRoute accepted the boundary');
}

let store: Store;
let A: TestApp;
let farmId: string;
let fieldId: string;
let dir: string;

beforeAll(async () => {
  store = await openStore('memory:');
  A = await makeApp(store);
  const company = await call(A, 'POST', '/api/partner/companies', {
    partnerCompanyId: 'validation-co',
    name: 'Validation farms',
    countryCode: 'DE',
  });
  const { companyId } = company.body;
  const grower = await call(A, 'POST', `/api/companies/${companyId}/growers`, { name: 'Grower' });
  const farm = await call(A, 'POST', `/api/growers/${grower.body.growerId}/farms`, { name: 'Farm' });
  farmId = farm.body.farmId;
  const square = BAD[0].ring.concat([BAD[0].ring[0]]);
  const field = await call(A, 'POST', '/api/fields/save', { farmId, name: 'North', boundary: [square] });
  expect(field.status).toBe(201);
  fieldId = field.body.field.fieldId;
  dir = mkdtempSync(join(tmpdir(), 'furrow-validation-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await store.close();
});

async function cliRun(file: string): Promise<{ code: number; stderr: string }> {
  const err: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await main(['plan', file, '--width', '6']), stderr: err.join('') };
  } finally {
    spy.mockRestore();
    out.mockRestore();
  }
}

async function importFile(text: string, filename: string) {
  const res = await A.app.request(`/api/fields/${fieldId}/boundaries/import?filename=${filename}`, {
    method: 'POST',
    headers: { 'X-API-KEY': A.adminKey, 'Content-Type': 'application/octet-stream' },
    body: text,
  });
  return { status: res.status, body: await res.json() };
}

describe('one boundary validation through every entry point', () => {
  for (const bad of BAD) {
    describe(bad.what, () => {
      it('the library says it once: code and message with a place', () => {
        const v = libraryVerdict(bad.ring);
        expect(v.code).toBe(bad.code);
        expect(v.message).toMatch(bad.message);
      });

      it('the boundary readers say the same for GeoJSON, WKT and KML', async () => {
        const v = libraryVerdict(bad.ring);
        const files: [string, string][] = [
          [JSON.stringify({ type: 'Polygon', coordinates: [bad.ring] }), 'f.geojson'],
          [wktOf(bad.ring), 'f.wkt'],
          [kmlOf(bad.ring), 'f.kml'],
        ];
        for (const [text, name] of files) {
          const err = await readAnyBoundary(text, name).then(
            () => {
              throw new Error(`${name} was read`);
            },
            (e: unknown) => e as { code: string; message: string; details: { message: string }[] },
          );
          expect(isPlanError(err), name).toBe(true);
          expect(err.code, name).toBe(v.code);
          expect(err.details[0].message, name).toBe(v.message);
          expect(err.message, name).toContain(name);
        }
      });

      it('the API says the same on /direct, fields/save and boundary import (422, reason = the code)', async () => {
        const v = libraryVerdict(bad.ring);
        const answers = [
          await call(A, 'POST', '/api/path-plans/direct', {
            boundary: { type: 'Polygon', coordinates: [bad.ring] },
            equipment: { widthMeters: 6 },
          }),
          await call(A, 'POST', '/api/fields/save', { farmId, name: 'Bad', boundary: [bad.ring] }),
          await importFile(
            JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [bad.ring] } }),
            'b.geojson',
          ),
          await importFile(wktOf(bad.ring), 'b.wkt'),
        ];
        for (const [i, a] of answers.entries()) {
          expect(a.status, `answer ${i}`).toBe(422);
          expect(a.body.error.reason, `answer ${i}`).toBe(v.code);
          expect(a.body.error.details[0].message, `answer ${i}`).toBe(v.message);
        }
        const boundaries = await call(A, 'GET', `/api/fields/${fieldId}/boundaries`);
        expect(boundaries.body.total).toBe(1);
      });

      it('the CLI says the same and exits 2, for a GeoJSON and a WKT file', async () => {
        const v = libraryVerdict(bad.ring);
        const tag = bad.code;
        const files = [join(dir, `${tag}.geojson`), join(dir, `${tag}.wkt`)];
        writeFileSync(files[0], JSON.stringify({ type: 'Polygon', coordinates: [bad.ring] }));
        writeFileSync(files[1], wktOf(bad.ring));
        for (const file of files) {
          const run = await cliRun(file);
          expect(run.code, file).toBe(2);
          expect(run.stderr, file).toContain(v.message);
        }
      });
    });
  }

  it('an ISO-XML LSG polygon is closed by definition: read without its first point repeated, like the closed ring', async () => {
    const open = BAD[0].ring;
    const pnts = open.map((p) => `<PNT A="2" C="${p[1]}" D="${p[0]}"/>`).join('');
    const xml = `<ISO11783_TaskData VersionMajor="4" VersionMinor="3" DataTransferOrigin="1"><PFD A="PFD1" C="x" D="0"><PLN A="1"><LSG A="1">${pnts}</LSG></PLN></PFD></ISO11783_TaskData>`;
    const [b] = await readAnyBoundary(xml, 'TASKDATA.XML');
    const [closed] = await readAnyBoundary(
      JSON.stringify({ type: 'Polygon', coordinates: [open.concat([open[0]])] }),
      'f.geojson',
    );
    expect(b.geometry).toEqual(closed.geometry);
  });

  describe('a file of no boundary format (CSV)', () => {
    const csv = 'id,lon,lat\n1,8.54,47.37\n2,8.544,47.37\n3,8.544,47.374\n';
    const said = /f\.csv: unrecognised boundary format: saw content starting with "id,lon,lat/;

    it('the reader names no format it did not read', async () => {
      const err = await readAnyBoundary(csv, 'f.csv').catch((e: unknown) => e as { code: string; message: string });
      expect(err.code).toBe('invalid-boundary');
      expect(err.message).toMatch(said);
      expect(err.message).not.toMatch(/\(geojson\)/);
    });

    it('the API import and the CLI say the same', async () => {
      const a = await importFile(csv, 'f.csv');
      expect(a.status).toBe(422);
      expect(a.body.error.reason).toBe('invalid-boundary');
      expect(a.body.error.message).toMatch(said);
      const file = join(dir, 'f.csv');
      writeFileSync(file, csv);
      const run = await cliRun(file);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(said);
      expect(run.stderr).not.toMatch(/\(geojson\)/);
    });
  });
});
