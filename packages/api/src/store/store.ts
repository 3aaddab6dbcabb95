/**
 * furrow's store: every read and write of the API, as SQL shared by PGlite and PostgreSQL.
 * Writes that touch several rows run in one transaction; idempotent creates rely on unique
 * constraints (`INSERT … ON CONFLICT DO NOTHING`, then read), never on check-then-insert.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FieldGeometry, ObstacleInput, Plan, Position } from '@furrow/core';
import { planFromGzip } from '../plan-gzip.js';
import { bool, from, iso, isoOrNull, json, rowMapper, text, textOrNull, type Row } from './rows.js';
import type { Sql, SqlBackend } from './sql.js';

export type CreditOwnerKind = 'user' | 'company';

/** A boundary's geometry as stored: a GeoJSON Polygon or MultiPolygon, lon/lat. */
export type BoundaryGeometry = FieldGeometry;

// Every row type is its mapper's result: the columns are written once (./rows.ts).
const toUser = rowMapper({
  userId: text,
  partnerOwnerId: textOrNull,
  partnerUserId: textOrNull,
  email: textOrNull,
  firstName: textOrNull,
  lastName: textOrNull,
  countryCode: textOrNull,
  displayName: textOrNull,
  createdAt: iso,
});
export type UserRow = ReturnType<typeof toUser>;

const toKey = rowMapper({
  keyId: text,
  userId: text,
  name: text,
  partnerAdmin: bool,
  createdAt: iso,
  revokedAt: isoOrNull,
  /** When the key stops working (null: never). */
  expiresAt: isoOrNull,
});
export type ApiKeyRow = ReturnType<typeof toKey>;

const toCompany = rowMapper({
  companyId: text,
  partnerCompanyId: textOrNull,
  name: text,
  countryCode: text,
  createdAt: iso,
});
export type CompanyRow = ReturnType<typeof toCompany>;

export interface CompanyAccessRow {
  userId: string;
  companyId: string;
  role: 'admin' | 'member';
}

/** What growers, farms and fields have alike. */
const landColumns = { companyId: text, name: text, archived: bool, createdAt: iso };
const toGrower = rowMapper({ id: from('grower_id', text), source: text, ...landColumns });
/** A grower or a farm (`id` is its grower_id or farm_id). */
export type LandRow = ReturnType<typeof toGrower>;
const toFarm = rowMapper({ id: from('farm_id', text), growerId: text, source: text, ...landColumns });
export type FarmRow = ReturnType<typeof toFarm>;

const toField = rowMapper({ fieldId: text, farmId: text, ...landColumns });
export type FieldRow = ReturnType<typeof toField>;

/**
 * What a plan of a stored boundary takes besides its polygon, named as in the path-plan request:
 * obstacles (passable or not), the gates (`accessPoints`) and the start point (`routeOptions.stagingArea`).
 */
export interface BoundaryPlanInputs {
  obstacles?: ObstacleInput[];
  accessPoints?: Position[];
  stagingArea?: Position;
}

const toBoundaryColumns = rowMapper({
  boundaryId: text,
  fieldId: textOrNull,
  companyId: text,
  name: textOrNull,
  geometry: json<BoundaryGeometry>(),
  planInputs: json<BoundaryPlanInputs | null>(),
  archived: bool,
  createdAt: iso,
});
/** A boundary row: its columns, with its plan inputs (if any) as members of their own. */
export type BoundaryRow = Omit<ReturnType<typeof toBoundaryColumns>, 'planInputs'> & BoundaryPlanInputs;
const toBoundary = (r: Row): BoundaryRow => {
  const { planInputs, ...b } = toBoundaryColumns(r);
  return { ...b, ...(planInputs ?? {}) };
};

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** SHA-256 hex of a secret: how API keys and launch codes are stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new API key: `fk_<keyId>_<secret>` with a 256-bit secret. Only its hash is stored. */
export function generateApiKey(): { keyId: string; apiKey: string } {
  const keyId = randomBytes(8).toString('hex');
  return { keyId, apiKey: `fk_${keyId}_${randomBytes(32).toString('base64url')}` };
}

