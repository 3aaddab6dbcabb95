/**
 * Portal ids are one path segment: ".", "..", "/", "?", "#" are refused (400 at the API, a
 * configuration error in the clients) instead of building a URL that points elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@furrow/api';
import { PortalError, previewDeerePush, previewTrimblePush } from '../../packages/api/src/portals/index.js';
import { jsonInit, makeApp, shapeA, type TestApp } from '../api/support.js';

const BAD_IDS = ['.', '..', 'a/b', 'a?b', 'a#b', '../x', 'a\\b', '%2e%2e'];

let store: Store;
let A: TestApp;
let companyId: string;
let plan: unknown;

beforeAll(async () => {
  store = await openStore('memory:');
  A = await makeApp(store);
  const company = await A.app.request(
    '/api/partner/companies',
    jsonInit('POST', A.adminKey, { partnerCompanyId: 'ids-co', name: 'Ids', countryCode: 'DE' }),
  );
  companyId = ((await company.json()) as { companyId: string }).companyId;
  plan = await (await A.app.request('/api/path-plans/direct', jsonInit('POST', A.adminKey, shapeA()))).json();
});
afterAll(async () => {
  await store?.close();
});

describe('portal ids', () => {
  it.each(['deere', 'trimble'])('%s push: a bad organizationId or fieldId is 400 naming it', async (portal) => {
    for (const bad of BAD_IDS) {
      for (const key of ['organizationId', 'fieldId'] as const) {
        const body = { organizationId: 'org-1', fieldId: 'field-1', plan, dryRun: true, [key]: bad };
        const res = await A.app.request(
          `/api/companies/${companyId}/portals/${portal}/push`,
          jsonInit('POST', A.adminKey, body),
        );
        expect(res.status, `${key} = ${JSON.stringify(bad)}`).toBe(400);
        expect(((await res.json()) as any).error.details[0].path).toBe(key);
      }
    }
    const ok = await A.app.request(
      `/api/companies/${companyId}/portals/${portal}/push`,
      jsonInit('POST', A.adminKey, { organizationId: 'org.1', fieldId: 'f_1-2', plan, dryRun: true }),
    );
    expect(ok.status).toBe(200);
  });

  it('the clients refuse them too, and encode what they accept', () => {
    const p = plan as never;
    for (const bad of BAD_IDS) {
      expect(() => previewDeerePush(p, { organizationId: bad, fieldId: 'f' })).toThrow(PortalError);
      expect(() => previewTrimblePush(p, { organizationId: 'o', fieldId: bad })).toThrow(PortalError);
    }
    const urls = previewDeerePush(p, { organizationId: 'o:1', fieldId: 'f@2' }).map((r) => r.url);
    expect(urls[0]).toBe('https://sandboxapi.deere.com/platform/organizations/o%3A1/fields/f%402/boundaries');
  });
});
