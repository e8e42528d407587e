import { expect } from 'chai';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { sharedAttemptLog } from '../../../infra/auth/shared-attempt-log.ts';
import { createRegistrationThrottle } from '../../../infra/auth/registration-throttle.ts';
import { freshDatabase } from '../../support/database.ts';
import { loginThrottleContract, refused, throttleWithClock } from '../../support/login-throttle.contract.ts';

describe('throttles shared through the database (several api processes)', () => {
  let database: DatabaseHandle;
  let scopes = 0;
  before(async function () {
    this.timeout(120_000);
    database = await freshDatabase();
  });
  after(() => database.close());

  // Each test counts under a scope of its own, as if on a database of its own.
  loginThrottleContract('login throttle', () => sharedAttemptLog(database.db, `login-${++scopes}`));

  it('given failures spread over two processes, when the sixth comes through either, then it is refused', async () => {
    const first = throttleWithClock(sharedAttemptLog(database.db, 'spread'));
    const second = throttleWithClock(sharedAttemptLog(database.db, 'spread'));
    await first.fail('alice', '10.0.0.1', 3);
    await second.fail('alice', '10.0.0.1', 2);
    await refused(first.throttle.attempt('alice', '10.0.0.1'));
    await refused(second.throttle.attempt('alice', '10.0.0.1'));
  });

  it('given simultaneous guesses through two processes, then together they get five', async () => {
    const processes = [throttleWithClock(sharedAttemptLog(database.db, 'burst')), throttleWithClock(sharedAttemptLog(database.db, 'burst'))];
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => processes[i % 2]!.throttle.attempt('bob', '10.0.0.2')));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(5);
  });

  it('given registrations through two processes, then the address allowance is shared and separate from logins', async () => {
    const now = () => 1_000_000;
    const [a, b] = [createRegistrationThrottle(now, sharedAttemptLog(database.db, 'registration')), createRegistrationThrottle(now, sharedAttemptLog(database.db, 'registration'))];
    for (let i = 0; i < 10; i++) await (i % 2 ? a : b).attempt('10.0.0.3');
    await refused(a.attempt('10.0.0.3'));
    await throttleWithClock(sharedAttemptLog(database.db, 'login-elsewhere')).throttle.attempt('carol', '10.0.0.3');
  });

  it('deletes attempts once their window has passed', async () => {
    const { fail, advance, throttle } = throttleWithClock(sharedAttemptLog(database.db, 'expiry'));
    await fail('dave', '10.0.0.4', 3);
    advance(16 * 60_000);
    await throttle.attempt('dave', '10.0.0.5');
    const left = await database.db.selectFrom('auth_attempts').select('key').where('scope', '=', 'expiry').execute();
    expect(left.map((r) => r.key).sort()).to.deep.equal(['a:10.0.0.5', 'u:dave|10.0.0.5']);
  });
});
