import type { AppContext } from '../../infra/context.ts';
import { findLiveRow } from '../../projectors/canonical/canonical-docs.reads.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import { NotFound, Unauthorized } from '../../shared/errors.ts';
import type { Outcome, SeedKind, Signal } from '../../shared/events/radio.events.ts';
import { newId } from '../../shared/ids.ts';
import type { SessionUser } from '../../shared/users.ts';
import { callerSince } from '../me/account-since.ts';
import { makeActive } from './active-session.ts';
import type { Advanced } from './advance-answer.ts';
import type { PickFacts } from './pick-next.ts';
import { type CardRead, callerFacts } from './pick-facts.lookups.ts';
import { guessPick, rememberFacts } from './pick-guess.ts';
import { type RadioSessionCommand, RadioSessionNotFound, type RadioSessionState, isOwn } from './radio-session.decider.ts';
import { seedPool } from './seed-pool.ts';
import { decideOnSession, foldedSession } from './session-log.ts';

/** The caller's radio: start, advance, thumbs, end and resume, one active session at a time. */
export function radioCommands(ctx: AppContext, user: SessionUser) {
  let since: Promise<string> | undefined;
  const userSince = () => (since ??= callerSince(ctx, user));
  const metadata = { actor: user.username };
  const meta = (sessionId: string, userSince: string, now: Date) => ({ sessionId, username: user.username, userSince, now: now.toISOString() });

  async function run(sessionId: string, command: WithoutMeta<RadioSessionCommand>, now = new Date()) {
    return decideOnSession(ctx.store, sessionId, async () => ({ ...command, meta: meta(sessionId, await userSince(), now) }) as RadioSessionCommand, metadata);
  }

  /** The caller's session as this process folded it (who owns it and its pool never change); 404 when it is not theirs. */
  async function own(sessionId: string): Promise<RadioSessionState> {
    const state = await foldedSession(ctx.store, sessionId);
    if (!isOwn(state, user.username, await userSince())) throw new RadioSessionNotFound();
    return state;
  }

  const replace = async (other: string) => void (await run(other, { type: 'EndSession', cause: 'replaced' }));

  return {
    async start(seedKind: SeedKind, seedId: string): Promise<string> {
      const sessionId = newId();
      const seeded = await seedPool(ctx, user.username, seedKind, seedId);
      await makeActive(ctx, user, sessionId, async () => {
        const now = new Date();
        const { facts } = await callerFacts(ctx.db, user.username, sessionId, seeded.pool, now);
        await run(sessionId, { type: 'StartSession', seed: seeded.seed, poolSize: seeded.poolSize, pool: seeded.pool, wanted: seeded.wanted, facts }, now);
        rememberFacts(ctx.store, sessionId, facts);
      }, replace);
      return sessionId;
    },

    /**
     * The hot path: the session as folded in memory, one read of the facts a pick weighs (and the
     * caller's account, and the card of the track the last facts would pick), one append. The
     * answer is built from what was decided.
     */
    async advance(sessionId: string, outcome: Outcome): Promise<Advanced> {
      let read: { facts: PickFacts; card?: CardRead } | undefined;
      const { events, state } = await decideOnSession(ctx.store, sessionId, async (folded) => {
        const now = new Date();
        const guess = guessPick(ctx.store, sessionId, folded, outcome, user.username, now);
        const { facts, since, card } = await callerFacts(ctx.db, user.username, sessionId, folded.pool, now, guess);
        if (since === undefined) throw new Unauthorized();
        read = { facts, ...(card ? { card } : {}) };
        return { type: 'Advance', outcome, facts, meta: meta(sessionId, since, now) };
      }, metadata);
      const picked = events.at(-1);
      if (picked?.type !== 'RadioTrackPicked') throw new Error('an advance always picks a track');
      rememberFacts(ctx.store, sessionId, read!.facts);
      const card = read!.card?.trackId === picked.data.canonical_track_id ? read!.card : undefined;
      return { state, picked: picked.data, ...(card ? { card } : {}) };
    },

    /** A thumb on any track (the session's or not); it never touches favorites. */
    async feedback(sessionId: string, trackId: string, signal: Signal): Promise<void> {
      const state = await own(sessionId);
      const inPool = state.pool.find((e) => e.track_id === trackId);
      const artistId = inPool ? inPool.artist_id : await trackArtist(ctx, trackId);
      await run(sessionId, { type: 'GiveFeedback', trackId, artistId, signal });
    },

    async end(sessionId: string): Promise<void> {
      await run(sessionId, { type: 'EndSession', cause: 'ended' });
    },

    async resume(sessionId: string): Promise<void> {
      await own(sessionId);
      await makeActive(ctx, user, sessionId, async () => void (await run(sessionId, { type: 'ResumeSession' })), replace);
    },
  };
}

async function trackArtist(ctx: AppContext, trackId: string): Promise<string | null> {
  const row = await findLiveRow(ctx.db, 'track', trackId);
  if (!row) throw new NotFound(`Unknown canonical track ${trackId}`);
  return row.artist_id;
}
