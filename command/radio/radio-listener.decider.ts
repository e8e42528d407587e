import type { RadioListenerEvent } from '../../shared/events/radio.events.ts';

/**
 * A listener's active radio session, stream `radiolistener-<user>`. Every start and resume is
 * chosen here, appended at the revision read: two racing ones are put in order, and each ends the
 * one chosen before it.
 */
export interface RadioListenerState {
  /** The session chosen last; null before the first choice. */
  chosen: string | null;
}

export const initialState = (): RadioListenerState => ({ chosen: null });

export const evolve = (_state: RadioListenerState, event: RadioListenerEvent): RadioListenerState => ({ chosen: event.data.session_id });

export interface ChooseSession {
  type: 'ChooseSession';
  sessionId: string;
  /**
   * The user's open sessions as the read model showed them before the stream was read: they matter
   * only for the first choice (sessions opened before this stream existed); later choices end the
   * one chosen before.
   */
  openBefore: string[];
  meta: { username: string; now: string };
}

export function decide(state: RadioListenerState, command: ChooseSession): RadioListenerEvent[] {
  const before = state.chosen === null ? command.openBefore : [state.chosen];
  const replaces = [...new Set(before)].filter((id) => id !== command.sessionId);
  return [{ type: 'RadioSessionChosen', data: { username: command.meta.username, session_id: command.sessionId, replaces, at: command.meta.now } }];
}
