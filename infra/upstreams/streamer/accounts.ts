import { createHash } from 'node:crypto';
import type { UpstreamClient } from '../http-client.ts';
import { SERVICE, StreamerGrantRefused } from './errors.ts';
import { TokenAnswer, TokenError } from './schemas.ts';
import { UpstreamError } from '../../../shared/errors.ts';

/** What the sync, the reads it mirrors and the audio-features task need, and nothing more. */
export const SCOPES = ['user-read-private', 'user-library-read', 'user-follow-read', 'playlist-read-private', 'playlist-read-collaborative', 'user-read-recently-played'];

/** The PKCE challenge of a verifier (S256: base64url of its SHA-256). */
export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export interface AccountsSettings {
  accountsUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** The authorization code flow with PKCE against the accounts service. */
export function accountsClient(http: UpstreamClient, settings: AccountsSettings) {
  const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');

  async function token(form: Record<string, string>): Promise<TokenAnswer> {
    const res = await http.request('POST', 'api/token', { form, headers: { authorization: `Basic ${basic}` }, allowStatuses: [400, 401] });
    const body = parse(res.body);
    if (res.status === 200) {
      const answer = TokenAnswer.safeParse(body);
      if (answer.success) return answer.data;
      throw new UpstreamError(SERVICE, 'POST /api/token answered an unexpected shape');
    }
    const refused = TokenError.safeParse(body);
    if (refused.success) throw new StreamerGrantRefused(refused.data.error, refused.data.error_description);
    throw new UpstreamError(SERVICE, `POST /api/token answered ${res.status}`);
  }

  return {
    authorizeUrl(state: string, verifier: string): string {
      const url = new URL(`${settings.accountsUrl}/authorize`);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('redirect_uri', settings.redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('scope', SCOPES.join(' '));
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('code_challenge', pkceChallenge(verifier));
      return url.toString();
    },
    exchangeCode: (code: string, verifier: string) => token({ grant_type: 'authorization_code', code, redirect_uri: settings.redirectUri, code_verifier: verifier }),
    refresh: (refreshToken: string) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    /** An app token (no user): enough for catalog reads such as audio features. */
    appToken: () => token({ grant_type: 'client_credentials' }),
  };
}

export type AccountsClient = ReturnType<typeof accountsClient>;

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
