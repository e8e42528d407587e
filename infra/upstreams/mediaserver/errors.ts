import { BadRequest, Unauthorized } from '../../../shared/errors.ts';

export const ACCOUNT_SERVICE = 'mediaserver account service';
export const SERVER_SERVICE = 'mediaserver';

/** The media server or its account service refused the token it was given (revoked, signed out). */
export class MediaserverTokenRejected extends Unauthorized {
  constructor(message = 'The media server rejected the stored token: link the account again') {
    super(message);
  }
}

/** The account service refused a request with its own message (a wrong PIN, an unknown home user). */
export class AccountServiceRefused extends BadRequest {
  constructor(
    message: string,
    readonly code: number | undefined,
  ) {
    super(message);
  }
}
