/**
 * Corpus integration test (issue 2): every real field in test/fields is planned at width 6 m,
 * 2 headland passes, turn radius 6 m, and the plan must pass `checkPlan` with zero
 * violations. A field the planner cannot handle fails here, loudly, with its violations.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkPlan, coverageDeviation, planRoute } from '@furrow/core';
import type { FieldGeometry } from '@furrow/core';

const dir = new URL('./fields/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.geojson')).sort();

function loadField(file: string): FieldGeometry {
  const g = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { type: string; geometry?: FieldGeometry };
  return (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
}

describe('corpus: every field plans with zero checkPlan violations', () => {
  it('has the whole corpus (88 fields)', () => {
    expect(files.length).toBe(88);
  });

  it.each(files)('%s', (file) => {
    const field = loadField(file);
    const plan = planRoute({ field, machine: { widthMeters: 6, turnRadiusMeters: 6 }, headland: { passes: 2 } });
    const check = checkPlan(field, plan);
    const report = check.violations.slice(0, 20).map((v) => `${v.code}: ${v.message}`);
    expect(report, `${file}: ${check.violations.length} violations`).toEqual([]);
    expect(check.ok).toBe(true);
    expect(plan.route.length).toBeGreaterThan(0);
    expect(plan.metrics.workingDistanceMeters).toBeGreaterThan(0);
    // The coverage metrics are those of the route's own geometry.
    expect(coverageDeviation(field, plan)).toBeLessThan(0.002);
  });
});
