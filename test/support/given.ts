import { accounts } from '../../command/auth/accounts.ts';
import { unitOfWork } from '../../infra/projections/read-models.ts';
import type { Role } from '../../shared/users.ts';
import type { ApiClient, TestApp } from './api.ts';

export const ADMIN = { username: 'admin', password: 'admin-password-for-tests' };

/** A client signed in as the first-start admin. */
export async function signedInAdmin(app: TestApp): Promise<ApiClient> {
  const client = app.client();
  const res = await client.post('/auth/login', ADMIN);
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

let counter = 0;

/** A new account with the role, and a client signed in as it. */
export async function signedInAs(app: TestApp, role: Role, username = `${role}${++counter}`): Promise<{ client: ApiClient; username: string; password: string }> {
  const password = `${username}-password`;
  // As a route would: the login below reads the users read model, so wait until it holds the account.
  await unitOfWork(app.ctx.readModels, () => accounts(app.ctx).register(username, password, role, null), { reactions: false });
  const client = app.client();
  const res = await client.post('/auth/login', { username, password });
  if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status}`);
  return { client, username, password };
}
