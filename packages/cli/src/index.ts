/**
 * The `furrow` command (README.md, `furrow --help`). `main` returns the process exit code:
 * 0 on success, 2 on bad input (message on stderr), 1 on other failures.
 *
 * Start-up is kept short: this module loads only commander and the version; each command
 * imports its module (and the planner, the formats or the server stack) when it runs.
 */
import { Command, CommanderError } from 'commander';
import { isInputError, UsageError } from './errors.js';
import { loadApi, loadWeb } from './optional.js';
import { VERSION_LINE } from './version.js';

import { PLAN_FORMAT_NAMES } from './formats.js';

export { PLAN_FORMAT_NAMES };

const PLAN_HELP_AFTER = `
Formats (-f); the zipped ones need -o FILE, -o DIR/ (the files as a folder, e.g. a USB stick) or -o -:
  json       the plan, as the body of POST /api/path-plans/direct (default)
  geojson    FeatureCollection: route, boundary, metrics
  kml        KML document
  wkt        WKT of the route
  shapefile  zipped Shapefile layers
  isoxml     zip of TASKDATA/TASKDATA.XML (ISO 11783-10) with a task and the route's patterns
  agopengps  zip of AgOpenGPS field folders <field>/Field.txt, Boundary.txt, TrackLines.txt, RecPath.txt, …
  trimble    zip of AgGPS/Data/<client>/<farm>/<field>/Boundary.shp and Swath.shp
  johndeere  zip of <client>/<farm>/<field>/boundary.shp and guidance_lines.shp
  cnh        CNH (Case IH AFS Pro, New Holland IntelliView): TASKDATA.XML byte-identical to isoxml's
  fendt      Fendt / AGCO (Varioterminal, FendtONE): TASKDATA.XML byte-identical to isoxml's
  mueller    Müller-Elektronik: Taskdata/TASKDATA.XML and SHP/ boundary and guidance shapefiles

"-" as <boundary-file> reads stdin (furrow plan - < field.kml); -o - writes to stdout.
A folder as <boundary-file> is read as AgOpenGPS field folders (Field.txt and Boundary.txt).
docs/formats.md names the public source of each layout.
`;

