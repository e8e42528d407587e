import { expect } from 'chai';
import { createAttemptLog } from '../../../../infra/auth/attempt-log.ts';
import { loginThrottleContract, refused, throttleWithClock } from '../../../support/login-throttle.contract.ts';

loginThrottleContract('login throttle (one process)', () => createAttemptLog);

describe('login throttle memory', () => {
  const bounded = () => {
    let log!: ReturnType<typeof createAttemptLog>;
    const clock = throttleWithClock((windowMs, now) => (log = createAttemptLog(windowMs, now, 100)));
    return { ...clock, trackedKeys: () => log.size };
  };

  it('sweeps failures whose window has passed once it tracks too many keys', async () => {
    const { fail, advance, trackedKeys } = bounded();
    for (let i = 0; i < 25; i++) await fail('alice', `10.0.0.${i}`);
    advance(15 * 60_000);
    for (let i = 0; i < 25; i++) await fail('bob', `10.0.1.${i}`);
    expect(trackedKeys()).to.equal(100);
    await fail('carol', '10.0.2.1');
    expect(trackedKeys()).to.equal(52);
  });

  it('drops the least recently failed keys when every key is still live, never growing past the bound', async () => {
    const { fail, trackedKeys } = bounded();
    for (let i = 0; i < 500; i++) await fail('alice', `10.0.${Math.floor(i / 250)}.${i % 250}`);
    expect(trackedKeys()).to.be.at.most(100);
  });

  it('keeps a recently throttled pair throttled while dropping old keys', async () => {
    const { throttle, fail } = bounded();
    for (let i = 0; i < 200; i++) await fail(`user${i}`, `10.1.0.${i}`);
    await fail('alice', '10.0.0.1', 5);
    await refused(throttle.attempt('alice', '10.0.0.1'));
  });
});
