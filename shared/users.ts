import type { z } from 'zod';
import type { Role as RoleSchema } from './events/users.events.ts';

export type Role = z.infer<typeof RoleSchema>;

/** What a request knows of its caller: resolved from the session cookie without a database round trip. */
export interface SessionUser {
  username: string;
  role: Role;
}
