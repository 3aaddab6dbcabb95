/**
 * Portal configuration per company: which portals a company pushes to, with its own OAuth
 * client and tokens and, if needed, its own base URLs. Read from JSON (a file or the
 * FURROW_PORTALS environment variable) or given in code.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DeereClient, type DeereClientDeps, type DeereConfig } from './deere.js';
import { PortalError, type PortalName } from './errors.js';
import { TrimbleClient, type TrimbleClientDeps, type TrimbleConfig } from './trimble.js';

export interface CompanyPortals {
  deere?: DeereConfig;
  trimble?: TrimbleConfig;
}

/** companyId → its portal configuration. */
export type PortalsConfig = Record<string, CompanyPortals>;

/** Parses and checks a JSON portals configuration; throws PortalError('portal-config') naming the bad entry. */
export function parsePortalsConfig(json: string | unknown): PortalsConfig {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (err) {
      throw new PortalError(
        'deere',
        'portal-config',
        `portals configuration is not valid JSON (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PortalError('deere', 'portal-config', 'portals configuration must be an object keyed by companyId');
  for (const [companyId, c] of Object.entries(value as Record<string, unknown>)) {
    if (c === null || typeof c !== 'object')
      throw new PortalError(
        'deere',
        'portal-config',
        `portals["${companyId}"] must be an object with "deere" and/or "trimble"`,
      );
    for (const [portal, p] of Object.entries(c as Record<string, unknown>)) {
      if (portal !== 'deere' && portal !== 'trimble')
        throw new PortalError(
          'deere',
          'portal-config',
          `portals["${companyId}"].${portal}: unknown portal (deere, trimble)`,
        );
      const o = (p as { oauth?: Record<string, unknown> })?.oauth;
      if (
        !o ||
        typeof o.clientId !== 'string' ||
        typeof o.clientSecret !== 'string' ||
        typeof (o.grant as { type?: unknown })?.type !== 'string'
      ) {
        throw new PortalError(
          portal,
          'portal-config',
          `portals["${companyId}"].${portal}.oauth needs clientId, clientSecret and grant { type, … }`,
        );
      }
      const curves = (p as { guidanceCurves?: unknown }).guidanceCurves;
      if (curves !== undefined && typeof curves !== 'boolean')
        throw new PortalError(
          portal,
          'portal-config',
          `portals["${companyId}"].${portal}.guidanceCurves must be true or false ` +
            '(false: the account takes AB lines only)',
        );
    }
  }
  return value as PortalsConfig;
}

/** Lazily built clients per company, so a company's tokens are cached across pushes. */
export class PortalRegistry {
  private readonly deere = new Map<string, DeereClient>();
  private readonly trimble = new Map<string, TrimbleClient>();

  constructor(
    private readonly config: PortalsConfig,
    private readonly deps: DeereClientDeps & TrimbleClientDeps = {},
    /** Called when a company's refresh token was rotated by the token endpoint (persist it). */
    private readonly onRotated?: (companyId: string, portal: PortalName, refreshToken: string) => void | Promise<void>,
  ) {}

  private depsFor(companyId: string, portal: PortalName): DeereClientDeps & TrimbleClientDeps {
    return {
      ...this.deps,
      onRefreshTokenRotated: async (token: string) => {
        await this.deps.onRefreshTokenRotated?.(token);
        await this.onRotated?.(companyId, portal, token);
      },
    };
  }

  companies(): string[] {
    return Object.keys(this.config);
  }

  configured(companyId: string): PortalName[] {
    const c = this.config[companyId];
    return c ? (['deere', 'trimble'] as const).filter((p) => c[p] !== undefined) : [];
  }

  /** The company's configuration of one portal, if any (for base URLs in previews). */
  configOf(companyId: string, portal: PortalName): DeereConfig | TrimbleConfig | undefined {
    return this.config[companyId]?.[portal];
  }

  deereFor(companyId: string): DeereClient {
    const c = this.config[companyId]?.deere;
    if (!c)
      throw new PortalError(
        'deere',
        'portal-config',
        `company ${companyId} has no John Deere Operations Center configuration`,
      );
    let client = this.deere.get(companyId);
    if (!client) this.deere.set(companyId, (client = new DeereClient(c, this.depsFor(companyId, 'deere'))));
    return client;
  }

  trimbleFor(companyId: string): TrimbleClient {
    const c = this.config[companyId]?.trimble;
    if (!c)
      throw new PortalError(
        'trimble',
        'portal-config',
        `company ${companyId} has no Trimble Agriculture configuration`,
      );
    let client = this.trimble.get(companyId);
    if (!client) this.trimble.set(companyId, (client = new TrimbleClient(c, this.depsFor(companyId, 'trimble'))));
    return client;
  }
}

/** The registry from the environment; an empty one when nothing is configured. */
export function portalRegistryFromEnv(env: NodeJS.ProcessEnv = process.env): PortalRegistry {
  const file = env.FURROW_PORTALS_FILE;
  if (file) {
    const config = parsePortalsConfig(readFileSync(file, 'utf8'));
    return new PortalRegistry(config, {}, (companyId, portal, token) =>
      persistRotatedToken(file, config, companyId, portal, token),
    );
  }
  return new PortalRegistry(env.FURROW_PORTALS ? parsePortalsConfig(env.FURROW_PORTALS) : {});
}

function persistRotatedToken(
  file: string,
  config: PortalsConfig,
  companyId: string,
  portal: 'deere' | 'trimble',
  token: string,
): void {
  const grant = config[companyId]?.[portal]?.oauth.grant;
  if (grant?.type !== 'refresh_token') return;
  grant.refreshToken = token;
  // Atomic replace, readable by the owner only: the file holds client secrets and tokens.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}
