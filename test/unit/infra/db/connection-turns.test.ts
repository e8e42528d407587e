import { expect } from 'chai';
import { ConnectionTurns, type TurnsPolicy, type WorkKind } from '../../../../infra/db/connection-turns.ts';

const policy: TurnsPolicy = { quietMs: 50, burstMs: 100, foregroundBetween: 10, maxGapMs: 400 };

/** Turns on a clock the test moves; `granted` lists who got the connection, in order. */
function turnsAt(start = 1000) {
  let now = start;
  const turns = new ConnectionTurns(policy, () => now);
  const granted: string[] = [];
  const ask = (kind: WorkKind, label: string) => turns.take(kind).then(() => void granted.push(label));
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** One request's hold: takes the connection, lets the clock run `ms`, passes it on. */
  async function request(ms = 1) {
    await turns.take('foreground');
    now += ms;
    turns.pass();
  }
  return { turns, granted, ask, settle, request, advance: (ms: number) => (now += ms) };
}

describe('connection turns on the embedded database', () => {
  it('gives background work the connection at once while the API is quiet', async () => {
    const { ask, settle, granted } = turnsAt();
    await ask('background', 'projection batch');
    await settle();
    expect(granted).to.deep.equal(['projection batch']);
  });

  it('while the API is busy, keeps background work waiting until enough requests went by, then lets it go first', async () => {
    const { turns, ask, settle, granted, request } = turnsAt();
    await request();
    void ask('background', 'batch');
    for (let i = 0; i < policy.foregroundBetween - 2; i++) await request();
    await settle();
    expect(granted, 'not before its burst is due').to.deep.equal([]);
    await request();
    await settle();
    expect(granted).to.deep.equal(['batch']);
    turns.pass();
  });

  it('within a burst, background holds go before waiting requests; after it, requests go first again', async () => {
    const { turns, ask, settle, granted, request, advance } = turnsAt();
    for (let i = 0; i < policy.foregroundBetween; i++) await request();
    await ask('background', 'batch 1');
    void ask('foreground', 'request A');
    void ask('background', 'batch 2');
    advance(30);
    turns.pass();
    await settle();
    expect(granted, 'batch 2 still within the burst').to.deep.equal(['batch 1', 'batch 2']);
    void ask('background', 'batch 3');
    advance(80);
    turns.pass();
    await settle();
    expect(granted, 'the burst is over: the request first').to.deep.equal(['batch 1', 'batch 2', 'request A']);
    turns.pass();
    await settle();
    expect(granted.length, 'batch 3 waits for the next burst').to.equal(3);
  });

  it('a steady stream of requests cannot starve background work: a burst comes at the latest after maxGapMs', async () => {
    const { turns, ask, settle, granted, request } = turnsAt();
    await request();
    void ask('background', 'batch');
    // Slow requests: fewer than `foregroundBetween` of them, but the maximum gap passes.
    for (let i = 0; i < 3; i++) await request(policy.maxGapMs / 4);
    await settle();
    expect(granted).to.deep.equal([]);
    await request(policy.maxGapMs / 4);
    await settle();
    expect(granted).to.deep.equal(['batch']);
    turns.pass();
  });

  it('lets background work run while a request waits for it (a command waiting for its read models)', async () => {
    const { turns, ask, settle, granted, request } = turnsAt();
    let awaited = false;
    turns.followRequests(() => awaited);
    await request();
    void ask('background', 'batch');
    await settle();
    expect(granted).to.deep.equal([]);
    awaited = true;
    await request();
    await settle();
    expect(granted).to.deep.equal(['batch']);
    turns.pass();
  });

  it('when a request begins to wait for background work already queued, then that work starts at once, not at its next look', async () => {
    const { turns, ask, settle, granted, request } = turnsAt();
    let awaited = false;
    turns.followRequests(() => awaited);
    await request();
    void ask('background', 'batch');
    await settle();
    expect(granted).to.deep.equal([]);
    awaited = true;
    turns.requestWaits();
    await settle();
    expect(granted).to.deep.equal(['batch']);
    turns.pass();
  });

  it('keeps a burst for background work: a request arriving between two of its holds waits for the burst to end', async () => {
    const { turns, ask, settle, granted, request } = turnsAt();
    for (let i = 0; i < policy.foregroundBetween; i++) await request();
    await ask('background', 'batch 1');
    turns.pass();
    void ask('foreground', 'request A');
    await settle();
    expect(granted, 'the connection is free but the burst is not over').to.deep.equal(['batch 1']);
    await ask('background', 'batch 2');
    turns.pass();
    // The burst's work ran out: after a moment without it, the burst ends and the request goes.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(granted).to.deep.equal(['batch 1', 'batch 2', 'request A']);
    turns.pass();
  });
});
