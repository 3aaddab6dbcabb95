/**
 * The ISO-XML task (issue 43): TASKDATA.XML of 10 planned corpus fields validates against the
 * ISO 11783-10 v4.3 XSD; the isoxml library reads a planned TSK on the partfield, allocating the
 * route's guidance group, whose patterns are the working passes in the order the route drives them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ISOXMLManager } from 'isoxml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import type { Plan } from '@furrow/core';
import { planToTaskData } from '@furrow/format-isoxml';
import { writePlan } from '@furrow/format-vendor';
import { describeWith } from '../support/requires.js';
import { corpusField } from './support/fixtures.js';

const run = promisify(execFile);
const XSD = fileURLToPath(new URL('../../packages/format-isoxml/xsd/ISO11783_TaskFile_V4-3.xsd', import.meta.url));
const DATE = new Date(Date.UTC(2026, 2, 14, 6, 30, 0));
/** Ten small corpus fields: one with a hole (dk-091), one MultiPolygon (ch-047), at-033 in headland passes only. */
const IDS = [
  'at-033',
  'at-ref-057',
  'be-vlg-038',
  'bg-079',
  'ch-021',
  'ch-047',
  'dk-091',
  'fr-086',
  'ie-010',
  'kh-042',
];

const plans = new Map<string, Plan>();
const docs = new Map<string, string>();
const zips = new Map<string, Uint8Array>();

beforeAll(async () => {
  for (const id of IDS) {
    const plan = planRoute({ field: corpusField(id).geometry, machine: { widthMeters: 6 } });
    plans.set(id, plan);
    const out = await writePlan(plan, 'isoxml', { customer: 'Grower', farm: 'Farm', field: id, date: DATE });
    docs.set(id, String(out.files!['TASKDATA/TASKDATA.XML']));
    zips.set(id, out.bytes);
  }
}, 240_000);

describeWith(['xmllint'], 'TASKDATA.XML with its task validates against the v4.3 XSD', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'furrow-isoxml-task-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('10 corpus plans, with and without the guidance allocation', async () => {
    const paths: string[] = [];
    for (const [id, xml] of docs) {
      for (const [kind, text] of [
        ['dated', xml],
        ['undated', planToTaskData(plans.get(id)!, { field: id })],
      ]) {
        mkdirSync(join(dir, `${id}-${kind}`));
        const path = join(dir, `${id}-${kind}`, 'TASKDATA.XML');
        writeFileSync(path, text);
        paths.push(path);
      }
    }
    expect(paths).toHaveLength(20);
    const result = await run('xmllint', ['--noout', '--schema', XSD, ...paths], { maxBuffer: 64 * 1024 * 1024 }).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(result.stderr.split('\n').filter((l) => l.trim() !== '' && !l.endsWith(' validates'))).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('a task with a status out of the enumeration is refused (the check can fail)', async () => {
    const path = join(dir, 'broken.xml');
    writeFileSync(path, docs.get('at-033')!.replace('E="PFD1" G="1"', 'E="PFD1" G="9"'));
    await expect(run('xmllint', ['--noout', '--schema', XSD, path])).rejects.toThrow();
  });
});

describe('the isoxml library reads the task', () => {
  it.each(IDS)('%s: TSK on the partfield, its guidance group the working passes in route order', async (id) => {
    const manager = new ISOXMLManager();
    // the zip writePlan gives: TASKDATA/TASKDATA.XML, as a terminal reads it
    await manager.parseISOXMLFile(zips.get(id)!, 'application/zip');
    expect(manager.getWarnings()).toEqual([]);
    const root = manager.rootElement.attributes;
    const [pfd] = root.Partfield ?? [];
    const tasks = root.Task ?? [];
    expect(tasks).toHaveLength(1);
    const task = tasks[0].attributes;
    expect(Number(task.TaskStatus)).toBe(1);
    expect(task.PartfieldIdRef?.entity).toBe(pfd);
    expect(task.CustomerIdRef?.entity).toBe(root.Customer?.[0]);
    expect(task.FarmIdRef?.entity).toBe(root.Farm?.[0]);
    const [allocation] = task.GuidanceAllocation ?? [];
    const group = allocation.attributes.GuidanceGroupIdRef.entity as (typeof pfd.attributes.GuidanceGroup)[number];
    expect(pfd.attributes.GuidanceGroup).toContain(group);
    expect(allocation.attributes.AllocationStamp?.[0].attributes.Start).toEqual(DATE);

    // the group's patterns: every working pass, in the order the route drives them
    const plan = plans.get(id)!;
    const passes = [...plan.route]
      .sort((a, b) => a.sequence - b.sequence)
      .filter((s) => ['Track', 'ExteriorHeadland', 'InteriorHeadland'].includes(s.type));
    const patterns = group.attributes.GuidancePattern ?? [];
    expect(patterns).toHaveLength(passes.length);
    patterns.forEach((p, i) => {
      const points = p.attributes.LineString![0].attributes.Point!;
      const a = points[0].attributes;
      const b = points[points.length - 1].attributes;
      const first = passes[i].coordinates[0];
      const last = passes[i].coordinates[passes[i].coordinates.length - 1];
      expect(Math.abs(a.PointNorth - first[1]) + Math.abs(a.PointEast - first[0])).toBeLessThan(2e-9);
      expect(Math.abs(b.PointNorth - last[1]) + Math.abs(b.PointEast - last[0])).toBeLessThan(2e-9);
      const isHeadland = passes[i].type !== 'Track';
      expect(p.attributes.GuidancePatternDesignator?.startsWith(isHeadland ? 'Headland' : 'Track')).toBe(true);
      if (isHeadland) expect(Number(p.attributes.GuidancePatternType)).toBe(3);
    });
    expect(passes.some((s) => s.type === 'ExteriorHeadland')).toBe(true);
  });
});
