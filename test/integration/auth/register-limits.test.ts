import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';

const from = (address: string) => ({ 'x-forwarded-for': address });
const register = (app: TestApp, username: string, address: string) => app.client().post('/auth/register', { username, password: `${username}-pw` }, from(address));

describe('auth: self-registration is throttled per address (behind a trusted proxy)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ TRUSTED_PROXY: 'loopback' });
  });
  after(() => app.close());

  it('given ten registrations from one address within the hour, then the eleventh is 429 with Retry-After and creates nothing', async () => {
    for (let i = 0; i < 10; i++) expect((await register(app, `household${i}`, '203.0.113.10')).status).to.equal(200);
    const refused = await register(app, 'household10', '203.0.113.10');
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(refused.body.detail).to.equal('Too many registrations from this address, try again later');
    expect((await app.client().post('/auth/login', { username: 'household10', password: 'household10-pw' }, from('198.51.100.10'))).status).to.equal(401);
  });

  it('then another address still registers', async () => {
    expect((await register(app, 'neighbour', '198.51.100.11')).status).to.equal(200);
  });

  it('refused registrations count too (each one hashed a password)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await register(app, 'admin', '203.0.113.11')).status);
    expect(statuses).to.deep.equal([...Array(10).fill(409), 429]);
  });

  it('given a burst of simultaneous registrations from one address, then no more than the allowance is hashed', async () => {
    const burst = await Promise.all(Array.from({ length: 16 }, (_, i) => register(app, `burst${i}`, '203.0.113.12')));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(10);
    expect(statuses.filter((s) => s === 429)).to.have.length(6);
  });
});

describe('auth: REGISTRATION=closed', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ REGISTRATION: 'closed' });
  });
  after(() => app.close());

  it('refuses self-registration with 403 and a clear detail, and sets no cookie', async () => {
    const client = app.client();
    const res = await client.post('/auth/register', { username: 'walk-in', password: 'walk-in-pw' });
    expect(res.status).to.equal(403);
    expect(res.body.detail).to.equal('Registration is closed: ask an admin for an account');
    expect(client.cookie('media_session')).to.equal(undefined);
    expect((await app.client().post('/auth/login', { username: 'walk-in', password: 'walk-in-pw' })).status).to.equal(401);
  });

  it('an admin still creates accounts', async () => {
    const admin = await signedInAdmin(app);
    expect((await admin.post('/auth/users/', { username: 'invited', password: 'invited-pw', role: 'viewer' })).status).to.equal(201);
    expect((await app.client().post('/auth/login', { username: 'invited', password: 'invited-pw' })).status).to.equal(200);
  });
});
