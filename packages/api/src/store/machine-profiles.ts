/**
 * Machine profiles of a company (migration 8): a name, unique within the company, and the machine
 * settings of a path-plan request. Reads and writes by id are scoped to the companies the user can
 * access, like the land entities: a profile of another company is not found.
 */
import { randomUUID } from 'node:crypto';
import { iso, json, rowMapper, text } from './rows.js';
import type { SqlBackend } from './sql.js';
import { isUuid } from './store.js';

const toProfile = rowMapper({
  profileId: text,
  companyId: text,
  name: text,
  machine: json<Record<string, unknown>>(),
  createdBy: text,
  createdAt: iso,
  updatedAt: iso,
});
export type MachineProfileRow = ReturnType<typeof toProfile>;

/** Thrown when a company already has a profile of that name. */
export class DuplicateProfileName extends Error {
  constructor(readonly profileName: string) {
    super(`a machine profile named "${profileName}" already exists in this company`);
  }
}

export class MachineProfiles {
  constructor(private readonly db: SqlBackend) {}

  /** The company's profiles by name. */
  async list(companyId: string): Promise<MachineProfileRow[]> {
    const rows = await this.db.query('SELECT * FROM machine_profiles WHERE company_id = $1 ORDER BY name, profile_id', [
      companyId,
    ]);
    return rows.map(toProfile);
  }

  async create(
    companyId: string,
    createdBy: string,
    p: { name: string; machine: Record<string, unknown> },
  ): Promise<MachineProfileRow> {
    const rows = await this.db.query(
      `INSERT INTO machine_profiles (profile_id, company_id, name, machine, created_by)
       VALUES ($1, $2, $3, $4::json, $5) ON CONFLICT (company_id, name) DO NOTHING RETURNING *`,
      [randomUUID(), companyId, p.name, JSON.stringify(p.machine), createdBy],
    );
    if (!rows[0]) throw new DuplicateProfileName(p.name);
    return toProfile(rows[0]);
  }

  /** The profile when the user can access its company. */
  async get(userId: string, profileId: string): Promise<MachineProfileRow | undefined> {
    if (!isUuid(profileId)) return undefined;
    const rows = await this.db.query(
      `SELECT m.* FROM machine_profiles m JOIN company_accesses a ON a.company_id = m.company_id
       WHERE m.profile_id = $2 AND a.user_id = $1`,
      [userId, profileId],
    );
    return rows[0] ? toProfile(rows[0]) : undefined;
  }

  /** Replaces the name and machine of a profile (found with `get` first). */
  async update(profileId: string, p: { name: string; machine: Record<string, unknown> }): Promise<MachineProfileRow> {
    // Another profile of the company with the new name: refused (the unique key guards a race).
    const rows = await this.db.query(
      `UPDATE machine_profiles m SET name = $2, machine = $3::json, updated_at = now()
       WHERE m.profile_id = $1 AND NOT EXISTS (
         SELECT 1 FROM machine_profiles o WHERE o.company_id = m.company_id AND o.name = $2 AND o.profile_id <> $1)
       RETURNING *`,
      [profileId, p.name, JSON.stringify(p.machine)],
    );
    if (!rows[0]) throw new DuplicateProfileName(p.name);
    return toProfile(rows[0]);
  }

  async remove(profileId: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM machine_profiles WHERE profile_id = $1 RETURNING profile_id', [
      profileId,
    ]);
    return rows.length > 0;
  }
}
