import { expect } from 'chai';
import * as decider from '../../../../command/auth/user.decider.ts';
import type { UserCommand } from '../../../../command/auth/user.decider.ts';
import type { UserEvent } from '../../../../shared/events/users.events.ts';
import { Conflict, NotFound } from '../../../../shared/errors.ts';

const at = '2026-01-01T00:00:00.000Z';
const meta = (actor: string | null = 'alice') => ({ now: at, actor });

/** given(events).when(command).then(events) | .thenThrows(ErrorType, message?) */
function given(events: UserEvent[]) {
  const state = events.reduce(decider.evolve, decider.initialState());
  return {
    when(command: UserCommand) {
      return {
        then(expected: UserEvent[]) {
          expect(decider.decide(state, command)).to.deep.equal(expected);
        },
        thenThrows(type: new (...args: never[]) => Error, message?: RegExp) {
          expect(() => decider.decide(state, command)).to.throw(type, message);
        },
      };
    },
  };
}

const registered = (role: 'viewer' | 'staff' | 'admin' = 'viewer', username = 'alice'): UserEvent => ({
  type: 'UserRegistered',
  data: { username, role, credential_id: 'cred-1', registered_by: null, at },
});
const deleted: UserEvent = { type: 'UserDeleted', data: { username: 'alice', deleted_by: 'root', at } };

