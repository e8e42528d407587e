import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { monitorEventsProjector } from '../../../../projectors/monitor/monitor-events.projector.ts';
import { freshDatabase } from '../../../support/database.ts';

const at = '2026-01-01T00:00:00.000Z';
let position = 0;
const recorded = (id: string, event: string, user: string | null) =>
  ({
    id: `e${++position}`, type: 'MonitorEventRecorded', streamId: `monitorevent-${id}`, revision: 0, position: { commit: BigInt(position), prepare: BigInt(position) }, metadata: {}, createdAt: new Date(at),
    data: { monitor_event_id: id, source: 'monitor', delivery_id: id, event, category: 'playback', media_type: 'track', user, title: 'T', artist: null, album: null, server: null, player: null, raw: { event }, at },
  }) as unknown as StoredEvent;

describe('monitor events projector', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await freshDatabase();
  });
  after(() => database.close());

  const apply = (...events: StoredEvent[]) => database.db.transaction().execute((trx) => monitorEventsProjector.apply(trx, events));
  const state = async () => ({
    events: await database.db.selectFrom('monitor_events').select(['monitor_event_id', 'event', 'user_name', 'search_text']).orderBy('monitor_event_id').execute(),
    values: (await database.db.selectFrom('monitor_event_values').selectAll().orderBy('field').orderBy('value').execute()).map((v) => ({ ...v, events: Number(v.events) })),
  });

  it('given deliveries applied twice, then the rows and the value counts equal those after once', async () => {
    const batch = [recorded('a', 'play', 'Anna'), recorded('b', 'stop', 'Anna'), recorded('c', 'play', null)];
    await apply(...batch);
    const once = await state();
    await apply(...batch);
    await apply(batch[1]!);
    expect(await state()).to.deep.equal(once);
    expect(once.values).to.deep.equal([
      { field: 'category', value: 'playback', events: 3 },
      { field: 'event', value: 'play', events: 2 },
      { field: 'event', value: 'stop', events: 1 },
      { field: 'media_type', value: 'track', events: 3 },
      { field: 'user', value: 'Anna', events: 2 },
    ]);
    expect(once.events[0]!.search_text).to.equal('t\nanna\nplay');
  });
});
