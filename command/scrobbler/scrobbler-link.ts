import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { userStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import * as userDecider from '../auth/user.decider.ts';
import type { UserCommand } from '../auth/user.decider.ts';

export interface ScrobblerLink {
  scrobblerUsername: string;
  credentialId: string;
}

function evolveLink(link: ScrobblerLink | null, e: UserEvent): ScrobblerLink | null {
  if (e.type === 'ScrobblerLinked') return { scrobblerUsername: e.data.scrobbler_username, credentialId: e.data.credential_id };
  return e.type === 'ScrobblerUnlinked' || e.type === 'UserDeleted' ? null : link;
}

/** The user's current link, folded from the user stream (the session key's credential is not projected). */
export async function currentLink(ctx: AppContext, username: string): Promise<ScrobblerLink | null> {
  return (await aggregate(ctx.store, userStream(usernameKey(username)), evolveLink, null)).state;
}

/** The stored session key of the user's link, or undefined when there is none (or it cannot be read). */
export async function sessionKeyOf(ctx: AppContext, link: ScrobblerLink | null): Promise<string | undefined> {
  return link ? ctx.auth.credentials.get(link.credentialId) : undefined;
}

async function onUser(ctx: AppContext, username: string, command: WithoutMeta<UserCommand>) {
  const handled = await handleCommand<userDecider.UserState, UserCommand, UserEvent>(
    ctx.store,
    userStream(usernameKey(username)),
    userDecider,
    { ...command, meta: { now: new Date().toISOString(), actor: username } } as UserCommand,
    { actor: username },
  );
  return handled;
}

/**
 * Stores the session key first, then records the link that refers to it; the key it replaces is
 * dropped afterwards. A refused command drops the new key again.
 */
export async function linkScrobbler(ctx: AppContext, username: string, scrobblerUsername: string, sessionKey: string): Promise<void> {
  const previous = await currentLink(ctx, username);
  const credentialId = await ctx.auth.credentials.put(usernameKey(username), 'scrobbler_session', sessionKey);
  try {
    await onUser(ctx, username, { type: 'LinkScrobbler', scrobblerUsername, credentialId });
  } catch (error) {
    await ctx.auth.credentials.remove(credentialId);
    throw error;
  }
  if (previous && previous.credentialId !== credentialId) await ctx.auth.credentials.remove(previous.credentialId);
}

/** Unlinks and forgets the session key; unlinking an unlinked user changes nothing. */
export async function unlinkScrobbler(ctx: AppContext, username: string): Promise<boolean> {
  const previous = await currentLink(ctx, username);
  const handled = await onUser(ctx, username, { type: 'UnlinkScrobbler' });
  if (previous) await ctx.auth.credentials.remove(previous.credentialId);
  return handled.events.length > 0;
}
