// Real plans through the writers, checked by our plan GeoJSON checker, xmllint (v4.3 XSD) and GDAL ogrinfo.
// Not a test (planning dominates its time): run after `npx tsc --build` with
//   node test/formats/support/check-real-plans.mjs [maxHectares=15] [maxFields=40]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { planRoute } from '../../../packages/core/dist/index.js';
import { readAnyBoundary, writePlan } from '../../../packages/format-vendor/dist/index.js';
import { checkPlanFeatureCollection, planToFeatureCollection } from '../../../packages/format-geojson/dist/index.js';
const dir = mkdtempSync(join(tmpdir(), 'furrow-real-'));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const maxHectares = Number(process.argv[2] ?? 15);
const maxFields = Number(process.argv[3] ?? 40);
const rows = readFileSync(`${root}test/fields/index.csv`, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
const picked = rows.filter((r) => Number(r[2]) < maxHectares).slice(0, maxFields);
let n = 0, problems = 0;
for (const r of picked) {
  const id = r[0];
  try {
    const [b] = await readAnyBoundary(readFileSync(`${root}test/fields/${r[1]}`), r[1]);
    const t0 = Date.now();
    const plan = planRoute({ boundary: b.geometry, equipment: { widthMeters: 6, turnRadiusMeters: 6 }, exteriorHeadlandPasses: 2 });
    const ms = Date.now() - t0;
    const chk = checkPlanFeatureCollection(planToFeatureCollection(plan));
    const iso = await writePlan(plan, 'isoxml', { field: id });
    writeFileSync(`${dir}/${id}.xml`, iso.files['TASKDATA/TASKDATA.XML']);
    const shp = await writePlan(plan, 'shapefile', { field: id });
    writeFileSync(`${dir}/${id}.zip`, shp.bytes);
    const kml = await writePlan(plan, 'kml', { field: id });
    writeFileSync(`${dir}/${id}.kml`, kml.bytes);
    let ogr = '';
    for (const f of [`/vsizip/${dir}/${id}.zip`, `${dir}/${id}.kml`]) {
      try { execFileSync('ogrinfo', ['-ro', '-so', '-al', f], { stdio: 'pipe' }); } catch (e) { ogr += ` ogrinfo failed on ${f}`; }
    }
    let xml = '';
    try { execFileSync('xmllint', ['--noout', '--schema', `${root}packages/format-isoxml/xsd/ISO11783_TaskFile_V4-3.xsd`, `${dir}/${id}.xml`], { stdio: 'pipe' }); } catch (e) { xml = ' XSD invalid: ' + String(e.stderr).slice(0, 200); }
    const xmlBytes = Buffer.byteLength(iso.files['TASKDATA/TASKDATA.XML']);
    n++;
    if (chk.length || ogr || xml) problems++;
    console.log(id, r[8], `${ms}ms`, plan.route.length, 'pieces', `taskdata ${Math.round(xmlBytes / 1024)}KB`, chk.slice(0, 2).join(' | '), ogr, xml);
  } catch (e) { console.log(id, 'ERROR', e.code ?? '', String(e.message).slice(0, 150)); }
}
console.log('SUMMARY fields', n, 'with problems', problems);
rmSync(dir, { recursive: true, force: true });
process.exitCode = problems > 0 ? 1 : 0;
