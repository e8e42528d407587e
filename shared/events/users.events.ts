import { z } from 'zod';

/**
 * Accounts, stream `user-<username key>`. No password, hash or token ever appears here: a
 * credential is referred to by the id of its row in the encrypted credentials table.
 */
export const Role = z.enum(['viewer', 'staff', 'admin']);

export const Preferences = z.object({ mediaserver_favorites_sync_enabled: z.boolean() }).partial();

export const UserRegistered = z.object({
  username: z.string(),
  role: Role,
  credential_id: z.string(),
  registered_by: z.string().nullable(),
  at: z.string(),
});
export const UserProfileChanged = z.object({
  username: z.string(),
  display_name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  preferences: Preferences.optional(),
  at: z.string(),
});
export const UserPasswordChanged = z.object({ username: z.string(), credential_id: z.string(), changed_by: z.string(), at: z.string() });
export const UserRoleChanged = z.object({ username: z.string(), role: Role, changed_by: z.string(), at: z.string() });
export const UserSessionsEnded = z.object({ username: z.string(), reason: z.enum(['logout']), at: z.string() });
/** The user linked a scrobbler account; its session key lives in the credentials store, never here. */
export const ScrobblerLinked = z.object({ username: z.string(), scrobbler_username: z.string(), credential_id: z.string(), at: z.string() });
export const ScrobblerUnlinked = z.object({ username: z.string(), at: z.string() });
export const UserDeleted = z.object({ username: z.string(), deleted_by: z.string(), at: z.string() });

export const userEventSchemas = {
  UserRegistered,
  UserProfileChanged,
  UserPasswordChanged,
  UserRoleChanged,
  UserSessionsEnded,
  UserDeleted,
  ScrobblerLinked,
  ScrobblerUnlinked,
} as const;

export type UserEvent =
  | { type: 'UserRegistered'; data: z.infer<typeof UserRegistered> }
  | { type: 'UserProfileChanged'; data: z.infer<typeof UserProfileChanged> }
  | { type: 'UserPasswordChanged'; data: z.infer<typeof UserPasswordChanged> }
  | { type: 'UserRoleChanged'; data: z.infer<typeof UserRoleChanged> }
  | { type: 'UserSessionsEnded'; data: z.infer<typeof UserSessionsEnded> }
  | { type: 'UserDeleted'; data: z.infer<typeof UserDeleted> }
  | { type: 'ScrobblerLinked'; data: z.infer<typeof ScrobblerLinked> }
  | { type: 'ScrobblerUnlinked'; data: z.infer<typeof ScrobblerUnlinked> };

/** Events that end every session of the user they name. */
export const SESSION_ENDING_EVENTS = ['UserPasswordChanged', 'UserRoleChanged', 'UserSessionsEnded', 'UserDeleted'] as const;
