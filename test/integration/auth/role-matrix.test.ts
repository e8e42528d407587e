import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';

/**
 * Walks every operation of the OpenAPI document, so routes added later are covered without
 * touching this file: no session → 401 on every operation that declares `security`; a viewer →
 * 403 on every operation of the administration surface.
 */
const ADMIN_PREFIXES = ['/admin/', '/mediaserver/admin/', '/metabase/admin/', '/auth/users/'];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const UNSAFE = new Set(['post', 'put', 'patch', 'delete']);

interface Operation {
  method: string;
  path: string;
  url: string;
  secured: boolean;
}

type Document = { paths: Record<string, Partial<Record<string, { security?: unknown[] }>>>; security?: unknown[] };

function operationsOf(document: Document): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const security = item[method]!.security ?? document.security ?? [];
      // `[{}]` would make a session optional: only a non-empty requirement counts as secured.
      const secured = security.some((requirement) => Object.keys(requirement as object).length > 0);
      return { method, path, url: path.replace(/\{[^}]+\}/g, 'dummy-value'), secured };
    }),
  );
}

const isAdminPath = (path: string) => ADMIN_PREFIXES.some((prefix) => path.startsWith(prefix));
const send = (client: ApiClient, op: Operation) => client.request(op.method.toUpperCase(), op.url, UNSAFE.has(op.method) ? {} : undefined);
const label = (op: Operation, status: number) => `${op.method.toUpperCase()} ${op.path} → ${status}`;

describe('auth: role matrix over every route of /openapi.json', () => {
  let app: TestApp;
  let operations: Operation[];
  before(async () => {
    app = await startTestApp();
    const res = await app.client().get('/openapi.json');
    expect(res.status).to.equal(200);
    operations = operationsOf(res.body as Document);
  });
  after(() => app.close());

  it('finds the auth and admin operations in the document', () => {
    const names = operations.map((op) => `${op.method} ${op.path}`);
    expect(names).to.include.members(['get /auth/me', 'get /auth/users/', 'delete /auth/users/{username}', 'post /auth/users/{username}/password']);
    expect(operations.filter((op) => isAdminPath(op.path)).length).to.be.greaterThan(4);
  });

  it('every administration operation declares security', () => {
    const open = operations.filter((op) => isAdminPath(op.path) && !op.secured);
    expect(open.map((op) => `${op.method.toUpperCase()} ${op.path}`)).to.deep.equal([]);
  });

  it('without a session, every operation that declares security answers 401', async () => {
    const client = app.client();
    const wrong: string[] = [];
    for (const op of operations.filter((o) => o.secured)) {
      const res = await send(client, op);
      if (res.status !== 401) wrong.push(label(op, res.status));
    }
    expect(wrong).to.deep.equal([]);
  });

  it('with an invalid session cookie, every operation that declares security answers 401', async () => {
    const client = app.client();
    client.setCookie('media_session', 'forged.session.token');
    const wrong: string[] = [];
    for (const op of operations.filter((o) => o.secured)) {
      const res = await send(client, op);
      if (res.status !== 401) wrong.push(label(op, res.status));
    }
    expect(wrong).to.deep.equal([]);
  });

  for (const role of ['viewer', 'staff'] as const) {
    it(`a ${role} gets 403 on every operation under ${ADMIN_PREFIXES.join(', ')}`, async () => {
      const { client } = await signedInAs(app, role);
      const wrong: string[] = [];
      for (const op of operations.filter((o) => isAdminPath(o.path))) {
        const res = await send(client, op);
        if (res.status !== 403) wrong.push(label(op, res.status));
      }
      expect(wrong).to.deep.equal([]);
      expect((await client.get('/auth/me')).status, 'the session survived the walk').to.equal(200);
    });
  }
});
