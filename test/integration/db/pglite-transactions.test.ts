import { expect } from 'chai';
import { sql } from 'kysely';
import { engineUnderTest, freshDatabase } from '../../support/database.ts';

/** PGlite on its own thread: a transaction's begin travels with its first statement. */
describe('embedded database: transactions whose begin goes with the first statement', () => {
  if (engineUnderTest !== 'pglite') return;
  let database: Awaited<ReturnType<typeof freshDatabase>>;

  before(async () => {
    database = await freshDatabase();
    await sql`create table notes (id int primary key)`.execute(database.db);
  });
  after(async () => {
    await sql`drop table notes`.execute(database.db);
    await database.close();
  });

  const ids = async () => (await database.db.selectFrom('notes' as never).select('id' as never).orderBy('id' as never).execute()).map((r) => (r as { id: number }).id);

  it('when a transaction throws after its first statements, then none of them stays', async () => {
    const failing = database.db.transaction().execute(async (trx) => {
      await sql`insert into notes values (1)`.execute(trx);
      await sql`insert into notes values (2)`.execute(trx);
      throw new Error('changed my mind');
    });
    expect(await failing.catch((error: Error) => error.message)).to.equal('changed my mind');
    expect(await ids()).to.deep.equal([]);
  });

  it('when the first statement fails, then the transaction rolls back and the connection serves the next one', async () => {
    const failed = await database.db.transaction().execute((trx) => sql`insert into notes values (null)`.execute(trx)).then(() => undefined, (error: { code?: string }) => error.code);
    expect(failed).to.equal('23502');
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into notes values (3)`.execute(trx);
      await sql`insert into notes values (4)`.execute(trx);
    });
    expect(await ids()).to.deep.equal([3, 4]);
  });

  it('when a transaction runs no statement, then nothing is left open', async () => {
    await database.db.transaction().execute(async () => {});
    // A local setting outlives its statement only inside a transaction.
    await sql`select set_config('notes.probe', 'open', true)`.execute(database.db);
    const { rows } = await sql<{ probe: string | null }>`select current_setting('notes.probe', true) as probe`.execute(database.db);
    expect(rows[0]!.probe ?? '').to.equal('');
  });
});
