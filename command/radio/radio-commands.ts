import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import { findLiveRow } from '../../projectors/canonical/canonical-docs.reads.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Outcome, RadioSessionEvent, SeedKind, Signal } from '../../shared/events/radio.events.ts';
import { newId } from '../../shared/ids.ts';
import { radioStream } from '../../shared/streams.ts';
import type { SessionUser } from '../../shared/users.ts';
import { callerSince } from '../me/account-since.ts';
import { makeActive } from './active-session.ts';
import { pickFacts } from './pick-facts.lookups.ts';
import * as radioSession from './radio-session.decider.ts';
import { type RadioSessionCommand, RadioSessionNotFound, type RadioSessionState, isOwn } from './radio-session.decider.ts';
import { seedPool } from './seed-pool.ts';

/** The caller's radio: start, advance, thumbs, end and resume, one active session at a time. */
export function radioCommands(ctx: AppContext, user: SessionUser) {
  let since: Promise<string> | undefined;
  const userSince = () => (since ??= callerSince(ctx, user));
  const metadata = { actor: user.username };

  async function run(sessionId: string, command: WithoutMeta<RadioSessionCommand>, now = new Date()) {
    const meta = { sessionId, username: user.username, userSince: await userSince(), now: now.toISOString() };
    return handleCommand<RadioSessionState, RadioSessionCommand, RadioSessionEvent>(ctx.store, radioStream(sessionId), radioSession, { ...command, meta } as RadioSessionCommand, metadata);
  }

  /** The caller's session as the log has it; 404 when it is not theirs. */
  async function own(sessionId: string): Promise<RadioSessionState> {
    const { state } = await aggregate(ctx.store, radioStream(sessionId), radioSession.evolve, radioSession.initialState());
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
        const facts = await pickFacts(ctx.db, user.username, sessionId, seeded.pool, now);
        await run(sessionId, { type: 'StartSession', seed: seeded.seed, poolSize: seeded.poolSize, pool: seeded.pool, wanted: seeded.wanted, facts }, now);
      }, replace);
      return sessionId;
    },

    async advance(sessionId: string, outcome: Outcome): Promise<void> {
      const state = await own(sessionId);
      const now = new Date();
      const facts = await pickFacts(ctx.db, user.username, sessionId, state.pool, now);
      await run(sessionId, { type: 'Advance', outcome, facts }, now);
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
