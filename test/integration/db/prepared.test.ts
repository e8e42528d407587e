import { expect } from 'chai';
import { Kysely, sql } from 'kysely';
import { executePrepared } from '../../../infra/db/prepared.ts';
import { PGliteDialect } from '../../../infra/db/pglite-dialect.ts';
import type { Database } from '../../../infra/db/database.ts';
import { engineUnderTest, freshDatabase } from '../../support/database.ts';

describe('a read run as a prepared statement', () => {
  const statement = (db: Kysely<Database>, name: string, limit: number) =>
    sql<{ n: number; name: string }>`select g as n, ${name}::text || g as name from generate_series(1, 10) g order by g limit ${limit}`.compile(db);

  it('answers what the statement answers run as is, for every value, quotes included', async () => {
    const database = await freshDatabase();
    try {
      const { db, engine } = database;
      for (const [name, limit] of [['a', 3], ["it's", 2], ['a', 5]] as const) {
        const direct = await db.executeQuery(statement(db, name, limit));
        expect((await executePrepared(db, engine, statement(db, name, limit))).rows).to.deep.equal(direct.rows);
      }
    } finally {
      await database.close();
    }
  });

  it('passes arrays of text and numbers as they were, whatever their strings hold', async () => {
    // One connection on PostgreSQL, so that the session asked is the one that prepared it.
    const database = await freshDatabase({ max: 1 });
    try {
      const { db, engine } = database;
      const texts = ['plain', "it's", 'a "quoted" word', 'back\\slash', 'comma, {braces}', '', 'NULL', 'ünï'];
      const numbers = [0, -3, 2.5, 1e6];
      const arrays = sql<{ texts: string[]; numbers: number[] }>`select ${texts}::text[] as texts, ${numbers}::float8[] as numbers`.compile(db);
      expect((await executePrepared(db, engine, arrays)).rows).to.deep.equal([{ texts, numbers }]);
      const prepared = sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%as num' || 'bers%'`.compile(db);
      expect((await executePrepared(db, engine, prepared)).rows[0]!.n).to.equal(1);
    } finally {
      await database.close();
    }
  });

  it('keeps one generic plan for every value, and leaves the other statements planned with their values', async () => {
    // One connection per pool on PostgreSQL, so that the sessions asked are the ones that ran the statements.
    const database = await freshDatabase({ max: 1 });
    try {
      const { db, engine } = database;
      const firsts = (limit: number) => sql<{ n: number }>`select g as n from generate_series(1, 10) as firsts(g) order by g limit ${limit}`.compile(db);
      for (const limit of [1, 4, 2, 3, 5, 1, 4]) expect((await executePrepared(db, engine, firsts(limit))).rows).to.have.length(limit);
      const plans = sql<{ generic_plans: number; custom_plans: number }>`
        select generic_plans::int, custom_plans::int from pg_prepared_statements where statement like '%as fir' || 'sts(g)%'`.compile(db);
      // Left to itself, PostgreSQL plans at least the first five executions with their values.
      expect((await executePrepared(db, engine, plans)).rows).to.deep.equal([{ generic_plans: 7, custom_plans: 0 }]);
      const mode = await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(db);
      expect(mode.rows).to.deep.equal([{ mode: 'auto' }]);
      if (engine === 'postgres') {
        const named = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(db);
        expect(named.rows[0]!.n, 'statements of the main pool go unnamed').to.equal(0);
      }
    } finally {
      await database.close();
    }
  });

  it('on the embedded database, prepares again when the session forgot it, and takes over a name another handle prepared', async () => {
    if (engineUnderTest !== 'pglite') return;
    const database = await freshDatabase();
    try {
      const { db, engine } = database;
      await executePrepared(db, engine, statement(db, 'x', 1));
      await sql`deallocate all`.execute(db);
      expect((await executePrepared(db, engine, statement(db, 'x', 2))).rows).to.deep.equal([{ n: 1, name: 'x1' }, { n: 2, name: 'x2' }]);
      // A second handle on the same instance (a test's pooled PGlite) finds the name taken.
      const other = new Kysely<Database>({ dialect: new PGliteDialect(database.pglite!) });
      expect((await executePrepared(other, engine, statement(other, 'y', 1))).rows).to.deep.equal([{ n: 1, name: 'y1' }]);
    } finally {
      await database.close();
    }
  });
});
