import { NotConfigured, UpstreamError } from '../../../shared/errors.ts';

export const SERVICE = 'streamer';
export const REQUIRED_SETTINGS = ['STREAMER_CLIENT_ID', 'STREAMER_CLIENT_SECRET', 'STREAMER_REDIRECT_URI'] as const;

export class StreamerNotConfigured extends NotConfigured {
  constructor() {
    super(`The streamer is not configured: set ${REQUIRED_SETTINGS.join(', ')}`);
  }
}

/** The accounts service refused a code or a refresh token (`invalid_grant`): the user must link again. */
export class StreamerGrantRefused extends UpstreamError {
  constructor(readonly error: string, description: string | undefined) {
    super(SERVICE, `the accounts service refused the grant (${error}${description ? `: ${description}` : ''})`);
  }
}

/** The API refused a call with 403 (the audio-features endpoint does for applications registered since late 2024). */
export class StreamerForbidden extends UpstreamError {
  constructor(label: string) {
    super(SERVICE, `${label} answered 403`);
  }
}
