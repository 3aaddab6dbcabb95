import { readFileSync, readdirSync } from 'node:fs';
if (process.env.PATCH) { const sqrt = Math.sqrt; Math.hypot = (x, y) => sqrt(x * x + y * y); }
const { libraryPlanRoute, runPlan } = await import('./dist/planner.js');
const dir = '/work/main/test/fields';
const files = readdirSync(dir).filter((f) => f.endsWith('.geojson'));
const reqs = files.map((f) => ({ boundary: JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')).geometry, equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 2 }));
const planRoute = libraryPlanRoute();
for (let pass = 0; pass < Number(process.env.PASSES ?? 2); pass++) {
  const t0 = performance.now(); const c0 = process.cpuUsage();
  let h = 0;
  for (const r of reqs) { const p = await runPlan(planRoute, r, { version: '1', keepCrosshatches: false }); h = (h * 31 + JSON.stringify(p.metrics ?? p.plan?.metrics ?? '').length) | 0; }
  const c = process.cpuUsage(c0);
  console.log(process.env.PATCH ? 'patched' : 'base', 'pass', pass, 'wall', ((performance.now() - t0) / 1000).toFixed(2), 'cpu', ((c.user + c.system) / 1e6).toFixed(2), 'h', h);
}