describe('user decider', () => {
  describe('RegisterUser', () => {
    it('registers a new name', () => {
      given([])
        .when({ type: 'RegisterUser', username: 'Alice', role: 'viewer', credentialId: 'cred-1', meta: meta(null) })
        .then([{ type: 'UserRegistered', data: { username: 'Alice', role: 'viewer', credential_id: 'cred-1', registered_by: null, at } }]);
    });

    it('refuses a name that is already registered with Conflict', () => {
      given([registered()])
        .when({ type: 'RegisterUser', username: 'alice', role: 'viewer', credentialId: 'cred-2', meta: meta() })
        .thenThrows(Conflict, /already exists/);
    });

    it('lets the name of a deleted account be registered again', () => {
      given([registered('admin'), deleted])
        .when({ type: 'RegisterUser', username: 'alice', role: 'viewer', credentialId: 'cred-2', meta: meta() })
        .then([{ type: 'UserRegistered', data: { username: 'alice', role: 'viewer', credential_id: 'cred-2', registered_by: 'alice', at } }]);
    });
  });

  describe('on an account that does not exist', () => {
    const commands: UserCommand[] = [
      { type: 'ChangeProfile', displayName: 'A', meta: meta() },
      { type: 'ChangePassword', credentialId: 'c', meta: meta() },
      { type: 'ChangeRole', role: 'admin', otherAdmins: 1, meta: meta() },
      { type: 'EndSessions', meta: meta() },
      { type: 'DeleteUser', otherAdmins: 1, meta: meta() },
    ];
    for (const command of commands) {
      it(`${command.type} on no account is NotFound`, () => given([]).when(command).thenThrows(NotFound));
      it(`${command.type} on a deleted account is NotFound`, () => given([registered(), deleted]).when(command).thenThrows(NotFound));
    }
  });

  describe('ChangeProfile', () => {
    it('records only the fields given', () => {
      given([registered()])
        .when({ type: 'ChangeProfile', displayName: 'Alice A.', preferences: { mediaserver_favorites_sync_enabled: true }, meta: meta() })
        .then([{ type: 'UserProfileChanged', data: { username: 'alice', display_name: 'Alice A.', preferences: { mediaserver_favorites_sync_enabled: true }, at } }]);
    });

    it('records a field cleared to null', () => {
      given([registered()])
        .when({ type: 'ChangeProfile', email: null, meta: meta() })
        .then([{ type: 'UserProfileChanged', data: { username: 'alice', email: null, at } }]);
    });

    it('is a no-op when no field is given', () => {
      given([registered()]).when({ type: 'ChangeProfile', displayName: undefined, meta: meta() }).then([]);
    });
  });

  describe('ChangePassword', () => {
    it('records the new credential id and who changed it', () => {
      given([registered()])
        .when({ type: 'ChangePassword', credentialId: 'cred-2', meta: meta('root') })
        .then([{ type: 'UserPasswordChanged', data: { username: 'alice', credential_id: 'cred-2', changed_by: 'root', at } }]);
    });
  });

  describe('ChangeRole', () => {
    it('changes the role', () => {
      given([registered('viewer')])
        .when({ type: 'ChangeRole', role: 'staff', otherAdmins: 0, meta: meta('root') })
        .then([{ type: 'UserRoleChanged', data: { username: 'alice', role: 'staff', changed_by: 'root', at } }]);
    });

    it('is a no-op when the role is unchanged', () => {
      given([registered('admin')]).when({ type: 'ChangeRole', role: 'admin', otherAdmins: 0, meta: meta() }).then([]);
    });

    it('refuses to demote the last admin with Conflict', () => {
      given([registered('admin')]).when({ type: 'ChangeRole', role: 'viewer', otherAdmins: 0, meta: meta() }).thenThrows(Conflict, /last admin/);
    });

    it('demotes an admin while another admin remains', () => {
      given([registered('admin')])
        .when({ type: 'ChangeRole', role: 'staff', otherAdmins: 1, meta: meta('root') })
        .then([{ type: 'UserRoleChanged', data: { username: 'alice', role: 'staff', changed_by: 'root', at } }]);
    });

    it('folds earlier role changes: a promoted user is guarded as an admin', () => {
      const promoted: UserEvent = { type: 'UserRoleChanged', data: { username: 'alice', role: 'admin', changed_by: 'root', at } };
      given([registered('viewer'), promoted]).when({ type: 'ChangeRole', role: 'viewer', otherAdmins: 0, meta: meta() }).thenThrows(Conflict);
    });
  });

  describe('EndSessions', () => {
    it('records that the sessions ended', () => {
      given([registered()]).when({ type: 'EndSessions', meta: meta() }).then([{ type: 'UserSessionsEnded', data: { username: 'alice', reason: 'logout', at } }]);
    });
  });

  describe('DeleteUser', () => {
    it('deletes a viewer', () => {
      given([registered('viewer')])
        .when({ type: 'DeleteUser', otherAdmins: 0, meta: meta('root') })
        .then([{ type: 'UserDeleted', data: { username: 'alice', deleted_by: 'root', at } }]);
    });

    it('refuses to delete the last admin with Conflict', () => {
      given([registered('admin')]).when({ type: 'DeleteUser', otherAdmins: 0, meta: meta() }).thenThrows(Conflict, /last admin/);
    });

    it('deletes an admin while another admin remains', () => {
      given([registered('admin')])
        .when({ type: 'DeleteUser', otherAdmins: 2, meta: meta('root') })
        .then([{ type: 'UserDeleted', data: { username: 'alice', deleted_by: 'root', at } }]);
    });
  });

  describe('session version', () => {
    it('counts what ends sessions, and a name registered again, as the users read model does', () => {
      const ended = (type: 'UserSessionsEnded' | 'UserRoleChanged'): UserEvent =>
        type === 'UserSessionsEnded'
          ? { type, data: { username: 'alice', reason: 'logout', at } }
          : { type, data: { username: 'alice', role: 'staff', changed_by: 'root', at } };
      const versionAfter = (events: UserEvent[]) => events.reduce(decider.evolve, decider.initialState()).sessionVersion;
      expect(versionAfter([registered()])).to.equal(0);
      const profile: UserEvent = { type: 'UserProfileChanged', data: { username: 'alice', display_name: 'A', at } };
      expect(versionAfter([registered(), profile, ended('UserSessionsEnded'), ended('UserRoleChanged')])).to.equal(2);
      expect(versionAfter([registered(), ended('UserSessionsEnded'), deleted, registered()])).to.equal(3);
    });
  });
});
