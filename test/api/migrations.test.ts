/**
 * Migrations already applied in the wild keep their effect: `migrate()` records a version once and
 * never runs it again, so an edit to an applied migration would reach new databases only, and
 * stores made before and after it would differ. Each migration's SQL is therefore pinned, byte for
 * byte, by a SHA-256 recorded when it was added (`migrations.record.json`). A new migration is
 * appended to the record with `MIGRATIONS_RECORD=1 npx vitest run test/api/migrations.test.ts`;
 * that flag never rewrites a recorded version.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from '@furrow/api';

const recordFile = fileURLToPath(new URL('./migrations.record.json', import.meta.url));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('migrations', () => {
  it('keeps the SQL of every recorded migration byte for byte', () => {
    const record: Record<string, string> = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : {};
    const current = Object.fromEntries(migrations.map((m) => [String(m.version), sha256(m.sql)]));
    if (process.env.MIGRATIONS_RECORD === '1') {
      const appended = { ...current, ...record };
      writeFileSync(recordFile, `${JSON.stringify(appended, null, 2)}\n`);
      Object.assign(record, appended);
    }
    for (const [version, digest] of Object.entries(record)) {
      expect(current[version], `migration ${version} was removed or its SQL changed`).toBe(digest);
    }
    expect(
      Object.keys(current).filter((v) => !(v in record)),
      'migrations not in the record (append them with MIGRATIONS_RECORD=1)',
    ).toEqual([]);
  });

  it('numbers versions in order, without gaps', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });
});
