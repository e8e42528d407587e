import { expect } from 'chai';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { CheckpointMoved, readCheckpoints, saveCheckpoints } from '../../../infra/projections/checkpoints.ts';
import { freshDatabase } from '../../support/database.ts';

describe('a batch’s checkpoint write (the set half of its compare-and-set)', () => {
  let database: DatabaseHandle;
  const at = (prepare: number) => ({ commit: 7n, prepare: BigInt(prepare) });
  const checkpoint = (name: string, prepare: number) => ({ name, version: 1, position: at(prepare), state: 'live' as const });
  const positionOf = async (name: string) => (await readCheckpoints(database.db)).get(name)?.position;

  beforeEach(async () => {
    database = await freshDatabase();
    await saveCheckpoints(database.db, [checkpoint('ahead', 20), checkpoint('behind', 5)]);
  });
  afterEach(() => database.close());

  it('given checkpoints at or before where the batch started, then it moves them and new ones are written', async () => {
    await database.db.transaction().execute((trx) => saveCheckpoints(trx, [checkpoint('behind', 30), checkpoint('new', 30)], at(5)));
    expect(await positionOf('behind')).to.deep.equal(at(30));
    expect(await positionOf('new')).to.deep.equal(at(30));
  });

  it('given one already past where the batch started, then it throws CheckpointMoved naming it and the batch writes nothing', async () => {
    let thrown: unknown;
    await database.db
      .transaction()
      .execute((trx) => saveCheckpoints(trx, [checkpoint('behind', 30), checkpoint('ahead', 30)], at(10)))
      .catch((error: unknown) => (thrown = error));
    expect(thrown).to.be.instanceOf(CheckpointMoved);
    expect((thrown as CheckpointMoved).projectors).to.deep.equal(['ahead']);
    expect(await positionOf('behind')).to.deep.equal(at(5));
    expect(await positionOf('ahead')).to.deep.equal(at(20));
  });

  it('compares positions as numbers, not as text (9 before 10, a later commit after any earlier one)', async () => {
    await saveCheckpoints(database.db, [checkpoint('nine', 9)]);
    await database.db.transaction().execute((trx) => saveCheckpoints(trx, [checkpoint('nine', 12)], at(10)));
    expect(await positionOf('nine')).to.deep.equal(at(12));
    await saveCheckpoints(database.db, [{ ...checkpoint('later', 1), position: { commit: 8n, prepare: 1n } }]);
    let thrown: unknown;
    await saveCheckpoints(database.db, [checkpoint('later', 200)], at(100)).catch((error: unknown) => (thrown = error));
    expect(thrown).to.be.instanceOf(CheckpointMoved);
  });
});
