/**
 * Golden files: the plan writers' output for a small hand-built plan on corpus field at-033.
 * Rewritten only with FURROW_UPDATE_GOLDEN=1 (review the diff: it is the format change you made).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planToFeatureCollection } from '@furrow/format-geojson';
import { planToKml } from '@furrow/format-kml';
import { planToWkt } from '@furrow/format-wkt';
import { planToTaskData } from '@furrow/format-isoxml';
import { corpusField, handPlan } from './support/fixtures.js';

const DIR = fileURLToPath(new URL('./golden/', import.meta.url));
const update = process.env.FURROW_UPDATE_GOLDEN === '1';
const plan = { ...handPlan(corpusField('at-033').geometry, 8, 3), version: 'golden' };

const outputs: Record<string, () => string> = {
  'at-033.plan.geojson': () => JSON.stringify(planToFeatureCollection(plan), null, 1) + '\n',
  'at-033.plan.kml': () => planToKml(plan, { name: 'at-033' }) + '\n',
  'at-033.plan.wkt': () => planToWkt(plan) + '\n',
  'at-033.TASKDATA.XML': () =>
    planToTaskData(plan, { customer: 'Grower', farm: 'Farm', field: 'at-033' }).replace(
      /ManagementSoftwareVersion="[^"]*"/,
      'ManagementSoftwareVersion="golden"',
    ) + '\n',
};

describe('golden plan outputs', () => {
  for (const [name, make] of Object.entries(outputs)) {
    it(name, () => {
      const path = `${DIR}${name}`;
      const actual = make();
      if (update || !existsSync(path)) {
        if (!update && process.env.CI)
          throw new Error(`golden file ${name} is missing: run with FURROW_UPDATE_GOLDEN=1`);
        mkdirSync(DIR, { recursive: true });
        writeFileSync(path, actual);
      }
      expect(actual).toBe(readFileSync(path, 'utf8'));
    });
  }
});
