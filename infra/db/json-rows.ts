import { type Insertable, type QueryCreator, type RawBuilder, sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * Many rows written by one statement whose text depends on the columns only: the rows travel as
 * one JSON parameter, typed by the table's own row type (`json_populate_recordset`). Chain
 * `onConflict`/`returning` as on any insert.
 *
 * A multi-row VALUES list takes a parameter per cell, so its text changes with the row count and
 * PGlite parses and plans each one again, in WASM: for a projection batch's upsert of a few hundred
 * dashboard rows, several times the cost of writing them. The columns are the keys the rows carry
 * (a key a row lacks reads as SQL null, not as the column's default); JSON null reads as SQL null.
 * `jsonText` names columns whose values are JSON text already (jsonb written as `JSON.stringify`
 * output): they go into the parameter as JSON, not as strings.
 */
export function insertJsonRows<T extends keyof Database & string>(db: QueryCreator<Database>, table: T, rows: readonly Insertable<Database[T]>[], jsonText: ReadonlySet<string> = NONE) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row as object)))];
  return db
    .insertInto(table)
    .columns(columns as never)
    .expression(sql`select ${sql.join(columns.map((c) => sql.ref(`r.${c}`)))} from ${recordsetOf(table, rows as readonly object[], jsonText)} as r` as never);
}

/** `json_populate_recordset(null::table, $1)`: the rows as a relation, for a statement that reads them with more than a plain select. */
export function recordsetOf(table: string, rows: readonly object[], jsonText: ReadonlySet<string> = NONE): RawBuilder<unknown> {
  return sql`json_populate_recordset(null::${sql.table(table)}, ${rowsJson(rows, jsonText)}::json)`;
}

const NONE: ReadonlySet<string> = new Set();

function rowsJson(rows: readonly object[], jsonText: ReadonlySet<string>): string {
  if (jsonText.size === 0) return JSON.stringify(rows);
  const out: string[] = [];
  for (const row of rows) {
    const fields: string[] = [];
    for (const [key, value] of Object.entries(row)) {
      if (value === undefined) continue;
      fields.push(`${JSON.stringify(key)}:${jsonText.has(key) && typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
    out.push(`{${fields.join(',')}}`);
  }
  return `[${out.join(',')}]`;
}

/** A json column's array: parsed by the driver, or its text (as PGlite's simple queries may answer it); null is empty. */
export function jsonArray<T>(value: T[] | string | null): T[] {
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : (value ?? []);
}
