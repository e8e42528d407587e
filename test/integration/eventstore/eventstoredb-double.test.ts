import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  type Position,
  StreamNotFoundError,
  eventTypeFilter,
  jsonEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import { expect } from 'chai';
import { type EventStoreDbDouble, startEventStoreDb } from '../../fakes/eventstoredb/server.ts';

/** The double answers the client's calls as a server would, beyond what the adapter uses today. */
describe('EventStoreDB double, through @eventstore/db-client', () => {
  let server: EventStoreDbDouble;
  let client: EventStoreDBClient;
  before(async () => {
    server = await startEventStoreDb();
    client = EventStoreDBClient.connectionString(server.url);
    await client.appendToStream('album-1', [jsonEvent({ type: 'AlbumAdded', data: { n: 1 } }), jsonEvent({ type: 'AlbumRenamed', data: { n: 2 } })]);
    await client.appendToStream('track-1', [jsonEvent({ type: 'TrackAdded', data: { n: 3 } })]);
  });
  after(async () => {
    await client.dispose();
    await server.close();
  });

  const collect = async <T>(read: AsyncIterable<T>) => {
    const items: T[] = [];
    for await (const item of read) items.push(item);
    return items;
  };

  it('positions are log offsets: one write shares its commit position, each event has its own prepare position', async () => {
    const events = (await collect(client.readStream('album-1'))).map((e) => e.event!);
    expect(events.map((e) => e.revision)).to.deep.equal([0n, 1n]);
    const [first, second] = events.map((e) => e.position!);
    expect(second!.commit).to.equal(first!.commit);
    expect(second!.prepare > first!.prepare + 1n).to.equal(true);
  });

  it('reads a stream backwards from its end, and tells a missing stream apart', async () => {
    const last = await collect(client.readStream('album-1', { direction: BACKWARDS, fromRevision: END, maxCount: 1 }));
    expect(last.map((e) => e.event!.type)).to.deep.equal(['AlbumRenamed']);
    let error: unknown;
    try {
      await collect(client.readStream('album-404'));
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(StreamNotFoundError);
  });

  it('reads $all backwards from the end, past the events the server wrote for itself', async () => {
    const all = await collect(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 10 }));
    expect(all.map((e) => e.event!.type)).to.deep.equal(['TrackAdded', 'AlbumRenamed', 'AlbumAdded', '$statsCollected', '$metadata']);
  });

  it('a subscription filtered on stream prefixes confirms, catches up, reports checkpoints, then goes live', async () => {
    const checkpoints: Position[] = [];
    const subscription = client.subscribeToAll({
      filter: streamNameFilter({ prefixes: ['track-'], maxSearchWindow: 1, checkpointInterval: 1, checkpointReached: (_s, position) => void checkpoints.push(position) }),
    });
    const caughtUp = new Promise((resolve) => subscription.once('caughtUp', resolve));
    const seen: string[] = [];
    const done = (async () => {
      for await (const { event } of subscription) {
        seen.push(event!.streamId);
        if (seen.length === 2) break;
      }
    })();
    await caughtUp;
    await client.appendToStream('album-2', [jsonEvent({ type: 'AlbumAdded', data: {} })]);
    await client.appendToStream('track-2', [jsonEvent({ type: 'TrackAdded', data: {} })]);
    await done;
    expect(seen).to.deep.equal(['track-1', 'track-2']);
    // One per searched event (a window of one): the two system events and every stream are searched.
    expect(checkpoints.length).to.be.at.least(5);
    for (let i = 1; i < checkpoints.length; i++) expect(checkpoints[i]!.prepare > checkpoints[i - 1]!.prepare).to.equal(true);
  });

  it('a subscription filtered on event types by regex sees only those types', async () => {
    const subscription = client.subscribeToAll({ filter: eventTypeFilter({ regex: '^Album' }) });
    const types: string[] = [];
    for await (const { event } of subscription) {
      types.push(event!.type);
      if (types.length === 3) break;
    }
    expect(types).to.deep.equal(['AlbumAdded', 'AlbumRenamed', 'AlbumAdded']);
  });
});
