/**
 * No planner input grows memory without bound: a seeded 100 ha field with a GPS-logged boundary of
 * exactly 5,000 vertices (test/fields-scale/wobbly-100ha-5000v.geojson) once made Clipper2's sweep
 * in the coverage metric allocate until the process died (a flat spike among the union's sliver
 * gaps; geometry/coverageGuard.ts). It is planned in a child process with a 300 MB heap, so a
 * regression fails here fast instead of eating the machine.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const HEAP_LIMIT_MEGABYTES = 300;

function planInChild(
  file: string,
  widthMeters: number,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_LIMIT_MEGABYTES}`,
        '--import',
        'tsx',
        'test/scale/plan-in-bounds.mjs',
        file,
        String(widthMeters),
      ],
      { cwd: root, timeout: timeoutMs, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('planning in bounded memory', () => {
  it('plans the 5,000-vertex wobbly 100 ha field at W 6 m within a 300 MB heap', async () => {
    const r = await planInChild('test/fields-scale/wobbly-100ha-5000v.geojson', 6, 240_000);
    expect(r.stderr).not.toMatch(/heap out of memory/);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
      peakRssMegabytes: number;
      metrics: { uncoveredRatio: number; workableAreaSquareMeters: number };
    };
    expect(out.peakRssMegabytes).toBeLessThan(HEAP_LIMIT_MEGABYTES + 150);
    expect(out.metrics.workableAreaSquareMeters).toBeGreaterThan(990_000);
    expect(out.metrics.uncoveredRatio).toBeLessThan(0.01);
  }, 300_000);
});
