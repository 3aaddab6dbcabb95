import { describe, expect, it } from 'vitest';
import { spliceSection, summariseRoutes, type RouteFieldResult } from './bench.js';

const run = (nonWorkingMeters: number, violations = 0, unfitted = 0) => ({
  distanceMeters: 1000 + nonWorkingMeters,
  nonWorkingMeters,
  violations,
  unfitted,
  ms: 1,
});

describe('bench sections', () => {
  it('the route section has its own markers and leaves the corpus section alone', () => {
    const doc = '# Benchmarks\n\n## Corpus\n\n<!-- bench:corpus:start -->\nold corpus\n<!-- bench:corpus:end -->\n';
    const withRoute = spliceSection(doc, 'route body 1', 'route', '## Route');
    expect(withRoute).toContain('old corpus');
    expect(withRoute).toContain('## Route\n\n<!-- bench:route:start -->\nroute body 1\n<!-- bench:route:end -->');
    const again = spliceSection(withRoute, 'route body 2', 'route', '## Route');
    expect(again).not.toContain('route body 1');
    expect(again.match(/## Route/g)).toHaveLength(1);
    const corpus = spliceSection(again, 'new corpus');
    expect(corpus).toContain('new corpus');
    expect(corpus).toContain('route body 2');
    expect(corpus).not.toContain('old corpus');
  });

  it(
    'the route summary counts where optimized is no worse than the best fixed order, plainly and against orders ' +
      'with no more defects',
    () => {
      const fields: RouteFieldResult[] = [
        {
          id: 'a',
          category: '',
          areaHa: 1,
          tracks: 4,
          runs: {
            boustrophedon: run(300),
            snake: run(200),
            spiral: run(400),
            clusteredSpiral: run(250),
            optimized: run(180),
          },
          optimizer: {
            nonWorkingGapRatio: 0.1,
            firstFeasibleMilliseconds: 0.1,
            orderMilliseconds: 5,
            chosen: 'optimized-refined',
          },
        },
        // b: snake is shorter only because it leaves a headland pass out (a defect warning)
        {
          id: 'b',
          category: '',
          areaHa: 2,
          tracks: 6,
          runs: {
            boustrophedon: run(500, 0, 1),
            snake: run(400, 0, 1),
            spiral: run(600, 0, 1),
            clusteredSpiral: run(450, 0, 1),
            optimized: run(420),
          },
          optimizer: {
            nonWorkingGapRatio: 0.2,
            firstFeasibleMilliseconds: 0.2,
            orderMilliseconds: 7,
            chosen: 'optimized-refined',
          },
        },
      ];
      const md = summariseRoutes(fields, undefined, {}, 'npm run bench -- --section route');
      expect(md).toContain('≤ the best fixed order on **1 of 2** fields (not on: b (420.0 m vs 400.0 m))');
      expect(md).toContain('on 2 of 2.');
      expect(md).toMatch(/\| optimized \| 2 \| 2 \| 2\.6 \| 0\.6 \|/);
      expect(md).toContain('400 (0 +1w)');
    },
  );
});
