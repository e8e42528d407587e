import { UpstreamError, UpstreamNotFound } from '../../../shared/errors.ts';
import { createUpstreamClient, type HttpMethod, type SearchParams, type UpstreamClient } from '../http-client.ts';
import type { Pacer } from '../pacer.ts';
import { ACCOUNT_SERVICE, AccountServiceRefused, MediaserverTokenRejected } from './errors.ts';
import { decodeBody, parseWith, plexHeaders, unwrapUser } from './plex.ts';
import { AccountErrors, AccountUser, HomeUsers, type HomeUser, Pin, SwitchedUser } from './schemas.ts';
import type { ZodType } from 'zod';

export interface AccountClientOptions {
  baseUrl: string;
  clientId: string;
  pacer?: Pacer;
  retries?: number;
  retryBaseMs?: number;
}

/** Statuses whose body is read: the v2 error envelope, or "no such PIN". */
const READ_STATUSES = [400, 401, 403, 404, 422] as const;
/** The account service's code for "a valid PIN is required". */
const PIN_REQUIRED = 1041;

/**
 * The media server's account service: PINs for linking, the signed-in user, home users and
 * switching to one. User tokens go in as arguments and are never kept here.
 */
export function createAccountClient(options: AccountClientOptions) {
  const base = { service: ACCOUNT_SERVICE, baseUrl: options.baseUrl, pacer: options.pacer, retryBaseMs: options.retryBaseMs };
  const http: UpstreamClient = createUpstreamClient({ ...base, retries: options.retries });
  // A PIN poll is never retried: the client polls again in two seconds, and one finish call is one poll.
  const once: UpstreamClient = createUpstreamClient({ ...base, retries: 0 });

  async function call<T>(method: HttpMethod, path: string, schema: ZodType<T>, token?: string, searchParams?: SearchParams, client = http): Promise<T> {
    const label = `${method} ${path.replace(/\/\d+$/, '/{id}')}`;
    const res = await client.request(method, path, { headers: plexHeaders(options.clientId, token), searchParams, allowStatuses: READ_STATUSES });
    const data = decodeBody(ACCOUNT_SERVICE, label, res);
    if (res.status >= 200 && res.status < 300) return parseWith(ACCOUNT_SERVICE, label, schema, unwrapUser(data));
    const envelope = AccountErrors.safeParse(data);
    const first = envelope.success ? envelope.data.errors[0] : undefined;
    if (res.status === 404) throw new UpstreamNotFound(ACCOUNT_SERVICE, `${label} found nothing`);
    if (res.status === 401 && first?.code !== PIN_REQUIRED) throw new MediaserverTokenRejected();
    if (first) throw new AccountServiceRefused(first.message, first.code);
    throw new UpstreamError(ACCOUNT_SERVICE, `${label} answered ${res.status}`);
  }

  return {
    /** A new PIN for the user to enter on the account service's link page. */
    createPin: () => call('POST', '/api/v2/pins', Pin, undefined, { strong: 'true' }),
    /** One poll: the PIN with `authToken` once the user linked it; UpstreamNotFound once it expired. */
    pollPin: (pinId: number) => call('GET', `/api/v2/pins/${pinId}`, Pin, undefined, undefined, once),
    user: (token: string) => call('GET', '/api/v2/user', AccountUser, token),
    async homeUsers(token: string): Promise<HomeUser[]> {
      return (await call('GET', '/api/v2/home/users', HomeUsers, token)).users;
    },
    /** Signs in as a home user; a wrong PIN or an unknown user is refused with the service's message. */
    switchUser: (token: string, uuid: string, pin: string) =>
      call('POST', `/api/v2/home/users/${encodeURIComponent(uuid)}/switch`, SwitchedUser, token, { pin }),
  };
}

export type AccountClient = ReturnType<typeof createAccountClient>;
