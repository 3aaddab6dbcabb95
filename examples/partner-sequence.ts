/**
 * The spec's typical partner sequence (docs/api.md "Full platform"), end to end against a furrow server:
 * verify the key; create user, company, company access; grower, farm, field with boundary; a launch
 * code for the end user; and the exchange the web app's launch page makes. Prints each id.
 *
 *   FURROW_URL=http://127.0.0.1:8787 FURROW_API_KEY=<partner admin key> npx tsx examples/partner-sequence.ts
 *
 * Without FURROW_URL it starts a fresh server itself (in-memory store, a bootstrap partner-admin key).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export interface SequenceIds {
  userId: string;
  companyId: string;
  growerId: string;
  farmId: string;
  fieldId: string;
  boundaryId: string;
  code: string;
  launchUrl: string;
  sessionUserId: string;
}

export async function runPartnerSequence(
  baseUrl: string,
  apiKey: string,
  log: (line: string) => void = console.log,
): Promise<SequenceIds> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each answer's shape is read where it is used
  async function call(method: string, path: string, body?: unknown, withKey = true): Promise<any> {
    const headers: Record<string, string> = {};
    if (withKey) headers['X-API-KEY'] = apiKey;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${JSON.stringify(json)}`);
    return json;
  }

  const me = await call('GET', '/api/user/current');
  log(`key ok: user ${me.user.userId} (partner admin: ${me.key.partnerAdmin})`);

  // The partner's own ids (GUIDs in its system); repeating the calls would find the same records.
  const partnerUserId = randomUUID();
  const partnerCompanyId = randomUUID();
  const user = await call('POST', '/api/partner/users', {
    partnerUserId,
    email: 'jane.doe@example.org',
    firstName: 'Jane',
    lastName: 'Doe',
    countryCode: 'US',
  });
  log(`userId ${user.userId}`);
  const company = await call('POST', '/api/partner/companies', {
    partnerCompanyId,
    name: 'Doe Family Farms',
    countryCode: 'US',
  });
  log(`companyId ${company.companyId}`);
  await call('POST', '/api/partner/company-accesses', { partnerUserId, partnerCompanyId });
  log(`access granted: ${partnerUserId} → ${partnerCompanyId}`);

  const grower = await call('POST', `/api/companies/${company.companyId}/growers`, {
    name: 'Jane Doe',
    source: 'api',
    archived: false,
  });
  log(`growerId ${grower.growerId}`);
  const farm = await call('POST', `/api/growers/${grower.growerId}/farms`, {
    name: 'Home Farm',
    source: 'api',
    archived: false,
  });
  log(`farmId ${farm.farmId}`);
  const ring = [
    [-93.6412, 42.0285],
    [-93.6352, 42.0285],
    [-93.6352, 42.0325],
    [-93.6412, 42.0325],
    [-93.6412, 42.0285],
  ];
  const field = await call('POST', '/api/fields/save', { farmId: farm.farmId, name: 'North 40', boundary: [ring] });
  log(`fieldId ${field.field.fieldId}`);
  log(`boundaryId ${field.vBoundary.boundaryId}`);

  const launch = await call('POST', '/api/partner/launch', {
    userId: partnerUserId,
    returnUrl: `/path-planning/boundary/${field.vBoundary.boundaryId}?embedded=true&chrome=false`,
  });
  log(`launch code ${launch.code} for userId ${launch.userId}, expires in ${launch.expiresInSec} s`);
  log(`launchUrl ${launch.launchUrl}`);

  // What the web app's launch page does with the code (no API key: the code is the credential).
  const session = await call(
    'POST',
    '/api/partner/launch/exchange',
    { code: launch.code, userId: launch.userId },
    false,
  );
  const whoami = await fetch(`${baseUrl}/api/user/current`, {
    headers: { Authorization: `Bearer ${session.token}` },
  }).then((r) => r.json());
  log(`session for userId ${whoami.user.userId} (${whoami.user.name})`);

  return {
    userId: user.userId,
    companyId: company.companyId,
    growerId: grower.growerId,
    farmId: farm.farmId,
    fieldId: field.field.fieldId,
    boundaryId: field.vBoundary.boundaryId,
    code: launch.code,
    launchUrl: launch.launchUrl,
    sessionUserId: whoami.user.userId,
  };
}

async function main(): Promise<void> {
  let baseUrl = process.env.FURROW_URL;
  let apiKey = process.env.FURROW_API_KEY;
  let close: (() => Promise<void>) | undefined;
  if (!baseUrl) {
    const { serve } = await import('@furrow/api');
    apiKey = `example-${randomUUID()}`;
    const server = await serve({
      PORT: '0',
      DATABASE_URL: 'memory:',
      FURROW_BOOTSTRAP_API_KEY: apiKey,
      FURROW_LOG_LEVEL: 'silent',
      FURROW_PLAN_THREADS: '0',
    });
    baseUrl = server.url;
    close = server.close;
    console.log(`started a fresh furrow server on ${baseUrl}`);
  }
  if (!apiKey) throw new Error('set FURROW_API_KEY to a partner admin key');
  try {
    await runPartnerSequence(baseUrl.replace(/\/$/, ''), apiKey);
  } finally {
    await close?.();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
