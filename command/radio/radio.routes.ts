import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { RadioSession, findSessionSummary } from '../../projectors/radio/radio-sessions.reads.ts';
import { Outcome, SeedKind, Signal } from '../../shared/events/radio.events.ts';
import type { SessionUser } from '../../shared/users.ts';
import { advanceAnswer } from './advance-answer.ts';
import { RadioSessionNotFound } from './radio-session.decider.ts';
import { radioCommands } from './radio-commands.ts';
import { MIN_POOL } from './seed-pool.ts';

const SessionParams = z.object({ session_id: z.string().min(1).max(64) });
const CanonicalId = z.string().trim().min(1).max(300);

/** The session with its current track; `GET /radio/sessions/{id}` lists every track. */
async function sessionAnswer(ctx: AppContext, user: SessionUser, sessionId: string): Promise<RadioSession> {
  const found = await findSessionSummary(ctx.db, user.username, sessionId);
  if (!found) throw new RadioSessionNotFound();
  return found;
}

const NOT_FOUND = { 404: "No such session of the caller's" };

export const radioCommandRoutes = [
  defineRoute({
    method: 'post',
    path: '/radio/sessions',
    tag: 'radio',
    summary: 'Start a radio session from a seed; the first track is picked at once',
    description:
      '`seed_kind` is `artist`, `album` or `track` (`seed_id` a canonical id) or `mood` or `genre` (`seed_id` its name). The candidate pool comes from the playable library ' +
      '(tracks the media server holds): the seed\'s artist and album, the scrobbler\'s similar artists and tracks, and tracks sharing its tags, moods or genres. ' +
      `Fewer than ${MIN_POOL} candidates is a 422 naming the seed and the pool size. Starting a session ends the caller's other active one. Every pick carries its \`reason\`.`,
    access: 'user',
    body: z.object({ seed_kind: SeedKind, seed_id: CanonicalId }),
    response: RadioSession,
    errors: { 404: 'Unknown canonical artist, album or track', 422: 'The seed pool is too thin (or a validation failure)' },
    handler: ({ ctx, user, body }) => radioCommands(ctx, user).start(body.seed_kind, body.seed_id),
    answer: ({ ctx, user }, sessionId) => sessionAnswer(ctx, user, sessionId),
  }),
  defineRoute({
    method: 'delete',
    path: '/radio/sessions/{session_id}',
    tag: 'radio',
    summary: 'End a radio session',
    description: '`ended_at` is set; the session stays in `recent` and can be resumed. Ending an ended session changes nothing.',
    access: 'user',
    params: SessionParams,
    response: RadioSession,
    errors: NOT_FOUND,
    handler: async ({ ctx, user, params }) => radioCommands(ctx, user).end(params.session_id),
    answer: ({ ctx, user, params }) => sessionAnswer(ctx, user, params.session_id),
  }),
  defineRoute({
    method: 'post',
    path: '/radio/sessions/{session_id}/resume',
    tag: 'radio',
    summary: 'Resume a session: it becomes the active one',
    description: "The caller's other open session ends first; `ended_at` is cleared and the session's cached candidate pool is reused. The current track stays the last one picked.",
    access: 'user',
    params: SessionParams,
    response: RadioSession,
    errors: NOT_FOUND,
    handler: async ({ ctx, user, params }) => radioCommands(ctx, user).resume(params.session_id),
    answer: ({ ctx, user, params }) => sessionAnswer(ctx, user, params.session_id),
  }),
  defineRoute({
    method: 'post',
    path: '/radio/sessions/{session_id}/advance',
    tag: 'radio',
    summary: 'Log what became of the current track and pick the next one',
    description:
      '`previous_outcome` is `played`, `skipped`, `disliked` or `liked`, logged on the session; `disliked` and `skipped` also enter the caller\'s cross-session feedback. ' +
      'The next track is in `current`, with its `reason`. An ended session must be resumed first (409).',
    access: 'user',
    params: SessionParams,
    body: z.object({ previous_outcome: Outcome }),
    response: RadioSession,
    errors: { ...NOT_FOUND, 409: 'The session has ended' },
    handler: async ({ ctx, user, params, body }) => radioCommands(ctx, user).advance(params.session_id, body.previous_outcome),
    answer: ({ ctx }, advanced) => advanceAnswer(ctx.db, advanced),
  }),
  defineRoute({
    method: 'post',
    path: '/radio/sessions/{session_id}/feedback',
    tag: 'radio',
    summary: 'Thumb a track up or down',
    description: 'Feeds this session\'s picks and the caller\'s later sessions (a thumbed-down artist sinks everywhere). Favorites are not touched.',
    access: 'user',
    params: SessionParams,
    body: z.object({ canonical_track_id: CanonicalId, signal: Signal }),
    response: z.object({ session_id: z.string(), canonical_track_id: z.string(), signal: Signal }),
    errors: { 404: "No such session of the caller's, or unknown track" },
    handler: async ({ ctx, user, params, body }) => {
      await radioCommands(ctx, user).feedback(params.session_id, body.canonical_track_id, body.signal);
      return { session_id: params.session_id, canonical_track_id: body.canonical_track_id, signal: body.signal };
    },
  }),
];
