import { z } from 'zod';

/** A user's media server link as the interface shows it: the account's ids and names, never its token. */
export const LinkView = z.object({
  account_id: z.number().int(),
  account_uuid: z.string(),
  account_username: z.string().nullable(),
  account_title: z.string().nullable(),
  thumb: z.string().nullable(),
  linked_at: z.string(),
}).meta({ id: 'MediaserverLink' });
export type LinkView = z.infer<typeof LinkView>;
