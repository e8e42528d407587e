import { expect } from 'chai';
import { createLoginThrottle } from '../../../../infra/auth/login-throttle.ts';
import { TooManyRequests } from '../../../../shared/errors.ts';

const MINUTE = 60_000;

function throttleWithClock() {
  let time = 1_000_000;
  const throttle = createLoginThrottle(() => time);
  return { throttle, advance: (ms: number) => void (time += ms) };
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
  it('lets the first failures through', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 5; i++) {
      throttle.check('alice', '10.0.0.1');
      throttle.failed('alice', '10.0.0.1');
    }
  });

  it('given 5 failures for one username from one address, refuses the next attempt with a Retry-After', () => {
    const { throttle, advance } = throttleWithClock();
    for (let i = 0; i < 5; i++) throttle.failed('alice', '10.0.0.1');
    advance(MINUTE);
    expect(retryAfter(() => throttle.check('alice', '10.0.0.1'))).to.equal(14 * 60);
  });

  it('treats usernames without regard to case', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 5; i++) throttle.failed('Alice', '10.0.0.1');
    expect(() => throttle.check('ALICE', '10.0.0.1')).to.throw(TooManyRequests);
  });

  it("never blocks the same username from another address", () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 20; i++) throttle.failed('alice', '10.0.0.1');
    expect(() => throttle.check('alice', '10.0.0.2')).not.to.throw();
  });

  it('lets the username through again once the window has passed', () => {
    const { throttle, advance } = throttleWithClock();
    for (let i = 0; i < 5; i++) throttle.failed('alice', '10.0.0.1');
    advance(15 * MINUTE);
    expect(() => throttle.check('alice', '10.0.0.1')).not.to.throw();
  });

  it('counts down the Retry-After as the clock moves', () => {
    const { throttle, advance } = throttleWithClock();
    for (let i = 0; i < 5; i++) throttle.failed('alice', '10.0.0.1');
    const first = retryAfter(() => throttle.check('alice', '10.0.0.1'));
    advance(5 * MINUTE);
    expect(retryAfter(() => throttle.check('alice', '10.0.0.1'))).to.equal(first - 5 * 60);
  });

  it('given a success, forgets the failures of that username from that address', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 4; i++) throttle.failed('alice', '10.0.0.1');
    throttle.succeeded('alice', '10.0.0.1');
    for (let i = 0; i < 4; i++) throttle.failed('alice', '10.0.0.1');
    expect(() => throttle.check('alice', '10.0.0.1')).not.to.throw();
  });

  it('given many failures from one address across usernames, throttles that address for any username', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 30; i++) throttle.failed(`user${i}`, '10.0.0.9');
    expect(() => throttle.check('someone-new', '10.0.0.9')).to.throw(TooManyRequests);
    expect(() => throttle.check('someone-new', '10.0.0.10')).not.to.throw();
  });
});
