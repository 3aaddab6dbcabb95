/**
 * `furrow push deere|trimble <plan.json> --company ID --org ID --field ID`: sends a plan's
 * boundary and AB guidance line (and for John Deere optionally a work plan) to a manufacturer
 * portal with the company's configuration from FURROW_PORTALS / FURROW_PORTALS_FILE
 * (docs/portals.md). `--dry-run` prints the requests instead.
 */
import { readFile } from 'node:fs/promises';
import type { Plan } from '@furrow/core';
import { UsageError } from '../errors.js';
import { loadApi } from '../optional.js';

export interface PushCommandOptions {
  company?: string;
  org?: string;
  field?: string;
  workType?: string;
  year?: string;
  boundary?: boolean;
  dryRun?: boolean;
}

const WORK_TYPES = ['dtiTillage', 'dtiSeeding', 'dtiApplication', 'dtiHarvest'] as const;

export async function runPush(portal: string, planFile: string, flags: PushCommandOptions): Promise<number> {
  if (portal !== 'deere' && portal !== 'trimble')
    throw new UsageError(`portal must be deere or trimble, got "${portal}"`);
  for (const k of ['org', 'field'] as const) if (!flags[k]) throw new UsageError(`--${k} is required`);
  if (!flags.dryRun && !flags.company)
    throw new UsageError('--company is required (the companyId whose portal configuration to use)');
  let workPlan: { workType: (typeof WORK_TYPES)[number]; year: number } | undefined;
  if (flags.workType !== undefined) {
    if (portal !== 'deere') throw new UsageError('--work-type is for John Deere only');
    if (!WORK_TYPES.includes(flags.workType as never))
      throw new UsageError(`--work-type must be one of ${WORK_TYPES.join(', ')}`);
    const year = flags.year === undefined ? new Date().getUTCFullYear() : Number(flags.year);
    if (!Number.isInteger(year)) throw new UsageError(`--year must be a year, got "${flags.year}"`);
    workPlan = { workType: flags.workType as (typeof WORK_TYPES)[number], year };
  }
  let plan: Plan;
  try {
    plan = JSON.parse(await readFile(planFile, 'utf8')) as Plan;
  } catch (err) {
    throw new UsageError(`cannot read the plan ${planFile}: ${(err as Error).message}`);
  }
  if (!plan || !Array.isArray(plan.route) || typeof plan.boundary !== 'object') {
    throw new UsageError(`${planFile} is not a plan (JSON of "furrow plan" or POST /api/path-plans/direct)`);
  }
  // The API package (and its portal adapters) loads only for this command.
  const api = await loadApi('push');
  const target = { organizationId: flags.org as string, fieldId: flags.field as string };
  const opts = { ...(flags.boundary === false ? { boundary: false } : {}) };
  try {
    if (flags.dryRun) {
      const registry = api.portalRegistryFromEnv(process.env);
      const config = flags.company ? registry.configOf(flags.company, portal) : undefined;
      const baseUrl = config?.baseUrl;
      const previewOpts = { ...opts, guidanceCurves: config?.guidanceCurves };
      const requests =
        portal === 'deere'
          ? api.previewDeerePush(plan, target, { ...previewOpts, ...(workPlan ? { workPlan } : {}) }, baseUrl)
          : api.previewTrimblePush(plan, target, previewOpts, baseUrl);
      process.stdout.write(`${JSON.stringify({ portal, dryRun: true, requests }, null, 2)}\n`);
      return 0;
    }
    const registry = api.portalRegistryFromEnv(process.env);
    const pushed =
      portal === 'deere'
        ? await registry
            .deereFor(flags.company as string)
            .pushPlan(plan, target, { ...opts, ...(workPlan ? { workPlan } : {}) })
        : await registry.trimbleFor(flags.company as string).pushPlan(plan, target, opts);
    process.stdout.write(`${JSON.stringify({ portal, pushed }, null, 2)}\n`);
    return 0;
  } catch (err) {
    if (api.isPortalError(err)) {
      process.stderr.write(`furrow: ${err.message}\n`);
      // Configuration and unusable plans are the caller's input; the rest is the portal's side.
      return err.code === 'portal-config' || err.code === 'portal-bad-plan' ? 2 : 1;
    }
    throw err;
  }
}
