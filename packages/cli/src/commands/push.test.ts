import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEERE_CLIENT, DeereStandIn } from '../../../../test/portals/deere-standin.js';
import { main } from '../index.js';

const deere = new DeereStandIn();
let dir: string;
let planFile: string;

beforeAll(async () => {
  await deere.start();
  dir = mkdtempSync(join(tmpdir(), 'furrow-push-'));
  const ring = [
    [8.54, 47.37],
    [8.544, 47.37],
    [8.544, 47.374],
    [8.54, 47.374],
    [8.54, 47.37],
  ];
  planFile = join(dir, 'plan.json');
  writeFileSync(
    planFile,
    JSON.stringify({
      version: 't',
      metrics: {},
      heading: { degrees: 90, source: 'search' },
      warnings: [],
      boundary: { type: 'Polygon', coordinates: [ring] },
      route: [
        {
          sequence: 0,
          type: 'Track',
          coordinates: [
            [8.5405, 47.3705],
            [8.5435, 47.3705],
          ],
          lengthMeters: 226,
        },
      ],
    }),
  );
  process.env.FURROW_PORTALS = JSON.stringify({
    c1: {
      deere: {
        baseUrl: deere.baseUrl,
        oauth: {
          tokenUrl: deere.tokenUrl,
          clientId: DEERE_CLIENT.id,
          clientSecret: DEERE_CLIENT.secret,
          grant: { type: 'client_credentials' },
        },
        retry: { maxRetries: 0 },
      },
    },
  });
});
afterAll(async () => {
  delete process.env.FURROW_PORTALS;
  rmSync(dir, { recursive: true, force: true });
  await deere.stop();
});

describe('furrow push', () => {
  it('pushes boundary, AB line and a work plan to the (stand-in) Operations Center', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(
        await main([
          'push',
          'deere',
          planFile,
          '--company',
          'c1',
          '--org',
          '4321',
          '--field',
          'field-a',
          '--work-type',
          'dtiSeeding',
          '--year',
          '2026',
        ]),
      ).toBe(0);
      const printed = JSON.parse(String(out.mock.calls.at(-1)?.[0]));
      expect(printed.pushed.map((p: { kind: string; status: number }) => `${p.kind}:${p.status}`)).toEqual([
        'boundary:201',
        'guidanceLine:201',
        'workPlan:201',
      ]);
    } finally {
      out.mockRestore();
    }
    expect(deere.dataRequests().map((r) => r.status)).toEqual([201, 201, 201]);
  });

  it('--dry-run prints the requests and sends nothing', async () => {
    const before = deere.requests.length;
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(
        await main(['push', 'trimble', planFile, '--org', 'o', '--field', 'f', '--dry-run', '--no-boundary']),
      ).toBe(0);
      const printed = JSON.parse(String(out.mock.calls.at(-1)?.[0]));
      expect(printed.requests).toHaveLength(1);
      expect(printed.requests[0].url).toBe(
        'https://cloud.api.trimble.com/Trimble-Ag-Software/externalApi/3.0/resources/o/guidancelines',
      );
    } finally {
      out.mockRestore();
    }
    expect(deere.requests.length).toBe(before);
  });

  it('exit codes: 2 for bad input or missing configuration, 1 when the portal refuses', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main(['push', 'agco', planFile, '--company', 'c1', '--org', '1', '--field', 'f'])).toBe(2);
      expect(await main(['push', 'deere', planFile, '--company', 'c1', '--field', 'f'])).toBe(2);
      // no Trimble configuration
      expect(await main(['push', 'trimble', planFile, '--company', 'c1', '--org', '1', '--field', 'f'])).toBe(2);
      expect(
        await main(['push', 'deere', join(dir, 'missing.json'), '--company', 'c1', '--org', '1', '--field', 'f']),
      ).toBe(2);
      expect(await main(['push', 'deere', planFile, '--company', 'c1', '--org', '4321', '--field', 'unknown'])).toBe(1);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/404/);
    } finally {
      err.mockRestore();
    }
  });
});