/** A plan row's columns, the compressed form as base64 text (PGlite hands bytea over slowly, as hex parsed in JS). */
const PLAN_COLUMNS = `p.plan_id, p.boundary_id, p.field_id, p.company_id, p.created_by, p.request, p.plan,
  encode(p.plan_gzip, 'base64') AS plan_gzip, p.created_at`;

const planJson = json<Plan>();

/** The plan of a row: its json, or its gzip-compressed form (`plan_gzip`, base64) unpacked. */
function storedPlan(r: Row): Plan {
  return typeof r.plan_gzip === 'string' ? planFromGzip(r.plan_gzip) : planJson.read(r.plan);
}

const toPlanColumns = rowMapper({
  planId: text,
  boundaryId: text,
  fieldId: textOrNull,
  companyId: text,
  createdBy: text,
  request: json<Record<string, unknown>>(),
  createdAt: iso,
});
export type StoredPlanRow = ReturnType<typeof toPlanColumns> & { plan: Plan };
const toPlan = (r: Row): StoredPlanRow => ({ ...toPlanColumns(r), plan: storedPlan(r) });

/** The land tables and their id columns (every row of them belongs to a company). */
const LAND_ID_COLUMNS = {
  growers: 'grower_id',
  farms: 'farm_id',
  fields: 'field_id',
  boundaries: 'boundary_id',
} as const;
type LandTable = keyof typeof LAND_ID_COLUMNS;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids from URLs are checked before they reach SQL (a malformed uuid would be a SQL error, not a 404). */
export const isUuid = (s: string): boolean => UUID.test(s);

export class Store {
  constructor(readonly db: SqlBackend) {}

  close(): Promise<void> {
    return this.db.close();
  }

  // ---- settings -------------------------------------------------------------------------

