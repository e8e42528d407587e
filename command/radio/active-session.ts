import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import { openSessionIds } from '../../projectors/radio/radio-sessions.reads.ts';
import type { RadioListenerEvent } from '../../shared/events/radio.events.ts';
import { radioListenerStream } from '../../shared/streams.ts';
import type { SessionUser } from '../../shared/users.ts';
import { usernameKey } from '../../shared/usernames.ts';
import * as radioListener from './radio-listener.decider.ts';
import type { ChooseSession, RadioListenerState } from './radio-listener.decider.ts';

/**
 * One active session per user, under concurrent starts and resumes. A session is chosen on the
 * listener's stream before it becomes active, and the one chosen before it is ended; a session that
 * a later choice overtook while it was becoming active ends itself. Whatever the interleaving, the
 * last one chosen is the only one left open.
 */
export async function makeActive(ctx: AppContext, user: SessionUser, sessionId: string, activate: () => Promise<void>, end: (sessionId: string) => Promise<void>): Promise<void> {
  const stream = radioListenerStream(usernameKey(user.username));
  // Read before the stream: on the first choice, these are the sessions opened before it existed.
  const openBefore = await openSessionIds(ctx.db, user.username);
  const command: ChooseSession = { type: 'ChooseSession', sessionId, openBefore, meta: { username: user.username, now: new Date().toISOString() } };
  const { events } = await handleCommand<RadioListenerState, ChooseSession, RadioListenerEvent>(ctx.store, stream, radioListener, command, { actor: user.username });
  for (const replaced of events.flatMap((e) => e.data.replaces)) await end(replaced);
  await activate();
  const { state } = await aggregate(ctx.store, stream, radioListener.evolve, radioListener.initialState());
  if (state.chosen !== sessionId) await end(sessionId);
}
