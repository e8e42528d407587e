import { expect } from 'chai';
import type { AttemptLogFactory } from '../../infra/auth/attempt-log.ts';
import { createLoginThrottle } from '../../infra/auth/login-throttle.ts';
import { TooManyRequests } from '../../shared/errors.ts';

const MINUTE = 60_000;

/** A throttle and a clock, its attempts counted by `attemptLog`. */
export function throttleWithClock(attemptLog: AttemptLogFactory, start = 1_000_000) {
  let time = start;
  const throttle = createLoginThrottle(() => time, attemptLog);
  /** `times` attempts that fail (a failed check is simply never taken back). */
  const fail = async (username: string, address: string, times = 1) => {
    for (let i = 0; i < times; i++) await throttle.attempt(username, address);
  };
  return { throttle, fail, advance: (ms: number) => void (time += ms) };
}

export async function retryAfter(attempt: Promise<unknown>): Promise<number> {
  try {
    await attempt;
  } catch (error) {
    expect(error).to.be.instanceOf(TooManyRequests);
    return Number((error as TooManyRequests).headers['Retry-After']);
  }
  throw new Error('expected a TooManyRequests');
}

export const refused = async (attempt: Promise<unknown>) => expect(await retryAfter(attempt)).to.be.greaterThan(0);

/** What a login throttle does, whichever log counts its attempts. `attemptLog` gives a fresh log per test. */
export function loginThrottleContract(name: string, attemptLog: () => AttemptLogFactory): void {
  describe(name, () => {
    const fresh = () => throttleWithClock(attemptLog());

    it('lets the first five failures for a username from an address through', async () => {
      const { fail } = fresh();
      await fail('alice', '10.0.0.1', 5);
    });

    it('given 5 failures for one username from one address, refuses the next attempt with a Retry-After', async () => {
      const { throttle, fail, advance } = fresh();
      await fail('alice', '10.0.0.1', 5);
      advance(MINUTE);
      expect(await retryAfter(throttle.attempt('alice', '10.0.0.1'))).to.equal(14 * 60);
    });

    it('counts an attempt before its outcome is known: simultaneous guesses share the allowance', async () => {
      const { throttle } = fresh();
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => throttle.attempt('alice', '10.0.0.1')));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(5);
    });

    it('treats usernames without regard to case', async () => {
      const { throttle, fail } = fresh();
      await fail('Alice', '10.0.0.1', 5);
      await refused(throttle.attempt('ALICE', '10.0.0.1'));
    });

    it('never blocks the same username from another address', async () => {
      const { throttle, fail } = fresh();
      await fail('alice', '10.0.0.1', 5);
      for (let i = 0; i < 20; i++) await refused(throttle.attempt('alice', '10.0.0.1'));
      await throttle.attempt('alice', '10.0.0.2');
    });

    it('lets the username through again once the window has passed', async () => {
      const { throttle, fail, advance } = fresh();
      await fail('alice', '10.0.0.1', 5);
      advance(15 * MINUTE);
      await throttle.attempt('alice', '10.0.0.1');
    });

    it('counts down the Retry-After as the clock moves', async () => {
      const { throttle, fail, advance } = fresh();
      await fail('alice', '10.0.0.1', 5);
      const first = await retryAfter(throttle.attempt('alice', '10.0.0.1'));
      advance(5 * MINUTE);
      expect(await retryAfter(throttle.attempt('alice', '10.0.0.1'))).to.equal(first - 5 * 60);
    });

    it('given a success, forgets the failures of that username from that address', async () => {
      const { throttle, fail } = fresh();
      await fail('alice', '10.0.0.1', 4);
      await (await throttle.attempt('alice', '10.0.0.1')).succeeded();
      await fail('alice', '10.0.0.1', 5);
    });

    it('given many failures from one address across usernames, throttles that address for any username', async () => {
      const { throttle, fail } = fresh();
      for (let i = 0; i < 30; i++) await fail(`user${i}`, '10.0.0.9');
      await refused(throttle.attempt('someone-new', '10.0.0.9'));
      await throttle.attempt('someone-new', '10.0.0.10');
    });

    it('does not count successful logins against their address', async () => {
      const { throttle } = fresh();
      for (let i = 0; i < 40; i++) await (await throttle.attempt(`user${i}`, '10.0.0.9')).succeeded();
      await throttle.attempt('someone', '10.0.0.9');
    });
  });
}