  /** A setting's value, created once with `make()` if absent (first writer wins across processes). */
  async setting(name: string, make: () => string): Promise<string> {
    await this.db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      make(),
    ]);
    const rows = await this.db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
    return rows[0].value;
  }

  // ---- users and keys -------------------------------------------------------------------

  async getUser(userId: string): Promise<UserRow | undefined> {
    if (!isUuid(userId)) return undefined;
    const rows = await this.db.query('SELECT * FROM users WHERE user_id = $1', [userId]);
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  async countKeys(): Promise<number> {
    const rows = await this.db.query<{ n: string }>('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL');
    return Number(rows[0].n);
  }

  /**
   * Creates an account user with one key (what `furrow keys create` does). The user gets
   * `initialCredits` and, for partner admins, acts as the partner namespace of what it provisions.
   */
  async createAccountKey(opts: {
    name: string;
    partnerAdmin: boolean;
    initialCredits: number;
    apiKey?: string;
    expiresAt?: string;
  }): Promise<{
    userId: string;
    keyId: string;
    apiKey: string;
  }> {
    const generated = generateApiKey();
    const apiKey = opts.apiKey ?? generated.apiKey;
    const keyId = generated.keyId;
    const userId = randomUUID();
    await this.db.transaction(async (tx) => {
      await tx.query('INSERT INTO users (user_id, display_name) VALUES ($1, $2)', [userId, opts.name]);
      await tx.query(
        'INSERT INTO api_keys (key_id, user_id, name, key_hash, partner_admin, expires_at) VALUES ($1, $2, $3, $4, ' +
          '$5, $6)',
        [keyId, userId, opts.name, hashSecret(apiKey), opts.partnerAdmin, opts.expiresAt ?? null],
      );
      if (opts.initialCredits > 0) await grantIn(tx, 'user', userId, opts.initialCredits, 'initial credits');
    });
    return { userId, keyId, apiKey };
  }

  /** Makes sure a partner-admin key with exactly this secret exists (FURROW_BOOTSTRAP_API_KEY). */
  async ensureBootstrapKey(apiKey: string, initialCredits: number): Promise<{ created: boolean; keyId: string }> {
    const existing = await this.db.query<{ key_id: string }>('SELECT key_id FROM api_keys WHERE key_hash = $1', [
      hashSecret(apiKey),
    ]);
    if (existing[0]) return { created: false, keyId: existing[0].key_id };
    try {
      const made = await this.createAccountKey({ name: 'bootstrap', partnerAdmin: true, initialCredits, apiKey });
      return { created: true, keyId: made.keyId };
    } catch (err) {
      // Another process created it at the same moment (unique key_hash): that one stands.
      const again = await this.db.query<{ key_id: string }>('SELECT key_id FROM api_keys WHERE key_hash = $1', [
        hashSecret(apiKey),
      ]);
      if (again[0]) return { created: false, keyId: again[0].key_id };
      throw err;
    }
  }

  /** A new key of `userId`; `expiresAt` (ISO time) makes it stop working then (401 after). */
  async createKey(
    userId: string,
    name: string,
    partnerAdmin = false,
    expiresAt?: string,
  ): Promise<{ keyId: string; apiKey: string }> {
    const { keyId, apiKey } = generateApiKey();
    await this.db.query(
      'INSERT INTO api_keys (key_id, user_id, name, key_hash, partner_admin, expires_at) VALUES ($1, $2, $3, $4, ' +
        '$5, $6)',
      [keyId, userId, name, hashSecret(apiKey), partnerAdmin, expiresAt ?? null],
    );
    return { keyId, apiKey };
  }

  /** The key row whose stored hash equals `keyHash` (revoked ones included), with that hash. */
  async findKeyByHash(keyHash: string): Promise<(ApiKeyRow & { keyHash: string }) | undefined> {
    const rows = await this.db.query('SELECT * FROM api_keys WHERE key_hash = $1', [keyHash]);
    return rows[0] ? { ...toKey(rows[0]), keyHash: String(rows[0].key_hash) } : undefined;
  }

  private keyCache = new Map<string, { row: (ApiKeyRow & { keyHash: string }) | undefined; until: number }>();

  /**
   * `findKeyByHash` remembered for `keyCacheMs` (every request authenticates; the embedded store
   * answers a query in milliseconds). A revocation clears this process's cache at once; other
   * processes sharing PostgreSQL see it within `keyCacheMs`.
   */
  keyCacheMs = 5000;
  async findKeyByHashCached(keyHash: string): Promise<(ApiKeyRow & { keyHash: string }) | undefined> {
    const now = Date.now();
    const hit = this.keyCache.get(keyHash);
    if (hit && hit.until > now) return hit.row;
    const row = await this.findKeyByHash(keyHash);
    if (this.keyCache.size >= 10_000) this.keyCache.clear();
    this.keyCache.set(keyHash, { row, until: now + this.keyCacheMs });
    return row;
  }

  /** Keys of `userId` and of the users it provisioned as a partner. */
  async listKeys(userId: string): Promise<ApiKeyRow[]> {
    const rows = await this.db.query(
      `SELECT k.* FROM api_keys k JOIN users u ON u.user_id = k.user_id
       WHERE k.user_id = $1 OR u.partner_owner_id = $1 ORDER BY k.created_at, k.key_id`,
      [userId],
    );
    return rows.map(toKey);
  }

  /** The personal keys of `userId` only (not those of users it provisioned as a partner). */
  async listOwnKeys(userId: string): Promise<ApiKeyRow[]> {
    const rows = await this.db.query('SELECT * FROM api_keys WHERE user_id = $1 ORDER BY created_at, key_id', [userId]);
    return rows.map(toKey);
  }

  /** Revokes a personal key of `userId`; undefined when `keyId` is not one of its own keys. */
  async revokeOwnKey(userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    this.keyCache.clear();
    const rows = await this.db.query(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE key_id = $2 AND user_id = $1 RETURNING *',
      [userId, keyId],
    );
    this.keyCache.clear();
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  /** Revokes a key of `userId` (or of a user it provisioned). False when no such key is visible. */
  async revokeKey(userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    this.keyCache.clear();
    const rows = await this.db.query(
      `UPDATE api_keys k SET revoked_at = COALESCE(k.revoked_at, now())
       FROM users u WHERE u.user_id = k.user_id AND k.key_id = $2 AND (k.user_id = $1 OR u.partner_owner_id = $1)
       RETURNING k.*`,
      [userId, keyId],
    );
    this.keyCache.clear();
    return rows[0] ? toKey(rows[0]) : undefined;
  }

  // ---- credits --------------------------------------------------------------------------

  async balance(kind: CreditOwnerKind, ownerId: string): Promise<number> {
    const rows = await this.db.query<{ balance: string }>(
      'SELECT balance FROM credit_accounts WHERE owner_kind = $1 AND owner_id = $2',
      [kind, ownerId],
    );
    return rows[0] ? Number(rows[0].balance) : 0;
  }

  async grantCredits(kind: CreditOwnerKind, ownerId: string, amount: number, reason: string): Promise<number> {
    return this.db.transaction((tx) => grantIn(tx, kind, ownerId, amount, reason));
  }

  /**
   * Takes `amount` credits in one atomic statement (`balance >= amount` in the WHERE clause, so
   * concurrent charges never overdraw). Returns the new balance, or undefined when too few remain.
   */
  async charge(kind: CreditOwnerKind, ownerId: string, amount: number, reason: string): Promise<number | undefined> {
    return chargeIn(this.db, kind, ownerId, amount, reason);
  }

  /** Charges the first of `accounts` that has `amount` credits; returns it, or undefined when none has. */
  async chargeFirst<A extends CreditAccount>(
    accounts: readonly A[],
    amount: number,
    reason: string,
  ): Promise<A | undefined> {
    return chargeFirstIn(this.db, accounts, amount, reason);
  }

  // ---- partner provisioning -------------------------------------------------------------

  async userByPartnerId(partnerOwnerId: string, partnerUserId: string): Promise<UserRow | undefined> {
    const rows = await this.db.query('SELECT * FROM users WHERE partner_owner_id = $1 AND partner_user_id = $2', [
      partnerOwnerId,
      partnerUserId,
    ]);
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  /** Creates the partner's user, or returns the existing one (`created: false`). */
  async provisionUser(
    partnerOwnerId: string,
    u: { partnerUserId: string; email?: string; firstName?: string; lastName?: string; countryCode?: string },
  ): Promise<{ user: UserRow; created: boolean }> {
    const inserted = await this.db.query(
      `INSERT INTO users (user_id, partner_owner_id, partner_user_id, email, first_name, last_name, country_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (partner_owner_id, partner_user_id) DO NOTHING RETURNING *`,
      [
        randomUUID(),
        partnerOwnerId,
        u.partnerUserId,
        u.email ?? null,
        u.firstName ?? null,
        u.lastName ?? null,
        u.countryCode ?? null,
      ],
    );
    if (inserted[0]) return { user: toUser(inserted[0]), created: true };
    const existing = await this.userByPartnerId(partnerOwnerId, u.partnerUserId);
    if (!existing) throw new Error('user vanished between insert and read');
    return { user: existing, created: false };
  }

  async companyByPartnerId(partnerOwnerId: string, partnerCompanyId: string): Promise<CompanyRow | undefined> {
    const rows = await this.db.query(
      'SELECT * FROM companies WHERE partner_owner_id = $1 AND partner_company_id = $2',
      [partnerOwnerId, partnerCompanyId],
    );
    return rows[0] ? toCompany(rows[0]) : undefined;
  }

  /** Creates the partner's company (and admin access for `creatorUserId`), or returns the existing one. */
  async provisionCompany(
    partnerOwnerId: string,
    creatorUserId: string,
    c: { partnerCompanyId: string; name?: string; countryCode?: string },
  ): Promise<{ company: CompanyRow; created: boolean }> {
    const made = await this.db.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO companies (company_id, partner_owner_id, partner_company_id, name, country_code)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (partner_owner_id, partner_company_id) DO NOTHING RETURNING *`,
        [randomUUID(), partnerOwnerId, c.partnerCompanyId, c.name ?? '', c.countryCode ?? ''],
      );
      if (!inserted[0]) return undefined;
      const company = toCompany(inserted[0]);
      await grantAccessIn(tx, creatorUserId, company.companyId, 'admin');
      return company;
    });
    if (made) return { company: made, created: true };
    const existing = await this.companyByPartnerId(partnerOwnerId, c.partnerCompanyId);
    if (!existing) throw new Error('company vanished between insert and read');
    return { company: existing, created: false };
  }

  async grantAccess(
    userId: string,
    companyId: string,
    role: 'admin' | 'member',
  ): Promise<{ access: CompanyAccessRow; created: boolean }> {
    const created = await this.db.transaction((tx) => grantAccessIn(tx, userId, companyId, role));
    const rows = await this.db.query<{ role: 'admin' | 'member' }>(
      'SELECT role FROM company_accesses WHERE user_id = $1 AND company_id = $2',
      [userId, companyId],
    );
    return { access: { userId, companyId, role: rows[0].role }, created };
  }

  /** Companies `userId` may access, with its role. */
  async companiesOf(userId: string): Promise<(CompanyRow & { role: 'admin' | 'member' })[]> {
    const rows = await this.db.query(
      `SELECT c.*, a.role FROM company_accesses a JOIN companies c ON c.company_id = a.company_id
       WHERE a.user_id = $1 ORDER BY c.created_at, c.company_id`,
      [userId],
    );
    return rows.map((r) => ({ ...toCompany(r), role: r.role as 'admin' | 'member' }));
  }

  async canAccessCompany(userId: string, companyId: string): Promise<boolean> {
    if (!isUuid(companyId)) return false;
    const rows = await this.db.query('SELECT 1 FROM company_accesses WHERE user_id = $1 AND company_id = $2', [
      userId,
      companyId,
    ]);
    return rows.length > 0;
  }

  // ---- land entities (every read scoped to the companies the user can access) -----------

  async createGrower(companyId: string, g: { name: string; source: string; archived: boolean }): Promise<LandRow> {
    const rows = await this.db.query(
      'INSERT INTO growers (grower_id, company_id, name, source, archived) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [randomUUID(), companyId, g.name, g.source, g.archived],
    );
    return toGrower(rows[0]);
  }

  async getGrower(userId: string, growerId: string): Promise<LandRow | undefined> {
    return this.getScoped('growers', userId, growerId, toGrower);
  }

  async listGrowers(
    companyId: string,
    page: { limit: number; offset: number; includeArchived: boolean },
  ): Promise<Page<LandRow>> {
    return this.page('growers', 'company_id', companyId, page, toGrower);
  }

  async createFarm(grower: LandRow, f: { name: string; source: string; archived: boolean }): Promise<FarmRow> {
    const rows = await this.db.query(
      'INSERT INTO farms (farm_id, grower_id, company_id, name, source, archived) VALUES ($1, $2, $3, $4, $5, $6) ' +
        'RETURNING *',
      [randomUUID(), grower.id, grower.companyId, f.name, f.source, f.archived],
    );
    return toFarm(rows[0]);
  }

  async getFarm(userId: string, farmId: string): Promise<FarmRow | undefined> {
    return this.getScoped('farms', userId, farmId, toFarm);
  }

  async listFarms(
    growerId: string,
    page: { limit: number; offset: number; includeArchived: boolean },
  ): Promise<Page<FarmRow>> {
    return this.page('farms', 'grower_id', growerId, page, toFarm);
  }

  /** Creates a field and its boundary in one transaction. */
  async saveField(
    farm: LandRow,
    f: { name: string; geometry: BoundaryRow['geometry']; planInputs?: BoundaryPlanInputs },
  ): Promise<{ field: FieldRow; boundary: BoundaryRow }> {
    const inputs = f.planInputs && Object.keys(f.planInputs).length > 0 ? JSON.stringify(f.planInputs) : null;
    return this.db.transaction(async (tx) => {
      const fieldRows = await tx.query(
        'INSERT INTO fields (field_id, farm_id, company_id, name) VALUES ($1, $2, $3, $4) RETURNING *',
        [randomUUID(), farm.id, farm.companyId, f.name],
      );
      const field = toField(fieldRows[0]);
      const boundaryRows = await tx.query(
        'INSERT INTO boundaries (boundary_id, field_id, company_id, name, geometry, plan_inputs) VALUES ($1, $2, ' +
          '$3, $4, $5::jsonb, $6::json) RETURNING *',
        [randomUUID(), field.fieldId, farm.companyId, f.name, f.geometry, inputs],
      );
      return { field, boundary: toBoundary(boundaryRows[0]) };
    });
  }

  async getField(userId: string, fieldId: string): Promise<FieldRow | undefined> {
    return this.getScoped('fields', userId, fieldId, toField);
  }

  async listFields(
    farmId: string,
    page: { limit: number; offset: number; includeArchived: boolean },
  ): Promise<Page<FieldRow>> {
    return this.page('fields', 'farm_id', farmId, page, toField);
  }

  /** Adds a boundary to a field (import) or to a company without a field. */
  async addBoundary(
    companyId: string,
    fieldId: string | null,
    name: string | null,
    geometry: BoundaryRow['geometry'],
  ): Promise<BoundaryRow> {
    const rows = await this.db.query(
      'INSERT INTO boundaries (boundary_id, field_id, company_id, name, geometry) VALUES ($1, $2, $3, $4, ' +
        '$5::jsonb) RETURNING *',
      [randomUUID(), fieldId, companyId, name, geometry],
    );
    return toBoundary(rows[0]);
  }

  /** Adds several boundaries to a field in one transaction (an import is all or nothing). */
  async addBoundaries(
    companyId: string,
    fieldId: string,
    items: { name: string | null; geometry: BoundaryRow['geometry'] }[],
  ): Promise<BoundaryRow[]> {
    return this.db.transaction(async (tx) => {
      const out: BoundaryRow[] = [];
      for (const it of items) {
        const rows = await tx.query(
          'INSERT INTO boundaries (boundary_id, field_id, company_id, name, geometry) VALUES ($1, $2, $3, $4, ' +
            '$5::jsonb) RETURNING *',
          [randomUUID(), fieldId, companyId, it.name, it.geometry],
        );
        out.push(toBoundary(rows[0]));
      }
      return out;
    });
  }

  /** Fields of a company, each with its latest unarchived boundary's id. */
  async listCompanyFields(
    companyId: string,
    p: { limit: number; offset: number; includeArchived: boolean },
  ): Promise<Page<FieldRow & { boundaryId: string | null }>> {
    const archived = p.includeArchived ? '' : ' AND f.archived = false';
    const rows = await this.db.query(
      `SELECT f.*, count(*) OVER () AS total_count,
         (SELECT b.boundary_id FROM boundaries b WHERE b.field_id = f.field_id AND b.archived = false
          ORDER BY b.created_at DESC, b.boundary_id LIMIT 1) AS latest_boundary_id
       FROM fields f WHERE f.company_id = $1${archived} ORDER BY f.created_at, f.field_id LIMIT $2 OFFSET $3`,
      [companyId, p.limit, p.offset],
    );
    return {
      items: rows.map((r) => ({ ...toField(r), boundaryId: (r.latest_boundary_id as string | null) ?? null })),
      total: rows[0] ? Number(rows[0].total_count) : 0,
      limit: p.limit,
      offset: p.offset,
    };
  }

  async getBoundary(userId: string, boundaryId: string): Promise<BoundaryRow | undefined> {
    return this.getScoped('boundaries', userId, boundaryId, toBoundary);
  }

  /** Replaces the plan inputs of a boundary the user can access (undefined when it cannot). */
  async setPlanInputs(
    userId: string,
    boundaryId: string,
    inputs: BoundaryPlanInputs,
  ): Promise<BoundaryRow | undefined> {
    if (!isUuid(boundaryId)) return undefined;
    const rows = await this.db.query(
      `UPDATE boundaries b SET plan_inputs = $3::json FROM company_accesses a
       WHERE a.company_id = b.company_id AND a.user_id = $1 AND b.boundary_id = $2 RETURNING b.*`,
      [userId, boundaryId, Object.keys(inputs).length > 0 ? JSON.stringify(inputs) : null],
    );
    return rows[0] ? toBoundary(rows[0]) : undefined;
  }

  async listBoundaries(
    fieldId: string,
    page: { limit: number; offset: number; includeArchived: boolean },
  ): Promise<Page<BoundaryRow>> {
    return this.page('boundaries', 'field_id', fieldId, page, toBoundary);
  }

  /** Sets `archived` on a grower, farm, field or boundary the caller can access. */
  async setArchived(table: LandTable, userId: string, id: string, archived: boolean): Promise<boolean> {
    if (!isUuid(id)) return false;
    const idColumn = LAND_ID_COLUMNS[table];
    const rows = await this.db.query(
      `UPDATE ${table} t SET archived = $3 FROM company_accesses a
       WHERE a.company_id = t.company_id AND a.user_id = $1 AND t.${idColumn} = $2 RETURNING t.${idColumn}`,
      [userId, id, archived],
    );
    return rows.length > 0;
  }

  /** The row `id` of `table` when the user can access its company. */
  private async getScoped<T>(table: LandTable, userId: string, id: string, map: (r: Row) => T): Promise<T | undefined> {
    if (!isUuid(id)) return undefined;
    const rows = await this.db.query(
      `SELECT t.* FROM ${table} t JOIN company_accesses a ON a.company_id = t.company_id
       WHERE t.${LAND_ID_COLUMNS[table]} = $2 AND a.user_id = $1`,
      [userId, id],
    );
    return rows[0] ? map(rows[0]) : undefined;
  }

  private async page<T>(
    table: string,
    parentColumn: string,
    parentId: string,
    p: { limit: number; offset: number; includeArchived: boolean },
    map: (r: Row) => T,
  ): Promise<Page<T>> {
    const archived = p.includeArchived ? '' : ' AND archived = false';
    const rows = await this.db.query(
      `SELECT *, count(*) OVER () AS total_count FROM ${table} WHERE ${parentColumn} = $1${archived}
       ORDER BY created_at, 1 LIMIT $2 OFFSET $3`,
      [parentId, p.limit, p.offset],
    );
    let total = rows[0] ? Number(rows[0].total_count) : 0;
    if (rows.length === 0 && p.offset > 0) {
      const n = await this.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${table} WHERE ${parentColumn} = $1${archived}`,
        [parentId],
      );
      total = Number(n[0].n);
    }
    return { items: rows.map(map), total, limit: p.limit, offset: p.offset };
  }

  // ---- stored plans ---------------------------------------------------------------------

  async savePlan(p: {
    boundary: BoundaryRow;
    createdBy: string;
    request: Record<string, unknown>;
    plan: Plan;
  }): Promise<StoredPlanRow> {
    const rows = await this.db.query(
      `INSERT INTO plans (plan_id, boundary_id, field_id, company_id, created_by, request, plan)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::json) RETURNING *`,
      [randomUUID(), p.boundary.boundaryId, p.boundary.fieldId, p.boundary.companyId, p.createdBy, p.request, p.plan],
    );
    return toPlan(rows[0]);
  }

  async getPlan(userId: string, planId: string): Promise<StoredPlanRow | undefined> {
    if (!isUuid(planId)) return undefined;
    const rows = await this.db.query(
      `SELECT ${PLAN_COLUMNS} FROM plans p JOIN company_accesses a ON a.company_id = p.company_id
       WHERE p.plan_id = $2 AND a.user_id = $1`,
      [userId, planId],
    );
    return rows[0] ? toPlan(rows[0]) : undefined;
  }

  /** The newest stored plan of a boundary (null when it has none). */
  async latestPlanId(boundaryId: string): Promise<string | null> {
    const rows = await this.db.query<{ plan_id: string }>(
      'SELECT plan_id FROM plans WHERE boundary_id = $1 ORDER BY created_at DESC, plan_id DESC LIMIT 1',
      [boundaryId],
    );
    return rows[0] ? String(rows[0].plan_id) : null;
  }

  async listPlans(fieldId: string, page: { limit: number; offset: number }): Promise<Page<StoredPlanRow>> {
    const rows = await this.db.query(
      `SELECT ${PLAN_COLUMNS}, count(*) OVER () AS total_count FROM plans p WHERE p.field_id = $1 ORDER BY ` +
        `p.created_at, p.plan_id LIMIT $2 OFFSET $3`,
      [fieldId, page.limit, page.offset],
    );
    return { items: rows.map(toPlan), total: rows[0] ? Number(rows[0].total_count) : 0, ...page };
  }

  // ---- launch codes ---------------------------------------------------------------------

  async createLaunchCode(
    userId: string,
    issuedBy: string,
    returnUrl: string | null,
    lifetimeSeconds: number,
  ): Promise<string> {
    const code = randomBytes(24).toString('base64url');
    await this.db.query(
      `INSERT INTO launch_codes (code_hash, user_id, issued_by, return_url, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [hashSecret(code), userId, issuedBy, returnUrl, lifetimeSeconds],
    );
    return code;
  }

  /**
   * Consumes a launch code once: a single UPDATE that only matches an unused, unexpired code of
   * that user, so of two concurrent exchanges exactly one succeeds.
   */
  async consumeLaunchCode(
    code: string,
    userId: string,
  ): Promise<{ userId: string; returnUrl: string | null } | undefined> {
    if (!isUuid(userId)) return undefined;
    const rows = await this.db.query<{ user_id: string; return_url: string | null }>(
      `UPDATE launch_codes SET used_at = now()
       WHERE code_hash = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > now()
       RETURNING user_id, return_url`,
      [hashSecret(code), userId],
    );
    return rows[0] ? { userId: String(rows[0].user_id), returnUrl: rows[0].return_url } : undefined;
  }
}

/** A credit account: a user's or a company's. */
export interface CreditAccount {
  kind: CreditOwnerKind;
  id: string;
}

/**
 * Who pays for a plan, in order: the company when the plan is for one of its fields (a stored
 * boundary, a guidance-job item), then the user who asked for it. A plan of no stored field
 * is paid by the user alone.
 */
export function planPayers(companyId: string | undefined, userId: string): CreditAccount[] {
  const user: CreditAccount = { kind: 'user', id: userId };
  return companyId === undefined ? [user] : [{ kind: 'company', id: companyId }, user];
}

/**
 * The credit charge, the one place it is written: one statement (a data-modifying CTE), so the
 * guarded UPDATE (`balance >= amount`: concurrent charges never overdraw) and its ledger row
 * commit together. Returns the new balance, or undefined when too few credits remain.
 */
export async function chargeIn(
  tx: Sql,
  kind: CreditOwnerKind,
  ownerId: string,
  amount: number,
  reason: string,
): Promise<number | undefined> {
  const rows = await tx.query<{ balance: string }>(
    `WITH charged AS (
       UPDATE credit_accounts SET balance = balance - $3::bigint
       WHERE owner_kind = $1::text AND owner_id = $2::uuid AND balance >= $3::bigint RETURNING balance),
     logged AS (
       INSERT INTO credit_ledger (owner_kind, owner_id, delta, reason)
       SELECT $1::text, $2::uuid, -($3::bigint), $4::text FROM charged)
     SELECT balance FROM charged`,
    [kind, ownerId, amount, reason],
  );
  return rows[0] ? Number(rows[0].balance) : undefined;
}

/** `chargeIn` on each account in turn until one pays; returns the payer. */
export async function chargeFirstIn<A extends CreditAccount>(
  tx: Sql,
  accounts: readonly A[],
  amount: number,
  reason: string,
): Promise<A | undefined> {
  for (const account of accounts) {
    if ((await chargeIn(tx, account.kind, account.id, amount, reason)) !== undefined) return account;
  }
  return undefined;
}

async function grantIn(
  tx: Sql,
  kind: CreditOwnerKind,
  ownerId: string,
  amount: number,
  reason: string,
): Promise<number> {
  const rows = await tx.query<{ balance: string }>(
    `INSERT INTO credit_accounts (owner_kind, owner_id, balance) VALUES ($1, $2, $3)
     ON CONFLICT (owner_kind, owner_id) DO UPDATE SET balance = credit_accounts.balance + EXCLUDED.balance
     RETURNING balance`,
    [kind, ownerId, amount],
  );
  await tx.query('INSERT INTO credit_ledger (owner_kind, owner_id, delta, reason) VALUES ($1, $2, $3, $4)', [
    kind,
    ownerId,
    amount,
    reason,
  ]);
  return Number(rows[0].balance);
}

async function grantAccessIn(tx: Sql, userId: string, companyId: string, role: 'admin' | 'member'): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO company_accesses (user_id, company_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, company_id) DO NOTHING RETURNING user_id`,
    [userId, companyId, role],
  );
  return rows.length > 0;
}

export async function openStore(databaseUrl: string | undefined, cwd?: string): Promise<Store> {
  const { openSql } = await import('./open.js');
  return new Store(await openSql(databaseUrl, cwd));
}
