import { CompiledQuery, type Kysely, type QueryResult, sql } from 'kysely';
import type { Engine } from './create-db.ts';
import { nameOf, preparedHandleOf } from './named-statements.ts';

/** SQLSTATEs: the name is taken (another handle on the same instance prepared it), the name is unknown (a new session). */
const DUPLICATE_PREPARED = '42P05';
const UNKNOWN_PREPARED = '26000';
/** Statements are few shapes (kind, sort, filter, ... are parameters or fixed text); past this, run the rest unprepared. */
const MAX_PREPARED = 300;

// Per database handle: names prepared in its session (PGlite has one); on PostgreSQL the texts sent named.
const preparedBy = new WeakMap<object, Set<string>>();
const namedBy = new WeakMap<object, Set<string>>();

/**
 * Runs a statement repeated with other values (a library page, a search, the log's append) as a
 * prepared statement with one generic plan: parsed and planned once per session, not on every
 * call. Only for statements whose best plan does not depend on the values. Not inside a
 * transaction: a name another handle prepared is refused there, and the refusal would abort it.
 *
 * The plan is kept by `plan_cache_mode = force_generic_plan`, set for the execution only: left to
 * itself, PostgreSQL planned such a statement again at every execution, since it estimated the
 * generic plan a little above the custom ones (a page's kind is a parameter), and planning was
 * 0.2-0.3 ms of a page's 0.5 on PostgreSQL, 0.35 ms of 1.3 on PGlite.
 *
 * - PGlite parses and plans every statement it is sent, in WASM: for a page of 40 named JSON
 *   columns that cost about what running it does. Its one session keeps the statement prepared by
 *   name (a hash of the text) for every later call, which sends `EXECUTE` with the values as
 *   literals, after a `SET LOCAL` of the plan mode in the same message (its implicit transaction
 *   ends with the statement, and the setting with it).
 * - On PostgreSQL the statement goes as a named statement of the driver, on the pool whose sessions
 *   keep generic plans (`runPreparedOn`, ./named-statements.ts): each connection parses and plans it
 *   once and binds the values after.
 */
export async function executePrepared<R>(db: Kysely<any>, engine: Engine, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  if (engine === 'postgres') {
    const prepared = preparedHandleOf(db);
    const texts = namedBy.get(db) ?? new Set<string>();
    namedBy.set(db, texts);
    if (!prepared || (!texts.has(query.sql) && texts.size >= MAX_PREPARED)) return db.executeQuery(query);
    texts.add(query.sql);
    return prepared.executeQuery(query);
  }
  const args = literals(query.parameters);
  const names = preparedBy.get(db) ?? new Set<string>();
  preparedBy.set(db, names);
  const name = nameOf(query.sql);
  if (!args || (!names.has(name) && names.size >= MAX_PREPARED)) return db.executeQuery(query);
  const values = args.length > 0 ? `(${args.join(', ')})` : '';
  // No parameters, so the dialect sends it as one simple query (./pglite-dialect.ts): two statements may share it.
  const execute = () => db.executeQuery<R>(CompiledQuery.raw(`set local plan_cache_mode = force_generic_plan; execute ${name}${values}`));
  if (!names.has(name)) await prepare(db, name, query.sql);
  names.add(name);
  try {
    return await execute();
  } catch (error) {
    if (codeOf(error) !== UNKNOWN_PREPARED) throw error;
    await prepare(db, name, query.sql);
    return execute();
  }
}

async function prepare(db: Kysely<any>, name: string, text: string): Promise<void> {
  try {
    await sql`prepare ${sql.id(name)} as ${sql.raw(text)}`.execute(db);
  } catch (error) {
    if (codeOf(error) !== DUPLICATE_PREPARED) throw error;
  }
}

/** The values as SQL literals, or undefined when one has no plain literal form (it then runs unprepared). */
function literals(values: readonly unknown[]): string[] | undefined {
  const out: string[] = [];
  for (const value of values) {
    if (value === null) out.push('null');
    else if (typeof value === 'number' && Number.isFinite(value)) out.push(String(value));
    else if (typeof value === 'boolean') out.push(String(value));
    else if (typeof value === 'string' && !value.includes('\0')) out.push(quoted(value));
    else if (Array.isArray(value) && value.every(isArrayItem)) out.push(quoted(`{${value.map(arrayItem).join(',')}}`));
    else return undefined;
  }
  return out;
}

// standard_conforming_strings is on: only the quote needs doubling.
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
const isArrayItem = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && !v.includes('\0'));
/** An element of an array's text form: numbers as they print, strings double-quoted with `"` and `\` escaped. */
const arrayItem = (v: unknown) => (typeof v === 'number' ? String(v) : `"${(v as string).replace(/["\\]/g, '\\$&')}"`);

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
