import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { libraryPlanRoute, runPlan, apiPlanShape } from './dist/planner.js';
const dir = '/work/main/test/fields';
const files = readdirSync(dir).filter((f) => f.endsWith('.geojson'));
const reqs = files.map((f) => ({ boundary: JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')).geometry, equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 2 }));
const planRoute = libraryPlanRoute();
const shape = apiPlanShape(undefined);
for (const r of reqs.slice(0, 30)) await runPlan(planRoute, r, shape); // warm
const s = new Session(); s.connect();
await s.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
const t0 = performance.now();
for (const r of reqs) await runPlan(planRoute, r, shape);
console.log('planned', ((performance.now() - t0) / 1000).toFixed(1), 's');
const { profile } = await s.post('HeapProfiler.stopSampling');
writeFileSync('/tmp/exp/alloc.heapprofile', JSON.stringify(profile));
