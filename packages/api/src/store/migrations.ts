/**
 * Versioned schema migrations, shared by both backends. Each runs once, in its own transaction,
 * recorded in `schema_migrations`. Append new versions; never edit an applied one.
 */
import type { Sql, SqlBackend } from './sql.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The table of a land entity (growers, farms, fields: alike but for their parents and `source`)
 * and the index on its first parent, as migration 2 first wrote them out: the text is generated to
 * the byte of that release (test/api/migrations.test.ts pins every migration's SQL).
 */
function landTable(t: {
  table: string;
  id: string;
  parents: [table: string, column: string][];
  index: string;
  source: boolean;
}): string {
  const columns = [
    `${t.id} uuid PRIMARY KEY`,
    ...t.parents.map(([table, column]) => `${column} uuid NOT NULL REFERENCES ${table}(${column})`),
    'name text NOT NULL',
    ...(t.source ? ['source text NOT NULL'] : []),
    'archived boolean NOT NULL DEFAULT false',
    'created_at timestamptz NOT NULL DEFAULT now()',
  ];
  const indent = '      ';
  return [
    `${indent}CREATE TABLE ${t.table} (`,
    columns.map((c) => `${indent}  ${c}`).join(',\n'),
    `${indent});`,
    `${indent}CREATE INDEX ${t.index} ON ${t.table} (${t.parents[0][1]});`,
  ].join('\n');
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'users, keys, credits, rate limits',
    sql: `
      CREATE TABLE users (
        user_id uuid PRIMARY KEY,
        partner_owner_id uuid REFERENCES users(user_id),
        partner_user_id text,
        email text,
        first_name text,
        last_name text,
        country_code text,
        display_name text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (partner_owner_id, partner_user_id)
      );
      CREATE TABLE api_keys (
        key_id text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(user_id),
        name text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        partner_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_user ON api_keys (user_id);
      CREATE TABLE credit_accounts (
        owner_kind text NOT NULL CHECK (owner_kind IN ('user', 'company')),
        owner_id uuid NOT NULL,
        balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
        PRIMARY KEY (owner_kind, owner_id)
      );
      CREATE TABLE credit_ledger (
        entry_id bigserial PRIMARY KEY,
        owner_kind text NOT NULL,
        owner_id uuid NOT NULL,
        delta bigint NOT NULL,
        reason text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE rate_limits (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      );
      CREATE TABLE settings (
        name text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'companies, land entities, launch codes, stored plans',
    sql: `
      CREATE TABLE companies (
        company_id uuid PRIMARY KEY,
        partner_owner_id uuid REFERENCES users(user_id),
        partner_company_id text,
        name text NOT NULL,
        country_code text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (partner_owner_id, partner_company_id)
      );
      CREATE TABLE company_accesses (
        user_id uuid NOT NULL REFERENCES users(user_id),
        company_id uuid NOT NULL REFERENCES companies(company_id),
        role text NOT NULL CHECK (role IN ('admin', 'member')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, company_id)
      );
${landTable({
  table: 'growers',
  id: 'grower_id',
  parents: [['companies', 'company_id']],
  index: 'growers_company',
  source: true,
})}
${landTable({
  table: 'farms',
  id: 'farm_id',
  parents: [
    ['growers', 'grower_id'],
    ['companies', 'company_id'],
  ],
  index: 'farms_grower',
  source: true,
})}
${landTable({
  table: 'fields',
  id: 'field_id',
  parents: [
    ['farms', 'farm_id'],
    ['companies', 'company_id'],
  ],
  index: 'fields_farm',
  source: false,
})}
      CREATE TABLE boundaries (
        boundary_id uuid PRIMARY KEY,
        field_id uuid REFERENCES fields(field_id),
        company_id uuid NOT NULL REFERENCES companies(company_id),
        name text,
        geometry jsonb NOT NULL,
        archived boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX boundaries_field ON boundaries (field_id);
      CREATE TABLE plans (
        plan_id uuid PRIMARY KEY,
        boundary_id uuid NOT NULL REFERENCES boundaries(boundary_id),
        field_id uuid REFERENCES fields(field_id),
        company_id uuid NOT NULL REFERENCES companies(company_id),
        created_by uuid NOT NULL REFERENCES users(user_id),
        request jsonb NOT NULL,
        plan jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX plans_field ON plans (field_id);
      CREATE INDEX plans_boundary ON plans (boundary_id);
      CREATE TABLE launch_codes (
        code_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(user_id),
        issued_by uuid NOT NULL REFERENCES users(user_id),
        return_url text,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 3,
    name: 'guidance jobs (bulk planning)',
    sql:
      `
      CREATE TABLE guidance_jobs (
        job_id uuid PRIMARY KEY,
        company_id uuid NOT NULL REFERENCES companies(company_id),
        created_by uuid NOT NULL REFERENCES users(user_id),
        defaults jsonb,
        total integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        cancelled_at timestamptz
      );
      CREATE INDEX guidance_jobs_company ON guidance_jobs (company_id, created_at);
      CREATE TABLE guidance_job_items (
        job_id uuid NOT NULL REFERENCES guidance_jobs(job_id),
        item_index integer NOT NULL,
        boundary_id uuid NOT NULL REFERENCES boundaries(boundary_id),
        request jsonb NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        lease_until timestamptz,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        plan_id uuid UNIQUE REFERENCES plans(plan_id),
        metrics jsonb,
        error jsonb,
        credits_charged integer NOT NULL DEFAULT 0,
        started_at timestamptz,
        finished_at timestamptz,
        PRIMARY KEY (job_id, item_index)
      );
      CREATE INDEX guidance_job_items_pending ON guidance_job_items (next_attempt_at) ` +
      `WHERE status IN ('queued', 'running')
    `,
  },
  {
    version: 4,
    name: 'API key expiry',
    sql: `ALTER TABLE api_keys ADD COLUMN expires_at timestamptz`,
  },
  {
    version: 5,
    name: 'guidance job items: work estimate (largest first)',
    sql: `ALTER TABLE guidance_job_items ADD COLUMN work_estimate double precision NOT NULL DEFAULT 0`,
  },
  {
    // A plan is a stored document, read and written whole, never queried inside: json keeps its
    // text as given, which PGlite writes about a third faster than jsonb's binary form (and reads
    // back faster too; measured on corpus plans of 16 KB to 1.7 MB, docs/benchmarks/jobs.md).
    version: 6,
    name: 'plans stored as json text',
    sql: `ALTER TABLE plans ALTER COLUMN plan TYPE json USING plan::json`,
  },
  {
    // Guidance jobs store their plans gzip-compressed by the planning thread (`plan_gzip`), so the
    // store writes a third of the bytes and compresses nothing itself: PGlite (PostgreSQL in
    // WebAssembly, on the server's main thread) wrote a 1.3 MB plan in 44 ms as json, 6 ms this way
    // (docs/benchmarks/jobs.md). The column is already compressed: EXTERNAL keeps PostgreSQL from trying again.
    version: 7,
    name: 'plans: gzip-compressed form',
    sql: `
      ALTER TABLE plans ALTER COLUMN plan DROP NOT NULL;
      ALTER TABLE plans ADD COLUMN plan_gzip bytea;
      ALTER TABLE plans ALTER COLUMN plan_gzip SET STORAGE EXTERNAL;
      ALTER TABLE plans ADD CONSTRAINT plans_one_form CHECK ((plan IS NULL) <> (plan_gzip IS NULL));
    `,
  },
  {
    // Machine profiles of a company (the web app's "Machine" list): a name and the machine settings
    // of a path-plan request (`machine`), unique by name within the company.
    version: 8,
    name: 'machine profiles per company',
    sql: `
      CREATE TABLE machine_profiles (
        profile_id uuid PRIMARY KEY,
        company_id uuid NOT NULL REFERENCES companies(company_id),
        name text NOT NULL,
        machine json NOT NULL,
        created_by uuid NOT NULL REFERENCES users(user_id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (company_id, name)
      )
    `,
  },
  {
    // What a plan of a stored boundary takes besides its polygon: obstacles (passable or not),
    // gates (`accessPoints`) and the start point (`stagingArea`), as the path-plan request names them.
    version: 9,
    name: 'boundaries: plan inputs (obstacles, gates, start point)',
    sql: `ALTER TABLE boundaries ADD COLUMN plan_inputs json`,
  },
];

/** Applies every migration not yet recorded. Safe when several processes start at once on PostgreSQL. */
export async function migrate(db: SqlBackend): Promise<number[]> {
  const applied: number[] = [];
  await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(727274)');
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
    );
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await execScript(tx, m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
  });
  return applied;
}

/** Runs a script statement by statement (parameterless; our migrations hold no `;` inside literals). */
async function execScript(tx: Sql, script: string): Promise<void> {
  for (const stmt of script.split(';')) {
    if (stmt.trim() !== '') await tx.query(stmt);
  }
}
