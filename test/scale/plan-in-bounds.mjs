// Child process of bounded-memory.test.ts: plans one field file (GeoJSON) at the given width and
// prints the plan's metrics, warnings, CPU time and peak RSS as one JSON line. Run with a heap limit
// (node --max-old-space-size=…) and `--import tsx`, it imports the core from its sources.
import { readFileSync } from 'node:fs';
import { planRoute } from '../../packages/core/src/index.ts';

const [file, width] = process.argv.slice(2);
const gj = JSON.parse(readFileSync(file, 'utf8'));
const field = gj.type === 'FeatureCollection' ? gj.features[0].geometry : gj.type === 'Feature' ? gj.geometry : gj;
const c0 = process.cpuUsage();
const plan = planRoute({ field, machine: { widthMeters: Number(width) } });
const c = process.cpuUsage(c0);
console.log(JSON.stringify({
  cpuSeconds: (c.user + c.system) / 1e6,
  peakRssMegabytes: process.resourceUsage().maxRSS / 1024,
  metrics: plan.metrics,
  warnings: plan.warnings.map((w) => w.code),
}));
