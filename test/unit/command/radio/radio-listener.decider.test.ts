import { expect } from 'chai';
import * as listener from '../../../../command/radio/radio-listener.decider.ts';
import type { RadioListenerEvent } from '../../../../shared/events/radio.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const chosen = (session_id: string): RadioListenerEvent => ({ type: 'RadioSessionChosen', data: { username: 'alice', session_id, replaces: [], at } });
const choose = (sessionId: string, openBefore: string[] = []) => ({ type: 'ChooseSession' as const, sessionId, openBefore, meta: { username: 'alice', now: at } });
const given = (...events: RadioListenerEvent[]) => events.reduce(listener.evolve, listener.initialState());

describe('radio listener decider (the active session)', () => {
  it('the first choice replaces the sessions found open before the stream existed, never itself', () => {
    const [event] = listener.decide(given(), choose('B', ['A', 'B', 'A']));
    expect(event!.data).to.deep.equal({ username: 'alice', session_id: 'B', replaces: ['A'], at });
  });

  it('a later choice replaces the one chosen before it, whatever the read model showed', () => {
    expect(listener.decide(given(chosen('A')), choose('B', ['X']))[0]!.data.replaces).to.deep.equal(['A']);
  });

  it('choosing the chosen session again (a resume) replaces nothing, and is still appended so racing choices are ordered', () => {
    const events = listener.decide(given(chosen('A')), choose('A'));
    expect(events).to.have.length(1);
    expect(events[0]!.data.replaces).to.deep.equal([]);
  });
});
