/**
 * furrow used as an npm consumer would: import the package by name, plan a real field
 * from the corpus and print its metrics.
 *
 *   npx tsx examples/plan-a-field.ts [field.geojson]
 */
import { readFileSync } from 'node:fs';
import { checkPlan, planRoute, type PathPlanRequest } from '@furrow/core';

const file = process.argv[2] ?? new URL('../test/fields/be-wal-000.geojson', import.meta.url).pathname;
const feature = JSON.parse(readFileSync(file, 'utf8'));

const request: PathPlanRequest = {
  field: feature.geometry,
  machine: { widthMeters: 6, turnRadiusMeters: 6 },
  headland: { passes: 2 },
};

const plan = planRoute(request);
const check = checkPlan(request, plan);

const m = plan.metrics;
console.log(`field        ${(m.fieldAreaSquareMeters / 10_000).toFixed(2)} ha`);
console.log(`heading      ${plan.heading.degrees.toFixed(1)}° (${plan.heading.source})`);
console.log(`route        ${m.distanceMeters.toFixed(0)} m (${m.workingDistanceMeters.toFixed(0)} m working)`);
console.log(`time         ${(m.timeSeconds / 60).toFixed(1)} min`);
console.log(`turns        ${m.turns}`);
console.log(`uncovered    ${(m.uncoveredRatio * 100).toFixed(2)} %`);
console.log(`overlap      ${(m.overlapRatio * 100).toFixed(2)} %`);
console.log(`checkPlan    ${check.ok ? 'ok' : `${check.violations.length} violations`}`);
process.exitCode = check.ok ? 0 : 1;
