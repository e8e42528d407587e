import { expect } from 'chai';
import { createPacer, type PacerOptions } from '../../../../infra/upstreams/pacer.ts';

/** A pacer on a hand-driven clock: sleeps are recorded, never waited for (and move the clock when asked). */
function pacedWith(options: Omit<PacerOptions, 'now' | 'sleep'>) {
  // `advancing`: a sleep moves the clock on (by `lateBy` more, as a busy event loop would).
  const clock = { now: 0, sleeps: [] as number[], advancing: false, lateBy: 0 };
  const pacer = createPacer({
    ...options,
    now: () => clock.now,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      if (clock.advancing) clock.now += ms + clock.lateBy;
    },
  });
  return { pacer, clock };
}

const ok = async () => 'ok';

describe('pacer', () => {
  it('runs at once when disabled', async () => {
    const { pacer, clock } = pacedWith({ enabled: false, minIntervalMs: 1000 });
    await Promise.all([pacer.schedule(ok), pacer.schedule(ok), pacer.schedule(ok)]);
    expect(clock.sleeps).to.deep.equal([]);
  });

  it('spaces concurrent starts by the minimum interval', async () => {
    const { pacer, clock } = pacedWith({ enabled: true, minIntervalMs: 1000 });
    const starts: number[] = [];
    const at = async () => void starts.push(clock.now);
    clock.advancing = true;
    await Promise.all([pacer.schedule(at), pacer.schedule(at), pacer.schedule(at)]);
    expect(starts).to.deep.equal([0, 1000, 2000]);
  });

  it('measures from the previous start as it happened: a timer that fired late delays the next start too', async () => {
    const { pacer, clock } = pacedWith({ enabled: true, minIntervalMs: 1000 });
    const starts: number[] = [];
    const at = async () => void starts.push(clock.now);
    clock.advancing = true;
    clock.lateBy = 300;
    await Promise.all([pacer.schedule(at), pacer.schedule(at), pacer.schedule(at)]);
    expect(starts).to.deep.equal([0, 1300, 2600]);
  });

  it('turns a per-minute rate into an interval', async () => {
    const { pacer, clock } = pacedWith({ enabled: true, perMinute: 20 });
    await Promise.all([pacer.schedule(ok), pacer.schedule(ok)]);
    expect(clock.sleeps).to.deep.equal([3000]);
  });

  it('keeps the stricter of the two limits', async () => {
    const { pacer, clock } = pacedWith({ enabled: true, minIntervalMs: 1000, perMinute: 30 });
    await Promise.all([pacer.schedule(ok), pacer.schedule(ok)]);
    expect(clock.sleeps).to.deep.equal([2000]);
  });

  it('does not wait after the service has been idle for an interval', async () => {
    const { pacer, clock } = pacedWith({ enabled: true, minIntervalMs: 1000 });
    await pacer.schedule(ok);
    clock.now = 1500;
    await pacer.schedule(ok);
    clock.now = 1800;
    await pacer.schedule(ok);
    expect(clock.sleeps).to.deep.equal([700]);
  });

  it('passes a failure through and still frees the next slot', async () => {
    const { pacer, clock } = pacedWith({ enabled: true, minIntervalMs: 1000 });
    const failing = pacer.schedule(async () => {
      throw new Error('boom');
    });
    const next = pacer.schedule(ok);
    expect(await failing.catch((e: Error) => e.message)).to.equal('boom');
    expect(await next).to.equal('ok');
    expect(clock.sleeps).to.deep.equal([1000]);
  });
});
