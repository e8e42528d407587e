import { z } from 'zod';
import type { UserEvent, Role, Preferences } from '../../shared/events/users.events.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';

type RoleName = z.infer<typeof Role>;

export interface UserState {
  status: 'none' | 'active' | 'deleted';
  username: string;
  role: RoleName;
  credentialId: string | null;
  scrobblerUsername: string | null;
  /**
   * Bumped by every session-ending event and by registering a deleted name again, exactly as the
   * users read model counts it: sessions issued under an older version are void.
   */
  sessionVersion: number;
}

export const initialState = (): UserState => ({ status: 'none', username: '', role: 'viewer', credentialId: null, scrobblerUsername: null, sessionVersion: 0 });

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const sessionVersion = state.status === 'none' ? 0 : state.sessionVersion + 1;
      return { status: 'active', username: event.data.username, role: event.data.role, credentialId: event.data.credential_id, scrobblerUsername: null, sessionVersion };
    }
    case 'UserPasswordChanged':
      return { ...state, credentialId: event.data.credential_id, sessionVersion: state.sessionVersion + 1 };
    case 'UserRoleChanged':
      return { ...state, role: event.data.role, sessionVersion: state.sessionVersion + 1 };
    case 'UserDeleted':
      return { ...state, status: 'deleted', credentialId: null, scrobblerUsername: null, sessionVersion: state.sessionVersion + 1 };
    case 'ScrobblerLinked':
      return { ...state, scrobblerUsername: event.data.scrobbler_username };
    case 'ScrobblerUnlinked':
      return { ...state, scrobblerUsername: null };
    case 'UserSessionsEnded':
      return { ...state, sessionVersion: state.sessionVersion + 1 };
    case 'UserProfileChanged':
      return state;
    default:
      return assertNever(event);
  }
}

interface Meta {
  now: string;
  /** Who acts: the user themself, an admin, or null for the first-start bootstrap. */
  actor: string | null;
}

export type UserCommand =
  | { type: 'RegisterUser'; username: string; role: RoleName; credentialId: string; meta: Meta }
  | {
      type: 'ChangeProfile';
      displayName?: string | null | undefined;
      email?: string | null | undefined;
      preferences?: z.infer<typeof Preferences> | undefined;
      meta: Meta;
    }
  | { type: 'ChangePassword'; credentialId: string; meta: Meta }
  /** `otherAdmins`: active admins besides this user, read from the users read model. */
  | { type: 'ChangeRole'; role: RoleName; otherAdmins: number; meta: Meta }
  | { type: 'EndSessions'; meta: Meta }
  | { type: 'DeleteUser'; otherAdmins: number; meta: Meta }
  /** The session key is already in the credentials store under `credentialId`. */
  | { type: 'LinkScrobbler'; scrobblerUsername: string; credentialId: string; meta: Meta }
  | { type: 'UnlinkScrobbler'; meta: Meta };

export function decide(state: UserState, command: UserCommand): UserEvent[] {
  const at = command.meta.now;
  const by = command.meta.actor;
  if (command.type === 'RegisterUser') {
    if (state.status === 'active') throw new Conflict('Username already exists');
    return [{ type: 'UserRegistered', data: { username: command.username, role: command.role, credential_id: command.credentialId, registered_by: by, at } }];
  }
  if (state.status !== 'active') throw new NotFound('User not found');
  const username = state.username;
  switch (command.type) {
    case 'ChangeProfile': {
      const changes = {
        ...(command.displayName !== undefined ? { display_name: command.displayName } : {}),
        ...(command.email !== undefined ? { email: command.email } : {}),
        ...(command.preferences !== undefined ? { preferences: command.preferences } : {}),
      };
      return Object.keys(changes).length === 0 ? [] : [{ type: 'UserProfileChanged', data: { username, ...changes, at } }];
    }
    case 'ChangePassword':
      return [{ type: 'UserPasswordChanged', data: { username, credential_id: command.credentialId, changed_by: by ?? username, at } }];
    case 'ChangeRole':
      if (command.role === state.role) return [];
      if (state.role === 'admin' && command.otherAdmins === 0) throw new Conflict('The last admin cannot be demoted');
      return [{ type: 'UserRoleChanged', data: { username, role: command.role, changed_by: by ?? username, at } }];
    case 'EndSessions':
      return [{ type: 'UserSessionsEnded', data: { username, reason: 'logout', at } }];
    case 'DeleteUser':
      if (state.role === 'admin' && command.otherAdmins === 0) throw new Conflict('The last admin cannot be deleted');
      return [{ type: 'UserDeleted', data: { username, deleted_by: by ?? username, at } }];
    case 'LinkScrobbler':
      return [{ type: 'ScrobblerLinked', data: { username, scrobbler_username: command.scrobblerUsername, credential_id: command.credentialId, at } }];
    case 'UnlinkScrobbler':
      return state.scrobblerUsername === null ? [] : [{ type: 'ScrobblerUnlinked', data: { username, at } }];
    default:
      return assertNever(command);
  }
}
