import { expect } from 'chai';
import { bootstrapAdmin } from '../../../command/auth/bootstrap-admin.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';

describe('auth: first start', () => {
  describe('with ADMIN_USERNAME and ADMIN_PASSWORD', () => {
    let app: TestApp;
    const printed: string[] = [];
    before(async () => {
      const original = console.log;
      console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
      try {
        app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-first-start-pw' });
      } finally {
        console.log = original;
      }
    });
    after(() => app.close());

    it('creates that admin, who signs in with that password', async () => {
      const client = app.client();
      const res = await client.post('/auth/login', { username: 'root', password: 'root-first-start-pw' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ username: 'root', role: 'admin' });
      expect((await client.get('/auth/users/')).status).to.equal(200);
    });

    it('prints no password', () => {
      expect(printed.filter((l) => /password/i.test(l))).to.deep.equal([]);
    });

    it('creates no other account', async () => {
      const client = app.client();
      await client.post('/auth/login', { username: 'root', password: 'root-first-start-pw' });
      expect((await client.get('/auth/users/')).body.map((u: { username: string }) => u.username)).to.deep.equal(['root']);
    });

    it('does nothing on a later start: the accounts exist already', async () => {
      const lines: string[] = [];
      await bootstrapAdmin({ ...app.ctx, config: { ...app.ctx.config, ADMIN_USERNAME: 'other', ADMIN_PASSWORD: undefined } }, (line) => lines.push(line));
      expect(lines).to.deep.equal([]);
      expect((await app.client().post('/auth/login', { username: 'other', password: 'anything' })).status).to.equal(401);
    });
  });

  describe('without ADMIN_PASSWORD', () => {
    let app: TestApp;
    const printed: string[] = [];
    before(async () => {
      // The service prints the generated password on standard output at start: capture it.
      const original = console.log;
      console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
      try {
        app = await startTestApp({ ADMIN_PASSWORD: '' });
      } finally {
        console.log = original;
      }
    });
    after(() => app.close());

    const passwordFrom = (lines: string[]) => lines.map((l) => /password: (\S+)/.exec(l)?.[1]).filter((p): p is string => p !== undefined);

    it('prints a generated password exactly once', () => {
      const passwords = passwordFrom(printed);
      expect(passwords).to.have.length(1);
      expect(passwords[0]).to.have.length.greaterThanOrEqual(12);
      expect(printed.filter((l) => l.includes(passwords[0]!))).to.have.length(1);
    });

    it('the printed password signs the admin in', async () => {
      const [password] = passwordFrom(printed);
      const res = await app.client().post('/auth/login', { username: 'admin', password });
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('admin');
    });

    it('a second bootstrap prints nothing and keeps the password', async () => {
      const lines: string[] = [];
      await bootstrapAdmin(app.ctx, (line) => lines.push(line));
      expect(lines).to.deep.equal([]);
      const [password] = passwordFrom(printed);
      expect((await app.client().post('/auth/login', { username: 'admin', password })).status).to.equal(200);
    });
  });
});
