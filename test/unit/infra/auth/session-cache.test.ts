import { expect } from 'chai';
import type { Kysely } from 'kysely';
import type { Database } from '../../../../infra/db/database.ts';
import { createSessionCache } from '../../../../infra/auth/session-cache.ts';
import { createSessionTokens } from '../../../../infra/auth/session-tokens.ts';

interface Row {
  username: string;
  role: string;
  session_version: number;
  deleted: boolean;
}

/** Just the query the cache makes (users by username_key), counting round trips. */
function fakeUsers(rows: Record<string, Row>) {
  const calls = { reads: 0 };
  const db = {
    selectFrom: () => ({
      select: () => ({
        where: (_column: string, _op: string, key: string) => ({
          executeTakeFirst: async () => {
            calls.reads += 1;
            return rows[key] ? { ...rows[key] } : undefined;
          },
        }),
      }),
    }),
  } as unknown as Kysely<Database>;
  return { db, calls, rows };
}

describe('session cache', () => {
  const tokens = createSessionTokens('session-cache-test-secret');
  const setup = (ttlMs = 60_000) => {
    const users = fakeUsers({ alice: { username: 'Alice', role: 'staff', session_version: 2, deleted: false } });
    return { ...users, cache: createSessionCache(users.db, tokens, { ttlMs }) };
  };

  it('resolves a token carrying the current session version to its user', async () => {
    const { cache } = setup();
    expect(await cache.resolve(tokens.issue({ sub: 'alice', sv: 2 }))).to.deep.equal({ username: 'Alice', role: 'staff' });
  });

  it('answers null without a token, for a bad token, an unknown user or an old session version', async () => {
    const { cache } = setup();
    expect(await cache.resolve(undefined)).to.equal(null);
    expect(await cache.resolve('garbage')).to.equal(null);
    expect(await cache.resolve(tokens.issue({ sub: 'ghost', sv: 0 }))).to.equal(null);
    expect(await cache.resolve(tokens.issue({ sub: 'alice', sv: 1 }))).to.equal(null);
  });

  it('reads the user once, then answers from memory', async () => {
    const { cache, calls } = setup();
    const token = tokens.issue({ sub: 'alice', sv: 2 });
    for (let i = 0; i < 5; i++) await cache.resolve(token);
    expect(calls.reads).to.equal(1);
  });

  it('given an invalidation (the users projector applied an event), re-reads: a deleted user is refused at once', async () => {
    const { cache, rows } = setup();
    const token = tokens.issue({ sub: 'alice', sv: 2 });
    await cache.resolve(token);
    rows.alice!.deleted = true;
    cache.invalidate(['alice']);
    expect(await cache.resolve(token)).to.equal(null);
  });

  it('re-reads after its time to live', async () => {
    const { cache, calls } = setup(0);
    const token = tokens.issue({ sub: 'alice', sv: 2 });
    await cache.resolve(token);
    await new Promise((r) => setTimeout(r, 2));
    await cache.resolve(token);
    expect(calls.reads).to.equal(2);
  });

  it('re-reads when a token is newer than what it holds (a change made by another process)', async () => {
    const { cache, rows } = setup();
    await cache.resolve(tokens.issue({ sub: 'alice', sv: 2 }));
    rows.alice!.session_version = 3;
    expect(await cache.resolve(tokens.issue({ sub: 'alice', sv: 3 }))).to.deep.equal({ username: 'Alice', role: 'staff' });
    expect(await cache.resolve(tokens.issue({ sub: 'alice', sv: 2 }))).to.equal(null);
  });

  it('does not keep an answer read while an invalidation arrived', async () => {
    const { cache, rows, calls } = setup();
    const token = tokens.issue({ sub: 'alice', sv: 2 });
    const pending = cache.resolve(token);
    cache.invalidate(['alice']);
    await pending;
    rows.alice!.deleted = true;
    expect(await cache.resolve(token)).to.equal(null);
    expect(calls.reads).to.equal(2);
  });
});
