/**
 * Corpus hash test: a fixed set of corpus fields and request variants is planned with a frozen
 * clock injected (the wall-clock cap, maxOptimizerTime, never fires on a loaded machine: planning
 * is bounded by its counted work budget alone, so it is deterministic), each plan's JSON is hashed (sha256) and compared with
 * the committed record `corpus-hash.record.json`. A refactor that is meant to leave plans alone
 * must keep every hash; a change that is meant to change plans regenerates the record in the
 * same commit and says why in its message.
 *
 * Regenerate the record (only when plans are meant to change):
 *
 *   FURROW_UPDATE_HASHES=1 npx vitest run test/corpus-hash.test.ts
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import type { FieldGeometry, PathPlanRequest, Position } from '@furrow/core';

const fieldsDir = new URL('./fields/', import.meta.url);
const recordFile = new URL('./corpus-hash.record.json', import.meta.url);
const updating = process.env.FURROW_UPDATE_HASHES === '1';

function loadField(name: string): FieldGeometry {
  const g = JSON.parse(readFileSync(new URL(`${name}.geojson`, fieldsDir), 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
  };
  return (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
}

/** A point of the field's first shell, one fifth of the way between two of its vertices (for a staging area). */
function nearShell(field: FieldGeometry): Position {
  const shell = field.type === 'Polygon' ? field.coordinates[0] : field.coordinates[0][0];
  const a = shell[0],
    b = shell[Math.floor(shell.length / 2)];
  return [a[0] + (b[0] - a[0]) / 5, a[1] + (b[1] - a[1]) / 5];
}

const machine = { widthMeters: 6, turnRadiusMeters: 6 };
/** The cases take about 15 s of CPU in all; a loaded machine may stretch one case's wall time a lot. */
const CASE_TIMEOUT_MILLISECONDS = 300_000;

/** Case name → request. Sizes from a few vertices to hundreds, holes, multipolygons, and the request's main branches. */
const CASES: Record<string, (field: FieldGeometry) => PathPlanRequest> = {
  'at-033 default': (field) => ({ field, machine }),
  'at-ref-056 default (hole)': (field) => ({ field, machine }),
  'bg-014 default (5 holes)': (field) => ({ field, machine }),
  'br-lem-069 default (multipolygon)': (field) => ({ field, machine }),
  'es-cat-099 default (3 holes)': (field) => ({ field, machine }),
  'be-wal-001 snake': (field) => ({ field, machine, routeOptions: { algorithm: 'snake' } }),
  'ch-047 snake (multipolygon)': (field) => ({ field, machine, routeOptions: { algorithm: 'snake' } }),
  'dk-091 boustrophedon headlands first': (field) => ({
    field,
    machine,
    routeOptions: { algorithm: 'boustrophedon', headlandsFirst: true },
  }),
  'ch-094 preferred heading 30': (field) => ({ field, machine, tracks: { preferredDirectionDegrees: 30 } }),
  'nz-023 preferred heading 90, shape B': (field) => ({
    boundary: field,
    equipment: machine,
    exteriorHeadlandPasses: 1,
    tracks: { preferredDirectionDegrees: 90 },
  }),
  'de-sh-057 reverse allowed': (field) => ({ field, machine: { ...machine, reverseAllowed: true } }),
  'jp-063 reverse allowed, snake': (field) => ({
    field,
    machine: { ...machine, reverseAllowed: true },
    routeOptions: { algorithm: 'snake' },
  }),
  'cz-013 W 12 (17 holes)': (field) => ({ field, machine: { widthMeters: 12, turnRadiusMeters: 8 } }),
  'isoxml-pfd2 W 12, options': (field) => ({
    field,
    machine: { widthMeters: 12, turnRadiusMeters: 6 },
    options: 'extendTracks,useCrossHatches',
  }),
  'nz-023 curved, turn-only square headlands': (field) => ({
    field,
    machine,
    tracks: { trackType: 'curved' },
    headland: { passes: 1, mode: 'turnOnly', corners: 'square' },
  }),
  'pt-017 refill from a staging area, fuel': (field) => ({
    field,
    machine: {
      ...machine,
      tankCapacity: 15,
      applicationRatePerHectare: 100,
      workingFuelLitersPerHour: 20,
      turningFuelLitersPerHour: 12,
    },
    routeOptions: { calculateRefillPoints: true, stagingArea: nearShell(field), objective: 'time' },
  }),
};

function hashOf(name: string): string {
  const fieldName = name.split(' ')[0];
  const plan = planRoute(CASES[name](loadField(fieldName)), { now: () => 0 });
  return createHash('sha256').update(JSON.stringify(plan)).digest('hex');
}

const record: Record<string, string> = updating
  ? {}
  : (JSON.parse(readFileSync(recordFile, 'utf8')) as Record<string, string>);
const made: Record<string, string> = {};

describe('corpus hash: plans are byte-identical to the committed record', () => {
  it('the record holds exactly the cases planned here', () => {
    if (updating) return;
    expect(Object.keys(record).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.keys(CASES))(
    '%s',
    (name) => {
      made[name] = hashOf(name);
      if (!updating)
        expect(
          made[name],
          `${name}: the plan changed (FURROW_UPDATE_HASHES=1 regenerates the record when that is meant)`,
        ).toBe(record[name]);
    },
    CASE_TIMEOUT_MILLISECONDS,
  );

  afterAll(() => {
    if (updating) writeFileSync(recordFile, `${JSON.stringify(made, Object.keys(CASES), 2)}\n`);
  });
});
