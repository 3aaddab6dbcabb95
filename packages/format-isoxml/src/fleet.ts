/**
 * A fleet plan (core's `planFleet`) as one TASKDATA.XML: one partfield (boundary, holes as obstacles), one
 * guidance group per machine with its working passes in its driving order (the patterns `planToTaskData` writes for
 * tracks: AB lines, and curves for the headland passes), and
 * one task (TSK, status planned) per machine, named after it, allocated its guidance group (GAN).
 */
import type { FleetPlan, Plan } from '@furrow/core';
import type { TaskDataNames } from './write.js';
import { planToTaskData } from './write.js';

const escapeXml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
const designator = (s: string): string => (s.length > 32 ? Array.from(s).slice(0, 32).join('') : s);

/** The group of track patterns `planToTaskData` writes for a plan, its ids moved on by the ones used before. */
function machineGroup(plan: Plan, names: TaskDataNames, group: number, firstPattern: number, machineId: string) {
  // Headland passes too: written as the curve patterns of tracks.
  const route = plan.route.map((s) =>
    s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland' ? { ...s, type: 'Track' as const } : s,
  );
  const xml = planToTaskData({ ...plan, route, guidanceLines: undefined }, names);
  const found = /( *)<GGP A="GGP1" B="furrow route">[\s\S]*?<\/GGP>\n/.exec(xml);
  if (!found) return { xml: '', patterns: 0 };
  let patterns = 0;
  const body = found[0]
    .replace('A="GGP1" B="furrow route"', `A="GGP${group}" B="${escapeXml(designator(`furrow ${machineId}`))}"`)
    .replace(/A="GPN(\d+)"/g, (_, n: string) => {
      patterns++;
      return `A="GPN${firstPattern + Number(n) - 1}"`;
    });
  return { xml: body, patterns };
}

export function fleetToTaskData(fleet: FleetPlan, names: TaskDataNames = {}): string {
  const empty: Plan = {
    version: fleet.version,
    metrics: fleet.machines[0]?.metrics ?? ({} as Plan['metrics']),
    heading: fleet.heading,
    route: [],
    boundary: fleet.boundary,
    warnings: [],
  };
  // the single plan's task (planToTaskData) gives way to one task per machine
  const base = planToTaskData(empty, names)
    .replace(/ *<TSK [^>]*\/>\n/g, '')
    .replace(/ *<TSK [^>]*>[\s\S]*?<\/TSK>\n/g, '');
  const groups: string[] = [];
  const tasks: string[] = [];
  let nextPattern = 1;
  fleet.machines.forEach((m, i) => {
    const g = machineGroup(m, names, i + 1, nextPattern, m.machineId);
    nextPattern += g.patterns;
    if (g.xml) groups.push(g.xml);
    const allocation = g.xml ? `\n    <GAN A="GGP${i + 1}"/>\n  ` : '';
    const attrs = `A="TSK${i + 1}" B="${escapeXml(designator(m.machineId))}" C="CTR1" D="FRM1" E="PFD1" G="1"`;
    tasks.push(allocation ? `  <TSK ${attrs}>${allocation}</TSK>\n` : `  <TSK ${attrs}/>\n`);
  });
  const at = base.lastIndexOf('  </PFD>\n');
  return base.slice(0, at) + groups.join('') + '  </PFD>\n' + tasks.join('') + base.slice(at + '  </PFD>\n'.length);
}
