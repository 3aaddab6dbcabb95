/**
 * Rows as the API's objects: one declarative mapper for every table. A row type is written once,
 * as its properties' column kinds (`{ userId: text, email: textOrNull, createdAt: iso }`); the
 * column of a property is its name in snake case (`createdAt` ← `created_at`) unless named with
 * `from`. The kinds absorb what the two backends hand over differently (PGlite and `pg` give
 * timestamps as `Date`, json as text or as parsed values).
 */

/** One column's kind: how its value becomes a property, and the column when not the property's name. */
export interface Column<T> {
  readonly read: (value: unknown) => T;
  readonly column?: string;
}

export type Row = Record<string, unknown>;

const isNull = (v: unknown): v is null | undefined => v === null || v === undefined;
const isoOf = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

export const text: Column<string> = { read: (v) => String(v) };
export const textOrNull: Column<string | null> = { read: (v) => (isNull(v) ? null : String(v)) };
export const bool: Column<boolean> = { read: (v) => Boolean(v) };
/** Integers (bigint and count(*) come as text from `pg`). */
export const int: Column<number> = { read: (v) => Number(v) };
/** A timestamp as ISO 8601 text. */
export const iso: Column<string> = { read: isoOf };
export const isoOrNull: Column<string | null> = { read: (v) => (isNull(v) ? null : isoOf(v)) };
/** A json or jsonb column as the value it holds (`T` is what the writer stored). */
export const json = <T>(): Column<T> => ({ read: (v) => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T)) });

/** `kind`, read from `column` instead of the property's snake-case name. */
export const from = <T>(column: string, kind: Column<T>): Column<T> => ({ ...kind, column });

type Columns = Record<string, Column<unknown>>;

/** The object a mapper of `C` makes. */
export type RowOf<C extends Columns> = { [K in keyof C]: C[K] extends Column<infer T> ? T : never };

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A function from a row to the object `columns` describes. */
export function rowMapper<C extends Columns>(columns: C): (r: Row) => RowOf<C> {
  const plan = Object.entries(columns).map(([property, kind]) => ({
    property,
    column: kind.column ?? snakeCase(property),
    read: kind.read,
  }));
  return (r) => {
    const out: Record<string, unknown> = {};
    for (const { property, column, read } of plan) out[property] = read(r[column]);
    return out as RowOf<C>;
  };
}
