import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';

const from = (address: string) => ({ 'x-forwarded-for': address });

describe('auth: failed logins are throttled (behind a trusted proxy)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ TRUSTED_PROXY: 'loopback' });
  });
  after(() => app.close());

  it('given repeated failures for one username from one address, then 429 with Retry-After', async () => {
    const { username } = await signedInAs(app, 'viewer');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await app.client().post('/auth/login', { username, password: `guess-${i}` }, from('203.0.113.1'))).status);
    expect(statuses.slice(0, 5)).to.deep.equal([401, 401, 401, 401, 401]);
    expect(statuses[5]).to.equal(429);
    const res = await app.client().post('/auth/login', { username, password: 'guess-again' }, from('203.0.113.1'));
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.a('number').and.to.be.greaterThan(0);
    expect(res.body.detail).to.be.a('string');
  });

  it('then even the right password from that address waits, and sets no cookie', async () => {
    const { username, password } = await signedInAs(app, 'viewer');
    for (let i = 0; i < 5; i++) await app.client().post('/auth/login', { username, password: `guess-${i}` }, from('203.0.113.2'));
    const client = app.client();
    const res = await client.post('/auth/login', { username, password }, from('203.0.113.2'));
    expect(res.status).to.equal(429);
    expect(client.cookie('media_session')).to.equal(undefined);
  });

  it("then a correct login from another address still succeeds", async () => {
    const { username, password } = await signedInAs(app, 'viewer');
    for (let i = 0; i < 6; i++) await app.client().post('/auth/login', { username, password: `guess-${i}` }, from('203.0.113.3'));
    const res = await app.client().post('/auth/login', { username, password }, from('198.51.100.7'));
    expect(res.status).to.equal(200);
    expect(res.body.username).to.equal(username);
  });

  it('given a burst of simultaneous guesses, then no more than the allowance is checked', async () => {
    const { username, password } = await signedInAs(app, 'viewer');
    const guesses = Array.from({ length: 20 }, (_, i) => app.client().post('/auth/login', { username, password: `burst-${i}` }, from('203.0.113.7')));
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).to.have.length(5);
    expect(statuses.filter((s) => s === 429)).to.have.length(15);
    expect((await app.client().post('/auth/login', { username, password }, from('198.51.100.9'))).status).to.equal(200);
  });

  it('throttles guesses at an unknown username exactly like a known one', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await app.client().post('/auth/login', { username: 'no-such-account', password: `guess-${i}` }, from('203.0.113.4'))).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);
  });

  it('given a success, forgets earlier failures of that username from that address', async () => {
    const { username, password } = await signedInAs(app, 'viewer');
    for (let i = 0; i < 4; i++) await app.client().post('/auth/login', { username, password: `guess-${i}` }, from('203.0.113.5'));
    expect((await app.client().post('/auth/login', { username, password }, from('203.0.113.5'))).status).to.equal(200);
    for (let i = 0; i < 4; i++) expect((await app.client().post('/auth/login', { username, password: `again-${i}` }, from('203.0.113.5'))).status).to.equal(401);
  });

  it('throttles guesses at the current password of a signed-in session too', async () => {
    const { client, password } = await signedInAs(app, 'viewer');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.post('/auth/me/password', { current_password: `guess-${i}`, new_password: 'taken-over' }, from('203.0.113.6'))).status);
    expect(statuses.slice(0, 5)).to.deep.equal([400, 400, 400, 400, 400]);
    expect(statuses[5]).to.equal(429);
    expect((await client.post('/auth/me/password', { current_password: password, new_password: 'legit-change' }, from('198.51.100.8'))).status).to.equal(200);
  });
});

describe('auth: without a trusted proxy, X-Forwarded-For is ignored', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('so a client cannot dodge the throttle by claiming new addresses', async () => {
    const { username } = await signedInAs(app, 'viewer');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await app.client().post('/auth/login', { username, password: `guess-${i}` }, from(`192.0.2.${i + 1}`))).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);
  });

  it('nor the registration throttle', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await app.client().post('/auth/register', { username: `claimant${i}`, password: 'claimant-pw' }, from(`192.0.2.${i + 1}`))).status);
    expect(statuses).to.deep.equal([...Array(10).fill(200), 429]);
  });
});
