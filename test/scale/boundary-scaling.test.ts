/**
 * Planning time grows no faster than the boundary: the seeded synthetic 100 ha field
 * (bench/scale/fields.ts, ±0.15 m GPS-like jitter on every vertex) planned at W 6 m with 500 and
 * with 10,000 boundary vertices, in one child process, one after the other. The ratio of their CPU
 * times is what is asserted (the machine's load scales both, a first untimed planning pays for the
 * compilation): the planner's fixed work (tracks, ordering) dominates, so 20 times the vertices cost
 * under 6 times the CPU (measured 2.6–3.5× on a shared machine; before the boundary was simplified
 * adaptively and the coverage sweep tilted off flat jittery sides, about 19×).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('planning time in the boundary size', () => {
  it('plans 10,000 boundary vertices in under 6 times the CPU of 500', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'test/scale/plan-synthetic.mjs', '500', '10000'],
        { cwd: root, timeout: 280_000, maxBuffer: 1 << 20 },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      );
    });
    const { cpuSeconds } = JSON.parse(out.trim().split('\n').pop()!) as { cpuSeconds: Record<string, number> };
    expect(cpuSeconds['10000'] / cpuSeconds['500']).toBeLessThan(6);
  }, 300_000);
});
