import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';

/**
 * The role matrix, route prefix × caller, as docs/accounts.md states it. Every operation of
 * /openapi.json must match one row (the first that matches counts): a new route without a row
 * fails this file until someone decides who may call it.
 */
type Caller = 'anonymous' | 'viewer' | 'staff' | 'admin';
const ANYONE: Caller[] = ['anonymous', 'viewer', 'staff', 'admin'];
const SIGNED_IN: Caller[] = ['viewer', 'staff', 'admin'];
const STAFF: Caller[] = ['staff', 'admin'];
const ADMIN: Caller[] = ['admin'];

const MATRIX: { route: RegExp; allowed: Caller[] }[] = [
  { route: /^POST \/auth\/(login|logout|register)$/, allowed: ANYONE },
  // Probes for a load balancer or an orchestrator: no session, nothing personal in the answer.
  { route: /^GET \/(healthz|readyz)$/, allowed: ANYONE },
  { route: /^\w+ \/auth\/me(\/|$)/, allowed: SIGNED_IN },
  { route: /^\w+ \/auth\/users\//, allowed: ADMIN },
  { route: /^\w+ \/admin\//, allowed: ADMIN },
  { route: /^\w+ \/mediaserver\/admin\//, allowed: ADMIN },
  { route: /^\w+ \/metabase\/admin\//, allowed: ADMIN },
  // Linking and unlinking refs changes a shared entity, and so what it plays, for everyone.
  { route: /^(POST|DELETE) \/(artists|albums|tracks)\/\{\w+\}\/refs(\/|$)/, allowed: STAFF },
  { route: /^POST \/(artists|albums|tracks)\/refs\/check$/, allowed: SIGNED_IN },
  { route: /^GET \/(artists|albums|tracks)\//, allowed: SIGNED_IN },
  { route: /^\w+ \/me\//, allowed: SIGNED_IN },
  { route: /^GET \/library\//, allowed: SIGNED_IN },
  { route: /^\w+ \/scrobbler\//, allowed: SIGNED_IN },
  { route: /^\w+ \/mediaserver\//, allowed: SIGNED_IN },
  // The assistant: proposals and seeds for the caller; creating a playlist uses their own media server token.
  { route: /^POST \/library\/playlist\/(generate|create)$/, allowed: SIGNED_IN },
  { route: /^GET \/radio\/seed-from-text$/, allowed: SIGNED_IN },
  { route: /^\w+ \/metabase\//, allowed: SIGNED_IN },
  // Webhooks from machines: no session; the intake's shared secret decides (404 while it is unset, 401 when wrong).
  { route: /^POST \/monitor\/webhooks\//, allowed: ANYONE },
  // The caller's own streamer link and mirror; the OAuth callback too needs the session that started it.
  { route: /^\w+ \/streamer\//, allowed: SIGNED_IN },
  // Radio sessions, feedback, discoveries and moods: the caller's own.
  { route: /^\w+ \/radio\//, allowed: SIGNED_IN },
];

/** What a 403 says, by the least role allowed; the OpenAPI document must say the same. */
const REFUSAL: Record<string, string> = { staff: 'Staff or admin role required', admin: 'Admin role required' };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Operation {
  name: string;
  method: string;
  url: string;
  secured: boolean;
  documented403?: string;
  allowed?: Caller[];
}

type Document = { paths: Record<string, Partial<Record<string, { security?: unknown[]; responses: Record<string, { description: string }> }>>> };

function operationsOf(document: Document): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method]!;
      const name = `${method.toUpperCase()} ${path}`;
      // `[{}]` would make a session optional: only a non-empty requirement counts as secured.
      const secured = (operation.security ?? []).some((requirement) => Object.keys(requirement as object).length > 0);
      const url = path.replace(/\{[^}]+\}/g, 'dummy-value');
      const allowed = MATRIX.find((row) => row.route.test(name))?.allowed;
      return { name, method: method.toUpperCase(), url, secured, documented403: operation.responses['403']?.description, allowed };
    }),
  );
}

const send = (client: ApiClient, op: Operation) => client.request(op.method, op.url, UNSAFE.has(op.method) ? {} : undefined);

describe('auth: the role matrix over every route of /openapi.json', () => {
  let app: TestApp;
  let operations: Operation[];
  const clients = {} as Record<Caller, ApiClient>;
  before(async () => {
    app = await startTestApp();
    const res = await app.client().get('/openapi.json');
    expect(res.status).to.equal(200);
    operations = operationsOf(res.body as Document);
    clients.anonymous = app.client();
    clients.viewer = (await signedInAs(app, 'viewer')).client;
    clients.staff = (await signedInAs(app, 'staff')).client;
    clients.admin = await signedInAdmin(app);
  });
  after(() => app.close());

  it('finds the auth, curation and admin operations in the document', () => {
    const names = operations.map((op) => op.name);
    expect(names).to.include.members(['GET /auth/me', 'GET /auth/users/', 'POST /artists/{artist_id}/refs', 'POST /admin/canonical/tracks/{target_id}/merge']);
    expect(operations.filter((op) => op.allowed === ADMIN).length).to.be.greaterThan(4);
  });

  it('every operation has a row in the matrix', () => {
    expect(operations.filter((op) => !op.allowed).map((op) => op.name)).to.deep.equal([]);
  });

  it('the document declares a session exactly where the matrix refuses anonymous callers, and a 403 where it refuses a role', () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const allowed = op.allowed ?? ANYONE;
      if (op.secured !== !allowed.includes('anonymous')) wrong.push(`${op.name}: security ${op.secured}`);
      const refusal = allowed.includes('viewer') ? undefined : REFUSAL[allowed[0]!];
      // A write's 403 also names the cross-origin refusal, after the role's.
      if (refusal && !op.documented403?.startsWith(refusal)) wrong.push(`${op.name}: 403 documented as ${op.documented403}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('each caller is refused exactly where the matrix says (401 without a session, 403 for a role), and the least privileged allowed one is let through', async function () {
    this.timeout(60_000);
    const wrong: string[] = [];
    for (const caller of ['anonymous', 'viewer', 'staff', 'admin'] as const) {
      for (const op of operations) {
        const allowed = (op.allowed ?? []).includes(caller);
        // Every refusal is probed; of the callers let through, only the least privileged (a role
        // above it passes the same check), and never a signed-in one on a public route: logout
        // would end the session the walk needs.
        if (allowed && caller !== op.allowed![0]) continue;
        const { status } = await send(clients[caller], op);
        const expected = allowed ? 'not 401/403' : caller === 'anonymous' ? '401' : '403';
        const ok = allowed ? status !== 401 && status !== 403 : status === (caller === 'anonymous' ? 401 : 403);
        if (!ok) wrong.push(`${caller} ${op.name} → ${status} (expected ${expected})`);
      }
      if (caller !== 'anonymous') expect((await clients[caller].get('/auth/me')).status, `${caller}'s session survived the walk`).to.equal(200);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('with an invalid session cookie, every operation that declares security answers 401', async () => {
    const client = app.client();
    client.setCookie('media_session', 'forged.session.token');
    const wrong: string[] = [];
    for (const op of operations.filter((o) => o.secured)) {
      const res = await send(client, op);
      if (res.status !== 401) wrong.push(`${op.name} → ${res.status}`);
    }
    expect(wrong).to.deep.equal([]);
  });
});
