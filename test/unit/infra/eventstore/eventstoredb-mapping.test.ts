import { PassThrough } from 'node:stream';
import {
  ANY,
  MaxAppendSizeExceededError,
  NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { expect } from 'chai';
import { START, WrongExpectedVersionError } from '../../../../infra/eventstore/event-store.ts';
import {
  isSystemEvent,
  readBatches,
  toEventData,
  toExpectedRevision,
  toPortError,
  toReadPosition,
  toRecordedEvent,
} from '../../../../infra/eventstore/eventstoredb/mapping.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function esdbEvent(overrides: Partial<EsdbRecordedEvent> = {}): EsdbRecordedEvent {
  return {
    streamId: 'artist-1',
    id: '5f0c3c9e-8f1a-4b9e-9d7e-2f6f1b0c1a11',
    isJson: true,
    revision: 3n,
    type: 'ArtistAdded',
    created: new Date('2024-05-01T10:00:00Z'),
    data: { name: 'Nina' },
    metadata: { actor: 'user-1', correlation_id: 'c' },
    position: { commit: 120n, prepare: 110n },
    ...overrides,
  } as EsdbRecordedEvent;
}

describe('eventstoredb mapping', () => {
  it('maps expected revisions', () => {
    expect(toExpectedRevision('any')).to.equal(ANY);
    expect(toExpectedRevision('no_stream')).to.equal(NO_STREAM);
    expect(toExpectedRevision('stream_exists')).to.equal(STREAM_EXISTS);
    expect(toExpectedRevision(0)).to.equal(0n);
    expect(toExpectedRevision(41)).to.equal(41n);
  });

  it('reads from the symbolic start for START, from the pair otherwise', () => {
    expect(toReadPosition(START)).to.equal(ESDB_START);
    expect(toReadPosition({ commit: 7n, prepare: 5n })).to.deep.equal({ commit: 7n, prepare: 5n });
  });

  it('tells system events apart', () => {
    expect(isSystemEvent('$metadata')).to.equal(true);
    expect(isSystemEvent('$>')).to.equal(true);
    expect(isSystemEvent('ArtistAdded')).to.equal(false);
  });

  it('turns a new event into JSON event data with a UUID and a timestamp', () => {
    const data = toEventData({ type: 'ArtistAdded', data: { name: 'Nina' }, metadata: { actor: 'user-1' } });
    expect(data.id).to.match(UUID);
    expect(data.contentType).to.equal('application/json');
    expect(data.type).to.equal('ArtistAdded');
    expect(data.data).to.deep.equal({ name: 'Nina' });
    expect(data.metadata).to.include({ actor: 'user-1' }).and.to.have.property('at').that.is.a('string');
  });

  it('keeps a given event id and a given time', () => {
    const id = '0b9d2b8e-3c3f-4a51-8a3e-6f1f0c7b2d40';
    const data = toEventData({ id, type: 'T', data: {}, metadata: { at: '2024-01-01T00:00:00.000Z' } });
    expect(data.id).to.equal(id);
    expect(data.metadata).to.deep.equal({ at: '2024-01-01T00:00:00.000Z' });
  });

  it('maps a recorded event', () => {
    expect(toRecordedEvent(esdbEvent())).to.deep.equal({
      id: '5f0c3c9e-8f1a-4b9e-9d7e-2f6f1b0c1a11',
      type: 'ArtistAdded',
      streamId: 'artist-1',
      revision: 3,
      position: { commit: 120n, prepare: 110n },
      data: { name: 'Nina' },
      metadata: { actor: 'user-1', correlation_id: 'c' },
      createdAt: new Date('2024-05-01T10:00:00Z'),
    });
  });

  it('gives empty metadata when there is none or it is not a JSON object', () => {
    expect(toRecordedEvent(esdbEvent({ metadata: undefined })).metadata).to.deep.equal({});
    expect(toRecordedEvent(esdbEvent({ metadata: new Uint8Array([1, 2]) })).metadata).to.deep.equal({});
    expect(toRecordedEvent(esdbEvent({ metadata: ['a'] })).metadata).to.deep.equal({});
  });

  it('refuses an event without a position', () => {
    expect(() => toRecordedEvent(esdbEvent({ position: undefined }))).to.throw(/no position/);
  });

  it("turns the client's conflict into the port's", () => {
    const conflict = (current: bigint | typeof NO_STREAM) =>
      new EsdbWrongExpectedVersionError(undefined, { streamName: 'user-x', expected: NO_STREAM, current });
    const existing = toPortError(conflict(4n), 'user-x', 'no_stream');
    expect(existing).to.be.instanceOf(WrongExpectedVersionError).and.include({ streamId: 'user-x', expected: 'no_stream', actual: 4 });
    const missing = toPortError(conflict(NO_STREAM), 'user-x', 2);
    expect(missing).to.be.instanceOf(WrongExpectedVersionError).and.include({ expected: 2, actual: 'no_stream' });
    const other = new Error('unavailable');
    expect(toPortError(other, 'user-x', 'any')).to.equal(other);
  });

  it('names the stream and the limit of a write over the server\'s maximum append size', () => {
    const refused = toPortError(MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576), 'streamer-mirror-x', 'any') as Error;
    expect(refused.message).to.include('streamer-mirror-x').and.include('1048576').and.include('MaxAppendSize');
  });
});

describe('eventstoredb readBatches', () => {
  const source = () => new PassThrough({ objectMode: true });

  it('hands over what is buffered without waiting for a full batch', async () => {
    const stream = source();
    const batches = readBatches<number>(stream, 3, new AbortController().signal);
    for (const n of [1, 2, 3, 4, 5]) stream.write(n);
    expect((await batches.next()).value).to.deep.equal([1, 2, 3]);
    expect((await batches.next()).value).to.deep.equal([4, 5]);
    const next = batches.next();
    setImmediate(() => stream.write(6));
    expect((await next).value).to.deep.equal([6]);
    stream.end();
    expect((await batches.next()).done).to.equal(true);
  });

  it('ends when the signal aborts', async () => {
    const stopper = new AbortController();
    const batches = readBatches<number>(source(), 10, stopper.signal);
    const next = batches.next();
    stopper.abort();
    expect((await next).done).to.equal(true);
  });

  it('throws what the stream emits as an error', async () => {
    const stream = source();
    const batches = readBatches<number>(stream, 10, new AbortController().signal);
    const next = batches.next();
    setImmediate(() => stream.emit('error', new Error('dropped')));
    let failure: unknown;
    await next.catch((error: unknown) => (failure = error));
    expect(failure).to.have.property('message', 'dropped');
  });
});
