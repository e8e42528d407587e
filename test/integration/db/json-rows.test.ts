import { expect } from 'chai';
import { sql } from 'kysely';
import { insertJsonRows } from '../../../infra/db/json-rows.ts';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { freshDatabase, takeDown } from '../../support/database.ts';

describe('rows written as one JSON parameter', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await freshDatabase();
  });
  after(async () => {
    await takeDown(database);
  });

  it('given rows of every column type, then they read back as a VALUES insert writes them, JSON text columns as JSON', async () => {
    const { db } = database;
    const linkedAt = new Date('2024-03-01T12:34:56.789Z');
    await insertJsonRows(db, 'external_refs', [
      { kind: 'track', source: 'scrobbler', external_id: `it's "quoted" \\ ünïcode`, entity_id: 'e1', evidence: JSON.stringify({ rule: 'isrc', value: 'X' }), linked_at: linkedAt },
      { kind: 'album', source: 'scrobbler', external_id: 'plain', entity_id: 'e2', evidence: JSON.stringify({ rule: 'new_entity', value: null }), linked_at: linkedAt },
    ], new Set(['evidence'])).execute();

    const rows = await db.selectFrom('external_refs').selectAll().orderBy('entity_id').execute();
    expect(rows.map((r) => [r.kind, r.external_id, r.entity_id, r.evidence])).to.deep.equal([
      ['track', `it's "quoted" \\ ünïcode`, 'e1', { rule: 'isrc', value: 'X' }],
      ['album', 'plain', 'e2', { rule: 'new_entity', value: null }],
    ]);
    expect(new Date(rows[0]!.linked_at as Date).toISOString()).to.equal(linkedAt.toISOString());
    const { rows: types } = await sql<{ t: string }>`select jsonb_typeof(evidence) as t from external_refs`.execute(db);
    expect(types.map((t) => t.t)).to.deep.equal(['object', 'object']);
  });

  it('given a conflict clause and returning, then they apply as on any insert, in one statement whatever the row count', async () => {
    const { db } = database;
    const upsert = (plays: number, keys: string[]) =>
      insertJsonRows(db, 'dashboard_days', keys.map((key) => ({ user_key: key, listener: 'l', day: 19_000, plays })))
        .onConflict((oc) => oc.columns(['user_key', 'listener', 'day']).doUpdateSet({ plays: sql`dashboard_days.plays + excluded.plays` }))
        .returning(['user_key', sql<boolean>`(xmax = 0)`.as('inserted')]);
    expect(upsert(1, ['a']).compile().sql).to.equal(upsert(1, ['a', 'b', 'c']).compile().sql);
    await upsert(2, ['a', 'b']).execute();
    const second = await upsert(3, ['b', 'c']).execute();
    expect(second.map((r) => [r.user_key, r.inserted]).sort()).to.deep.equal([['b', false], ['c', true]]);
    const days = await db.selectFrom('dashboard_days').select(['user_key', 'plays']).orderBy('user_key').execute();
    expect(days.map((d) => [d.user_key, Number(d.plays)])).to.deep.equal([['a', 2], ['b', 5], ['c', 3]]);
  });
});
