import { expect } from 'chai';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { createCipher } from '../../../infra/credentials/cipher.ts';
import { setLogLevel } from '../../../infra/logger.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { capturedLog } from '../../support/capture-log.ts';
import { freshDatabase } from '../../support/database.ts';
import { signedInAs } from '../../support/given.ts';

const testLogLevel = (process.env.TEST_LOG_LEVEL ?? 'silent') as Parameters<typeof setLogLevel>[0];

/** A restart keeps its secrets (the real service keeps them in DATA_DIR). */
const env = { SECRET_KEY: 'sealing-test-secret-key-0123456789abcdef', JWT_SECRET: 'sealing-test-jwt-secret-0123456789abcdef' };

async function passwordRow(app: TestApp, username: string) {
  return app.ctx.db.selectFrom('credentials').selectAll().where('owner', '=', username).where('kind', '=', 'password').executeTakeFirstOrThrow();
}

describe('credentials: each is sealed with its credential id bound in (AES-GCM associated data)', () => {
  let database: DatabaseHandle;
  let first: TestApp;
  let second: TestApp | undefined;
  before(async () => {
    database = await freshDatabase();
    first = await startTestApp(env, database, { keepDatabase: true });
  });
  after(async () => {
    await (second ?? first).close();
    await database.close();
  });

  it('new rows are written in the bound format', async () => {
    const { username } = await signedInAs(first, 'viewer');
    expect((await passwordRow(first, username)).seal_version).to.equal(2);
  });

  it('given one account\'s sealed hash copied onto another\'s row, then the known password does not sign in as the other (401), and the store says why without the secret', async () => {
    const mallory = await signedInAs(first, 'viewer');
    const victim = await signedInAs(first, 'admin');
    const copied = await passwordRow(first, mallory.username);
    await first.ctx.db.updateTable('credentials').set({ secret: copied.secret }).where('credential_id', '=', (await passwordRow(first, victim.username)).credential_id).execute();
    setLogLevel('warn');
    const { result: res, log } = await capturedLog(() => first.client().post('/auth/login', { username: victim.username, password: mallory.password })).finally(() => setLogLevel(testLogLevel));
    expect(res.status).to.equal(401);
    expect(log).to.include('a stored credential cannot be opened');
    expect(log).to.include(victim.username);
    for (const secret of [copied.secret, mallory.password, 'scrypt$']) expect(log).not.to.include(secret);
    expect((await first.client().post('/auth/login', { username: mallory.username, password: mallory.password })).status, 'the original still opens').to.equal(200);
  });

  describe('rows written before the change (no associated data)', () => {
    let olden: { username: string; password: string };
    let forgotten: { username: string; password: string };
    before(async () => {
      olden = await signedInAs(first, 'viewer');
      forgotten = await signedInAs(first, 'viewer');
      const row = await passwordRow(first, olden.username);
      const hash = (await first.ctx.auth.credentials.get(row.credential_id))!;
      const legacy = createCipher(env.SECRET_KEY).encrypt(hash);
      await first.ctx.db.updateTable('credentials').set({ secret: legacy, seal_version: 1 }).where('credential_id', '=', row.credential_id).execute();
      const underAnotherKey = createCipher('another-secret-key-0123456789abcdefgh').encrypt('scrypt$lost');
      await first.ctx.db.updateTable('credentials').set({ secret: underAnotherKey, seal_version: 1 }).where('owner', '=', forgotten.username).execute();
      await first.close();
      second = await startTestApp(env, database, { keepDatabase: true });
    });

    it('are re-sealed at start, bound to their id, and still open', async () => {
      expect((await passwordRow(second!, olden.username)).seal_version).to.equal(2);
      expect((await second!.client().post('/auth/login', olden)).status).to.equal(200);
    });

    it('one the key cannot open stays as it was, and its login is the generic 401', async () => {
      expect((await passwordRow(second!, forgotten.username)).seal_version).to.equal(1);
      expect((await second!.client().post('/auth/login', forgotten)).status).to.equal(401);
    });
  });
});
