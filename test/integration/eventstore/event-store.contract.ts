import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  type EventStore,
  type Position,
  type RecordedEvent,
  START,
  WrongExpectedVersionError,
  comparePositions,
} from '../../../infra/eventstore/event-store.ts';

export interface StoreUnderTest {
  store: EventStore;
  close(): Promise<void>;
}

const stream = (category = 'contract') => `${category}-${randomUUID()}`;
const ev = (n: number) => ({ type: 'ContractTested', data: { n } });

async function rejectsWith(promise: Promise<unknown>, type: new (...args: any[]) => Error): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Collects events from a subscription until `until` holds or the time runs out. */
async function collect(store: EventStore, after: Position, until: (seen: RecordedEvent[]) => boolean, timeoutMs = 10_000, withDataOf?: string[]) {
  const seen: RecordedEvent[] = [];
  const subscription = store.subscribeToAll({ after, batchSize: 50, withDataOf });
  const timer = setTimeout(() => void subscription.stop(), timeoutMs);
  for await (const batch of subscription) {
    seen.push(...batch);
    if (until(seen)) break;
  }
  clearTimeout(timer);
  await subscription.stop();
  return seen;
}

/** The behaviour every EventStore adapter must have. Run once per adapter. */
export function eventStoreContract(name: string, open: () => Promise<StoreUnderTest>, options: { concurrentWriters: boolean }) {
  describe(`EventStore contract: ${name}`, function () {
    let subject: StoreUnderTest;
    let store: EventStore;
    before(async () => {
      subject = await open();
      store = subject.store;
    });
    after(() => subject.close());

    describe('append with an expected revision', () => {
      it('no_stream creates a stream and refuses an existing one', async () => {
        const s = stream();
        const first = await store.append(s, [ev(1), ev(2)], 'no_stream');
        expect(first.nextRevision).to.equal(1);
        const error = await rejectsWith(store.append(s, [ev(3)], 'no_stream'), WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).to.equal(1);
      });

      it('an exact revision appends only at that revision', async () => {
        const s = stream();
        await store.append(s, [ev(1)], 'no_stream');
        expect((await store.append(s, [ev(2)], 0)).nextRevision).to.equal(1);
        await rejectsWith(store.append(s, [ev(3)], 0), WrongExpectedVersionError);
        await rejectsWith(store.append(stream(), [ev(1)], 0), WrongExpectedVersionError);
      });

      it('stream_exists needs the stream, any takes anything', async () => {
        const s = stream();
        await rejectsWith(store.append(s, [ev(1)], 'stream_exists'), WrongExpectedVersionError);
        await store.append(s, [ev(1)], 'any');
        await store.append(s, [ev(2)], 'any');
        expect((await store.append(s, [ev(3)], 'stream_exists')).nextRevision).to.equal(2);
      });

      it('two concurrent claims of one stream: exactly one wins', async () => {
        const s = stream('claim');
        const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => store.append(s, [ev(i)], 'no_stream')));
        expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
        for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason).to.be.instanceOf(WrongExpectedVersionError);
        expect(await store.readStream(s)).to.have.length(1);
      });
    });

    describe('reading', () => {
      it('reads a stream in revision order with its data and metadata', async () => {
        const s = stream();
        const id = randomUUID();
        await store.append(s, [{ id, type: 'ContractTested', data: { n: 1, text: 'Motörhead' }, metadata: { actor: 'alice', correlation_id: 'c1' } }, ev(2)], 'no_stream');
        const events = await store.readStream(s);
        expect(events.map((e) => e.revision)).to.deep.equal([0, 1]);
        expect(events[0]).to.include({ id, type: 'ContractTested', streamId: s });
        expect(events[0]!.data).to.deep.equal({ n: 1, text: 'Motörhead' });
        expect(events[0]!.metadata).to.include({ actor: 'alice', correlation_id: 'c1' });
        expect(events[0]!.createdAt).to.be.instanceOf(Date);
        expect(await store.readStream(s, { fromRevision: 1 })).to.have.length(1);
      });

      it('an unknown stream reads empty', async () => {
        expect(await store.readStream(stream())).to.deep.equal([]);
      });

      it('reads all after a position, in log order, without the position itself', async () => {
        const head = await store.headPosition();
        const a = stream();
        const b = stream();
        await store.append(a, [ev(1)], 'no_stream');
        await store.append(b, [ev(2), ev(3)], 'no_stream');
        const all = (await store.readAll({ after: head, maxCount: 100 })).filter((e) => e.streamId === a || e.streamId === b);
        expect(all.map((e) => (e.data as { n: number }).n)).to.deep.equal([1, 2, 3]);
        for (let i = 1; i < all.length; i++) expect(comparePositions(all[i - 1]!.position, all[i]!.position)).to.equal(-1);
        const rest = await store.readAll({ after: all[0]!.position, maxCount: 100 });
        expect(rest.map((e) => e.id)).to.not.include(all[0]!.id);
        expect(rest.map((e) => e.id)).to.include(all[1]!.id);
        expect(comparePositions(await store.headPosition(), all[2]!.position)).to.be.at.least(0);
      });

      it('a reader that names the types whose data it needs still gets every event, in order, with that data', async () => {
        const head = await store.headPosition();
        const s = stream();
        await store.append(s, [ev(1), { type: 'ContractSkipped', data: { n: 2 } }, ev(3)], 'no_stream');
        const read = (await store.readAll({ after: head, maxCount: 100, withDataOf: ['ContractTested'] })).filter((e) => e.streamId === s);
        expect(read.map((e) => e.type)).to.deep.equal(['ContractTested', 'ContractSkipped', 'ContractTested']);
        expect(read.filter((e) => e.type === 'ContractTested').map((e) => e.data)).to.deep.equal([{ n: 1 }, { n: 3 }]);
        const waited = await collect(store, head, (events) => events.some((e) => e.streamId === s), 10_000, []);
        expect(waited.find((e) => e.streamId === s)?.type).to.equal('ContractTested');
      });

      it('appendMany writes several streams and answers the last position', async () => {
        const head = await store.headPosition();
        const streams = [stream(), stream()];
        const result = await store.appendMany(streams.map((streamId, i) => ({ streamId, events: [ev(i)], expectedRevision: 'no_stream' as const })));
        const all = (await store.readAll({ after: head, maxCount: 100 })).filter((e) => streams.includes(e.streamId));
        expect(all).to.have.length(2);
        expect(comparePositions(result.position, all[1]!.position)).to.equal(0);
      });
    });

    describe('subscribing to all', () => {
      it('catches up, then goes live', async () => {
        const head = await store.headPosition();
        const s = stream();
        await store.append(s, [ev(1), ev(2)], 'no_stream');
        const live = (async () => {
          await new Promise((r) => setTimeout(r, 200));
          await store.append(s, [ev(3)], 1);
        })();
        const seen = await collect(store, head, (events) => events.filter((e) => e.streamId === s).length >= 3);
        await live;
        expect(seen.filter((e) => e.streamId === s).map((e) => (e.data as { n: number }).n)).to.deep.equal([1, 2, 3]);
      });

      it('resumes after a stored position without repeating or skipping', async () => {
        const s = stream();
        const first = await store.append(s, [ev(1), ev(2)], 'no_stream');
        await store.append(s, [ev(3), ev(4)], 1);
        const seen = await collect(store, first.position, (events) => events.filter((e) => e.streamId === s).length >= 2);
        expect(seen.filter((e) => e.streamId === s).map((e) => (e.data as { n: number }).n)).to.deep.equal([3, 4]);
      });

      it('never skips an event whose transaction commits after a later-numbered one', async function () {
        this.timeout(60_000);
        const head = await store.headPosition();
        const writers = options.concurrentWriters ? 8 : 2;
        const perWriter = 40;
        const streams = Array.from({ length: writers }, () => stream('race'));
        const subscriber = collect(store, head, (events) => events.filter((e) => streams.includes(e.streamId)).length >= writers * perWriter, 50_000);
        await Promise.all(
          streams.map(async (s) => {
            for (let i = 0; i < perWriter; i++) await store.append(s, [ev(i)], i === 0 ? 'no_stream' : i - 1);
          }),
        );
        const seen = (await subscriber).filter((e) => streams.includes(e.streamId));
        expect(seen).to.have.length(writers * perWriter);
        expect(new Set(seen.map((e) => e.id)).size).to.equal(writers * perWriter);
        const replay = (await store.readAll({ after: head, maxCount: 100_000 })).filter((e) => streams.includes(e.streamId));
        expect(seen.map((e) => e.id)).to.deep.equal(replay.map((e) => e.id));
      });
    });

    it('an empty log starts at START', () => {
      expect(comparePositions(START, { commit: 0n, prepare: 0n })).to.equal(-1);
    });
  });
}
