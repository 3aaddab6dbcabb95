/**
 * `furrow traffic <boundary-file> --system <file.json>`: a controlled-traffic system on one field
 * (docs/traffic.md). The system file holds `traffic` and `operations` (and optionally `headland`,
 * `options`), as the body of POST /api/path-plans/traffic without the field. Output: the result
 * JSON, its GeoJSON (lanes, tramline passes, routes) or TASKDATA.XML (zipped with -o FILE.zip).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { planTrafficSystem, type TrafficSystemRequest } from '@furrow/core';
import { trafficFeatureCollection } from '@furrow/format-geojson';
import { trafficToTaskData, zipTaskData } from '@furrow/format-isoxml';
import { readBoundaryFile } from '../io/boundary.js';
import { UsageError } from '../errors.js';

export interface TrafficCommandOptions {
  system?: string;
  format?: string;
  out?: string;
  independent?: boolean;
}

const FORMATS = ['json', 'geojson', 'isoxml'];

export async function runTraffic(file: string, flags: TrafficCommandOptions): Promise<number> {
  if (!flags.system)
    throw new UsageError('--system <file.json> is required: { "traffic": { … }, "operations": [ … ] }');
  const format = flags.format ?? 'json';
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got ${format})`);
  let system: unknown;
  try {
    system = JSON.parse(await readFile(flags.system, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read --system ${flags.system}: ${(err as Error).message}`);
  }
  if (system === null || typeof system !== 'object' || Array.isArray(system))
    throw new UsageError(`--system ${flags.system} must hold a JSON object`);
  const [first] = await readBoundaryFile(file);
  if (!first) throw new UsageError(`${file}: no field boundary found`);
  const request = {
    ...(system as Partial<TrafficSystemRequest>),
    field: first.geometry,
    ...((first.obstacles ?? []).length > 0 ? { obstacles: first.obstacles!.map((geometry) => ({ geometry })) } : {}),
  } as TrafficSystemRequest;
  if (flags.independent === false) request.traffic = { ...request.traffic, compareIndependent: false };
  const result = planTrafficSystem(request);
  let out: string | Uint8Array;
  if (format === 'geojson') out = `${JSON.stringify(trafficFeatureCollection(result))}\n`;
  else if (format === 'isoxml') {
    const xml = trafficToTaskData(result);
    out = flags.out?.toLowerCase().endsWith('.zip') ? await zipTaskData(xml) : xml;
  } else out = `${JSON.stringify(result)}\n`;
  if (flags.out && flags.out !== '-') await writeFile(flags.out, out);
  else process.stdout.write(out);
  const s = result.system.traffickedShare;
  const alone = result.independent?.shares.traffickedShare;
  process.stderr.write(
    `trafficked ${(100 * s).toFixed(1)} % of the field` +
      (alone !== undefined ? ` (operations planned alone: ${(100 * alone).toFixed(1)} %)` : '') +
      '\n',
  );
  return 0;
}