function program(): Command {
  const cmd = new Command('furrow')
    .description('Coverage route planning for farm machines')
    .version(VERSION_LINE, '-V, --version', 'print the furrow version and the API release it implements')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  cmd
    .command('plan')
    .description('plan one field and print the plan (JSON by default)')
    .argument(
      '<boundary-file>',
      'GeoJSON, WKT, KML/KMZ, zipped Shapefile, ISO-XML TASKDATA.XML or an AgOpenGPS field folder; - for stdin',
    )
    .option('--width <m>', 'working width in meters (default 6 when the request gives none)')
    .option('--headland-passes <n>', 'number of exterior headland passes')
    .option('--turn-radius <m>', 'minimum turning radius in meters')
    .option('--heading <deg>', 'preferred track bearing, degrees clockwise from north')
    .option('--request <file.json>', 'path-plan request body (shape A or B, may be partial)')
    .option('-f, --format <fmt>', PLAN_FORMAT_NAMES.join(' | '), 'json')
    .option('-o, --out <file>', 'write the plan here (a folder for zipped layouts; - for stdout) instead of stdout')
    .option('--svg <file>', 'also draw the plan as an SVG picture')
    .addHelpText('after', PLAN_HELP_AFTER)
    .action(async (file: string, opts: import('./commands/plan.js').PlanCommandOptions) => {
      const { runPlan } = await import('./commands/plan.js');
      cmd.setOptionValue('exitCode', await runPlan(file, opts));
    });

  cmd
    .command('fleet')
    .description('plan several machines in one field: the route shared out, timed, waits listed (docs/fleet.md)')
    .argument('<boundary-file>', 'GeoJSON, WKT, KML/KMZ, zipped Shapefile or ISO-XML TASKDATA.XML')
    .option('--machines <list>', 'id:width[:turnRadius],… e.g. a:6,b:6 or big:12,small:6')
    .option('--request <file.json>', 'fleet request body (may carry `fleet`, headland, tracks, options)')
    .option('--safety <m>', 'safety distance between machines (default: the largest width)')
    .option('--headland-passes <n>', 'number of exterior headland passes')
    .option('--heading <deg>', 'preferred track bearing, degrees clockwise from north')
    .option('-f, --format <fmt>', 'json | geojson | isoxml', 'json')
    .option('-o, --out <file>', 'write here instead of stdout (isoxml: a .zip holds TASKDATA/TASKDATA.XML)')
    .action(async (file: string, opts: import('./commands/fleet.js').FleetCommandOptions) => {
      const { runFleet } = await import('./commands/fleet.js');
      cmd.setOptionValue('exitCode', await runFleet(file, opts));
    });

  cmd
    .command('terrain')
    .description(
      'slope of a field from a DEM and the heading along the contour; --plan plans with it (docs/terrain.md)',
    )
    .argument('<boundary-file>', 'GeoJSON, WKT, KML, zipped Shapefile or ISO-XML TASKDATA.XML')
    .requiredOption('--dem <file>', 'GeoTIFF or JSON elevation grid')
    .option('--crs <crs>', 'CRS of a GeoTIFF without an EPSG code (EPSG:… or a proj4 definition)')
    .option('--objective <name>', 'contour | minimizeCrossSlope', 'contour')
    .option('--max-cross-slope <deg>', 'avoid headings whose side slope exceeds this')
    .option('--plan', 'plan the field with the recommended heading and report its slope statistics')
    .option('--contour-width <m>', 'also print curved tracks along the key contour, this far apart')
    .option('--inset <m>', 'keep the curved tracks this far from the boundary (e.g. the headland width)')
    .option('--width <m>', 'working width in meters (with --plan)')
    .option('--headland-passes <n>', 'number of exterior headland passes (with --plan)')
    .option('--turn-radius <m>', 'minimum turning radius in meters (with --plan)')
    .option('--request <file.json>', 'path-plan request body (with --plan)')
    .option('-o, --out <file>', 'write the JSON here instead of stdout')
    .action(async (file: string, opts: import('./commands/terrain.js').TerrainCommandOptions) => {
      const { runTerrain } = await import('./commands/terrain.js');
      cmd.setOptionValue('exitCode', await runTerrain(file, opts));
    });

  cmd
    .command('scenarios')
    .description('plan one field for several equipment sets; KPIs side by side and the best (docs/sequencing.md)')
    .argument('<boundary-file>', 'GeoJSON, WKT, KML, zipped Shapefile or ISO-XML TASKDATA.XML')
    .requiredOption(
      '--scenarios <file.json>',
      'list of { "name", "equipment": { … }, "headlandPasses"?, "routeOptions"? }',
    )
    .option('--objective <name>', 'time | distance | fuel (default time)')
    .option('--width <m>', 'base working width in meters')
    .option('--headland-passes <n>', 'base number of exterior headland passes')
    .option('--turn-radius <m>', 'base turning radius in meters')
    .option('--request <file.json>', 'base path-plan request body')
    .option('-o, --out <file>', 'write the JSON here instead of stdout')
    .action(async (file: string, opts: import('./commands/compare.js').ScenariosCommandOptions) => {
      const { runScenarios } = await import('./commands/compare.js');
      cmd.setOptionValue('exitCode', await runScenarios(file, opts));
    });

  cmd
    .command('traffic')
    .description(
      'plan several operations on one field on one set of lanes: tramlines, trafficked share (docs/traffic.md)',
    )
    .argument('<boundary-file>', 'GeoJSON, WKT, KML, zipped Shapefile or ISO-XML TASKDATA.XML')
    .requiredOption(
      '--system <file.json>',
      '{ "traffic": { "gaugeMeters", "tyreWidthMeters", … }, "operations": [ … ] }',
    )
    .option('-f, --format <fmt>', 'json | geojson | isoxml (TASKDATA.XML; zipped when -o ends in .zip)', 'json')
    .option('--no-independent', 'skip planning each operation alone for comparison')
    .option('-o, --out <file>', 'write here instead of stdout')
    .action(async (file: string, opts: import('./commands/traffic.js').TrafficCommandOptions) => {
      const { runTraffic } = await import('./commands/traffic.js');
      cmd.setOptionValue('exitCode', await runTraffic(file, opts));
    });

  cmd
    .command('sequence')
    .description('plan several fields and the order to work them from a staging area (docs/sequencing.md)')
    .argument('<boundary-files...>', 'one or more boundary files (every field in each)')
    .requiredOption('--depot <lon,lat>', 'staging area')
    .option('--end <lon,lat>', 'where the day ends (default the depot)')
    .option('--objective <name>', 'time | distance | fuel (default time)')
    .option('--speed <m/s>', 'road speed (default 4)')
    .option('--corners', 'also re-plan each field from its corner start nodes to choose entries and exits')
    .option('--width <m>', 'working width in meters')
    .option('--headland-passes <n>', 'number of exterior headland passes')
    .option('--turn-radius <m>', 'minimum turning radius in meters')
    .option('--request <file.json>', 'path-plan request body used for every field')
    .option('-o, --out <file>', 'write the JSON here instead of stdout')
    .action(async (files: string[], opts: import('./commands/compare.js').SequenceCommandOptions) => {
      const { runSequence } = await import('./commands/compare.js');
      cmd.setOptionValue('exitCode', await runSequence(files, opts));
    });

  cmd
    .command('push')
    .description(
      "send a plan's boundary and AB guidance line to John Deere Operations Center or Trimble Agriculture " +
        '(docs/portals.md)',
    )
    .argument('<portal>', 'deere | trimble')
    .argument('<plan-file>', 'plan JSON (furrow plan, POST /api/path-plans/direct)')
    .option('--company <id>', 'companyId whose portal configuration to use (FURROW_PORTALS / FURROW_PORTALS_FILE)')
    .option('--org <id>', "the portal's organization id")
    .option('--field <id>', "the portal's id of the (existing) field")
    .option(
      '--work-type <type>',
      'John Deere: also create a work plan (dtiTillage | dtiSeeding | dtiApplication | dtiHarvest)',
    )
    .option('--year <yyyy>', 'work plan year (default this year)')
    .option('--no-boundary', 'send the guidance line only')
    .option('--dry-run', 'print the requests instead of sending them')
    .action(async (portal: string, planFile: string, opts: import('./commands/push.js').PushCommandOptions) => {
      const { runPush } = await import('./commands/push.js');
      cmd.setOptionValue('exitCode', await runPush(portal, planFile, opts));
    });

  cmd
    .command('bench')
    .description('plan every field of a corpus folder; write the summary to docs/BENCHMARKS.md')
    .option(
      '--fields <dir|ids>',
      'corpus folder with index.csv and *.geojson (machines section: or field ids a,b of test/fields)',
      'test/fields',
    )
    .option('--out <file>', 'benchmarks document to update', 'docs/BENCHMARKS.md')
    .option('--width <m>', 'working width', '6')
    .option('--headland-passes <n>', 'headland passes', '2')
    .option('--turn-radius <m>', 'turning radius', '6')
    .option('--repeat <n>', 'runs per field (the median is reported)', '3')
    .option('--filter <text>', 'only fields whose id contains this')
    .option(
      '--algorithm <name>',
      'route order: snake (baseline, default) | boustrophedon | spiral | clusteredSpiral | optimized',
      'snake',
    )
    .option(
      '--section <name>',
      'all (default: corpus and route) | corpus | route | machines | scale | fleet | traffic: which sections to run',
      'all',
    )
    .option('--config <ids>', 'machines section: configurations w3-r12,w36-r12,w12-r9,w6-r6 (default all)')
    .option(
      '--checkplan <script>',
      'machines section: the independent GEOS check (python3 with shapely and pyproj) run on every plan',
    )
    .option('--jobs <n>', 'machines section: child processes planning at once (at most 2)', '2')
    .option('--results <file.jsonl>', 'machines section: append each result here (default: in the temp folder)')
    .option('--resume', 'machines section: keep the results already in the results file, plan only the rest')
    .option(
      '--at <commit>',
      "machines section: the code the plans were made with, for the page (default: this checkout's commit)",
    )
    .option('--summarise-only', 'machines section, with --resume: summarise the results file without planning the rest')
    .option(
      '--machines-as <name>',
      'machines section: the block of docs/benchmarks/machines.md to rewrite (current, before, …)',
      'current',
    )
    .option('--shard <i/n>', 'fleet section: measure every n-th field from i into the results file, page left alone')
    .option('--route-max-ha <ha>', 'route section: corpus fields up to this area (all = every field)', '30')
    .option('--route-limit <s>', 'route section: maxOptimizerTime in seconds', '10')
    .option('--no-write', 'print only; leave the document alone')
    .action(async (opts: import('./commands/bench.js').BenchOptions) => {
      const { runBench } = await import('./commands/bench.js');
      cmd.setOptionValue('exitCode', await runBench(opts));
    });

  cmd
    .command('bulk')
    .description(
      'plan every field of a folder, zip or FeatureCollection: locally on all cores, or as a job on a server ' +
        '(docs/jobs.md)',
    )
    .argument('<input>', 'folder of boundary files, a zip, or a file with many fields (e.g. a FeatureCollection)')
    .option('-o, --out <dir>', 'write each plan (<field>.json) and summary.json here')
    .option('--api <url>', "plan through this server's guidance-job API instead of locally")
    .option('--key <key>', 'API key for --api (default FURROW_API_KEY)')
    .option('--company <id>', 'companyId the job belongs to (with --api)')
    .option('--poll-seconds <s>', 'status poll interval with --api', '5')
    .option('--threads <n>', 'local planning threads (default: all cores)')
    .option('--width <m>', 'working width in meters (default 6 when the request gives none)')
    .option('--headland-passes <n>', 'number of exterior headland passes')
    .option('--turn-radius <m>', 'minimum turning radius in meters')
    .option('--heading <deg>', 'preferred track bearing, degrees clockwise from north')
    .option('--request <file.json>', 'path-plan request body used for every field')
    .action(async (input: string, opts: import('./commands/bulk.js').BulkOptions) => {
      const { runBulk } = await import('./commands/bulk.js');
      cmd.setOptionValue('exitCode', await runBulk(input, opts));
    });

  cmd
    .command('worker')
    .description('plan guidance-job items from the PostgreSQL queue of DATABASE_URL (run on any number of machines)')
    .option('--threads <n>', 'items planned at once (default FURROW_WORKER_THREADS or all cores)')
    .action(async (opts: { threads?: string }) => {
      const { runWorker } = await import('./commands/worker.js');
      cmd.setOptionValue('exitCode', await runWorker(opts));
    });

  cmd
    .command('serve')
    .description('serve the API and the web app (PORT, HOST, DATABASE_URL, APP_URL, FURROW_BOOTSTRAP_API_KEY)')
    .action(async () => {
      // The API (store, server) loads only for the commands that need it: `plan` stays fast.
      const { serveCommand } = await loadApi('serve');
      const { mountWebApp } = await loadWeb('serve');
      cmd.setOptionValue('exitCode', await serveCommand(process.env, { web: mountWebApp }));
    });

  const keys = cmd.command('keys').description('manage API keys in the store named by DATABASE_URL');
  keys
    .command('create')
    .description('create an API key (printed once; stored hashed)')
    .option('--partner-admin', 'the key may call /api/partner/*')
    .option('--name <name>', 'a label for the key')
    .action(async (opts: { partnerAdmin?: boolean; name?: string }) => {
      const { createKeyCommand } = await loadApi('keys create');
      const made = await createKeyCommand({ partnerAdmin: opts.partnerAdmin === true, name: opts.name }, process.env);
      process.stdout.write(`${made.apiKey}\n`);
      process.stderr.write(
        `key ${made.keyId} for user ${made.userId}${made.partnerAdmin ? ' (partner admin)' : ''}: shown only now, ` +
          `store it safely\n`,
      );
    });

  const users = cmd.command('users').description('sign people in without a partner (store named by DATABASE_URL)');
  users
    .command('invite')
    .description(
      'create a user and an organisation it administers, and print a one-time sign-in link to the web app at APP_URL',
    )
    .requiredOption('--name <name>', "the person's e-mail or name")
    .requiredOption('--company <company>', 'the organisation (farm business) to create')
    .option('--credits <n>', 'planning credits of the organisation (default FURROW_INITIAL_CREDITS or 1000)')
    .option('--valid-hours <h>', 'how long the link works, hours (default 24)')
    .action(async (opts: { name: string; company: string; credits?: string; validHours?: string }) => {
      const { inviteUserCommand } = await loadApi('users invite');
      const number = (v: string | undefined, flag: string): number | undefined => {
        if (v === undefined) return undefined;
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a number of at least 0, not "${v}"`);
        return n;
      };
      const credits = number(opts.credits, '--credits');
      const hours = number(opts.validHours, '--valid-hours');
      const made = await inviteUserCommand(
        {
          name: opts.name,
          company: opts.company,
          ...(credits !== undefined ? { credits: Math.round(credits) } : {}),
          ...(hours !== undefined ? { lifetimeSeconds: Math.round(hours * 3600) } : {}),
        },
        process.env,
      );
      process.stdout.write(`${made.signInUrl}\n`);
      process.stderr.write(
        `user ${made.userId}, organisation ${made.companyId}: the link signs in once, ` +
          `within ${Math.round(made.expiresInSec / 3600)} h; shown only now\n`,
      );
    });

  return cmd;
}

export async function main(argv: string[]): Promise<number> {
  const cmd = program();
  try {
    await cmd.parseAsync(argv, { from: 'user' });
    return (cmd.getOptionValue('exitCode') as number | undefined) ?? 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : 2;
    }
    if (isInputError(err)) {
      process.stderr.write(`furrow: ${(err as Error).message}\n`);
      return 2;
    }
    if (err instanceof Error && err.name === 'MissingPackageError') {
      process.stderr.write(`furrow: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

export { UsageError };
export { planToSvg } from './svg.js';
export { buildRequest } from './commands/request.js';
