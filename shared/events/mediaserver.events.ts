import { z } from 'zod';

/**
 * A user's link to their media server account, stream `mediaserverlink-<username key>`. The PIN
 * (whose id fetches the account token) and the token itself live in the credentials store; events
 * refer to them by credential id only.
 */
export const MediaserverPinStarted = z.object({
  username: z.string(),
  pin_credential_id: z.string(),
  expires_at: z.string(),
  at: z.string(),
});
export const MediaserverPinCancelled = z.object({ username: z.string(), pin_credential_id: z.string(), at: z.string() });
export const MediaserverPinExpired = z.object({ username: z.string(), pin_credential_id: z.string(), at: z.string() });
/** The account as the account service reports it: ids and names, never its token. */
export const MediaserverAccount = z.object({
  id: z.number().int(),
  uuid: z.string(),
  username: z.string().nullable(),
  title: z.string().nullable(),
  thumb: z.string().nullable(),
});
export const MediaserverLinked = z.object({
  username: z.string(),
  credential_id: z.string(),
  account: MediaserverAccount,
  /** The PIN this link completed, or null for a link made otherwise (a provisioned home user). */
  pin_credential_id: z.string().nullable(),
  at: z.string(),
});
export const MediaserverUnlinked = z.object({ username: z.string(), unlinked_by: z.string(), at: z.string() });

export const mediaserverEventSchemas = {
  MediaserverPinStarted,
  MediaserverPinCancelled,
  MediaserverPinExpired,
  MediaserverLinked,
  MediaserverUnlinked,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
export type MediaserverLinkEvent =
  | { type: 'MediaserverPinStarted'; data: Infer<typeof MediaserverPinStarted> }
  | { type: 'MediaserverPinCancelled'; data: Infer<typeof MediaserverPinCancelled> }
  | { type: 'MediaserverPinExpired'; data: Infer<typeof MediaserverPinExpired> }
  | { type: 'MediaserverLinked'; data: Infer<typeof MediaserverLinked> }
  | { type: 'MediaserverUnlinked'; data: Infer<typeof MediaserverUnlinked> };
export type MediaserverAccount = Infer<typeof MediaserverAccount>;
