// Child process of boundary-scaling.test.ts: plans the seeded synthetic 100 ha field
// (bench/scale/fields.ts) at each vertex count given, W 6 m, and prints one JSON line with the CPU
// seconds of each planning (process.cpuUsage over planRoute). Run with `--import tsx`.
import { planRoute } from '../../packages/core/src/index.ts';
import { scaleField } from '../../bench/scale/fields.ts';

const counts = process.argv.slice(2).map(Number);
// one untimed planning first: the first one pays for compiling the planner
planRoute({ field: scaleField({ areaHa: 100, vertices: counts[0], seed: 14 }), machine: { widthMeters: 6 } });
const cpuSeconds = {};
for (const vertices of counts) {
  const field = scaleField({ areaHa: 100, vertices, seed: 14 });
  const c0 = process.cpuUsage();
  planRoute({ field, machine: { widthMeters: 6 } });
  const c = process.cpuUsage(c0);
  cpuSeconds[vertices] = (c.user + c.system) / 1e6;
}
console.log(JSON.stringify({ cpuSeconds }));
