import { expect } from 'chai';
import { createLoginThrottle } from '../../../../infra/auth/login-throttle.ts';
import { TooManyRequests } from '../../../../shared/errors.ts';

const MINUTE = 60_000;

function throttleWithClock(options: { maxKeys?: number } = {}) {
  let time = 1_000_000;
  const throttle = createLoginThrottle(() => time, options);
  /** `times` attempts that fail (a failed check is simply never taken back). */
  const fail = (username: string, address: string, times = 1) => {
    for (let i = 0; i < times; i++) throttle.attempt(username, address);
  };
  return { throttle, fail, advance: (ms: number) => void (time += ms) };
}

function retryAfter(fn: () => void): number {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(TooManyRequests);
    return Number((error as TooManyRequests).headers['Retry-After']);
  }
  throw new Error('expected a TooManyRequests');
}

describe('login throttle', () => {
  it('lets the first five failures for a username from an address through', () => {
    const { fail } = throttleWithClock();
    expect(() => fail('alice', '10.0.0.1', 5)).not.to.throw();
  });

  it('given 5 failures for one username from one address, refuses the next attempt with a Retry-After', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail('alice', '10.0.0.1', 5);
    advance(MINUTE);
    expect(retryAfter(() => throttle.attempt('alice', '10.0.0.1'))).to.equal(14 * 60);
  });

  it('counts an attempt before its outcome is known: simultaneous guesses share the allowance', () => {
    const { throttle } = throttleWithClock();
    const inFlight = [];
    for (let i = 0; i < 5; i++) inFlight.push(throttle.attempt('alice', '10.0.0.1'));
    expect(() => throttle.attempt('alice', '10.0.0.1')).to.throw(TooManyRequests);
  });

  it('treats usernames without regard to case', () => {
    const { throttle, fail } = throttleWithClock();
    fail('Alice', '10.0.0.1', 5);
    expect(() => throttle.attempt('ALICE', '10.0.0.1')).to.throw(TooManyRequests);
  });

  it('never blocks the same username from another address', () => {
    const { throttle, fail } = throttleWithClock();
    fail('alice', '10.0.0.1', 5);
    for (let i = 0; i < 20; i++) expect(() => throttle.attempt('alice', '10.0.0.1')).to.throw(TooManyRequests);
    expect(() => throttle.attempt('alice', '10.0.0.2')).not.to.throw();
  });

  it('lets the username through again once the window has passed', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail('alice', '10.0.0.1', 5);
    advance(15 * MINUTE);
    expect(() => throttle.attempt('alice', '10.0.0.1')).not.to.throw();
  });

  it('counts down the Retry-After as the clock moves', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail('alice', '10.0.0.1', 5);
    const first = retryAfter(() => throttle.attempt('alice', '10.0.0.1'));
    advance(5 * MINUTE);
    expect(retryAfter(() => throttle.attempt('alice', '10.0.0.1'))).to.equal(first - 5 * 60);
  });

  it('given a success, forgets the failures of that username from that address', () => {
    const { throttle, fail } = throttleWithClock();
    fail('alice', '10.0.0.1', 4);
    throttle.attempt('alice', '10.0.0.1').succeeded();
    expect(() => fail('alice', '10.0.0.1', 5)).not.to.throw();
  });

  it('given many failures from one address across usernames, throttles that address for any username', () => {
    const { throttle, fail } = throttleWithClock();
    for (let i = 0; i < 30; i++) fail(`user${i}`, '10.0.0.9');
    expect(() => throttle.attempt('someone-new', '10.0.0.9')).to.throw(TooManyRequests);
    expect(() => throttle.attempt('someone-new', '10.0.0.10')).not.to.throw();
  });

  it('does not count successful logins against their address', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 40; i++) throttle.attempt(`user${i}`, '10.0.0.9').succeeded();
    expect(() => throttle.attempt('someone', '10.0.0.9')).not.to.throw();
  });
});

describe('login throttle memory', () => {
  it('sweeps failures whose window has passed once it tracks too many keys', () => {
    const { throttle, fail, advance } = throttleWithClock({ maxKeys: 100 });
    for (let i = 0; i < 25; i++) fail('alice', `10.0.0.${i}`);
    advance(15 * MINUTE);
    for (let i = 0; i < 25; i++) fail('bob', `10.0.1.${i}`);
    expect(throttle.trackedKeys).to.equal(100);
    fail('carol', '10.0.2.1');
    expect(throttle.trackedKeys).to.equal(52);
  });

  it('drops the least recently failed keys when every key is still live, never growing past the bound', () => {
    const { throttle, fail } = throttleWithClock({ maxKeys: 100 });
    for (let i = 0; i < 500; i++) fail('alice', `10.0.${Math.floor(i / 250)}.${i % 250}`);
    expect(throttle.trackedKeys).to.be.at.most(100);
  });

  it('keeps a recently throttled pair throttled while dropping old keys', () => {
    const { throttle, fail } = throttleWithClock({ maxKeys: 100 });
    for (let i = 0; i < 200; i++) fail(`user${i}`, `10.1.0.${i}`);
    fail('alice', '10.0.0.1', 5);
    expect(() => throttle.attempt('alice', '10.0.0.1')).to.throw(TooManyRequests);
  });
});
