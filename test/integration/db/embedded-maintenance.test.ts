import { expect } from 'chai';
import { sql } from 'kysely';
import { maintain } from '../../../infra/db/embedded-maintenance.ts';
import { engineUnderTest, freshDatabase } from '../../support/database.ts';

describe('embedded database maintenance (what autovacuum would do)', () => {
  // PostgreSQL runs its own autovacuum; PGlite runs none.
  if (engineUnderTest !== 'pglite') return;

  async function tableState(db: Awaited<ReturnType<typeof freshDatabase>>['db'], table: string) {
    // Counters reach the statistics at most once a second unless told to.
    await sql`select pg_stat_force_next_flush()`.execute(db);
    const { rows } = await sql<{ dead: number; analyzed: boolean; vacuumed: boolean }>`
      select n_dead_tup::int as dead, last_analyze is not null as analyzed, last_vacuum is not null as vacuumed
      from pg_stat_user_tables where relname = ${table}`.execute(db);
    return rows[0]!;
  }

  it('given a table rewritten by counter updates, when maintenance runs, then it is vacuumed and analyzed, and a quiet table is left alone', async () => {
    const database = await freshDatabase();
    try {
      const { db } = database;
      await sql`create table counters (id int primary key, plays int not null)`.execute(db);
      await sql`insert into counters select g, 0 from generate_series(1, 2000) g`.execute(db);
      for (let i = 0; i < 3; i++) await sql`update counters set plays = plays + 1`.execute(db);
      await sql`create table quiet (id int primary key)`.execute(db);
      await sql`insert into quiet values (1)`.execute(db);
      expect((await tableState(db, 'counters')).dead).to.be.above(1000);

      await sql`select pg_stat_force_next_flush()`.execute(db);
      let quietMoments = 0;
      await maintain(db, async () => void quietMoments++);

      const counters = await tableState(db, 'counters');
      expect(counters).to.include({ analyzed: true, vacuumed: true });
      expect(counters.dead).to.be.below(50);
      expect(await tableState(db, 'quiet')).to.include({ analyzed: false, vacuumed: false });
      expect(quietMoments).to.be.at.least(1);
    } finally {
      await database.close();
    }
  });

  it('given nothing written since a run, when maintenance runs again, then it does nothing; after a write it runs', async () => {
    const database = await freshDatabase();
    try {
      const { db } = database;
      const logEnd = async () => (await sql<{ at: string }>`select pg_current_wal_insert_lsn()::text as at`.execute(db)).rows[0]!.at;
      await sql`create table plays (id int primary key)`.execute(db);
      // A run's own VACUUM and ANALYZE write after its checkpoint: the run after them finds work still.
      let seen = await maintain(db, async () => {});
      seen = await maintain(db, async () => {}, seen);

      // A checkpoint writes a record of its own: the log's end would move.
      expect(await maintain(db, async () => {}, seen)).to.equal(seen);
      expect(await logEnd()).to.equal(seen);

      await sql`insert into plays values (1)`.execute(db);
      const after = await maintain(db, async () => {}, seen);
      expect(after).to.not.equal(seen);
      expect(await logEnd()).to.equal(after);
    } finally {
      await database.close();
    }
  });
});
