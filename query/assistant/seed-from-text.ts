import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { askModel, modelConfigured } from '../../infra/upstreams/llm/ask-model.ts';
import type { FailedAnswer } from '../../shared/assistant.ts';
import type { ChatMessage } from '../../infra/upstreams/llm/chat-completions.ts';
import { entityByFoldedName, playableTerm, playableTerms } from './library-vocabulary.queries.ts';

/** How many of the library's moods and genres the prompt lists (the most common ones). */
const TERMS_IN_PROMPT = 100;

/** What the model answers: `{"seed_kind": "artist|album|mood|genre", "seed": string}`. */
const ModelSeed = z.object({ seed_kind: z.enum(['artist', 'album', 'mood', 'genre']), seed: z.string().trim().min(1).max(300) });
type ModelSeed = z.infer<typeof ModelSeed>;

export const Seed = z.object({
  /** As `POST /radio/sessions` takes it: `artist` and `album` name canonical ids; `mood` and `genre` their names. */
  seed_kind: z.enum(['artist', 'album', 'mood', 'genre']),
  seed_id: z.string(),
  label: z.string(),
});
export type Seed = z.infer<typeof Seed>;

export type SeedAnswer = { state: 'ok'; seed: Seed } | { state: 'not_configured' } | FailedAnswer;

/**
 * A radio seed from what the user typed: the model names a kind and a name, and the library
 * decides. Artists and albums resolve by folded canonical name; moods and genres must exist in the
 * playable library (a genre the library only knows as a mood, or the reverse, is taken as that).
 */
export async function seedFromText(ctx: AppContext, text: string): Promise<SeedAnswer> {
  if (!modelConfigured(ctx.config)) return { state: 'not_configured' };
  const [moods, genres] = await Promise.all([playableTerms(ctx.db, 'tags', TERMS_IN_PROMPT), playableTerms(ctx.db, 'genres', TERMS_IN_PROMPT)]);
  const outcome = await askModel(ctx.config, prompt(text, moods.map((m) => m.name), genres.map((g) => g.name)), ModelSeed, 'seed_from_text');
  if (outcome.state !== 'ok') return outcome;
  const seed = await resolve(ctx, outcome.value);
  if (!seed) return { state: 'failed', reason: 'no_match', detail: `nothing in the library matches the ${outcome.value.seed_kind} "${outcome.value.seed}"` };
  return { state: 'ok', seed };
}

async function resolve(ctx: AppContext, proposed: ModelSeed): Promise<Seed | undefined> {
  switch (proposed.seed_kind) {
    case 'artist': {
      const artist = await entityByFoldedName(ctx.db, 'artist', proposed.seed);
      return artist && { seed_kind: 'artist', seed_id: artist.id, label: artist.name ?? proposed.seed };
    }
    case 'album': {
      const album = await entityByFoldedName(ctx.db, 'album', proposed.seed);
      const label = [album?.name ?? proposed.seed, album?.artist_name].filter(Boolean).join(' — ');
      return album && { seed_kind: 'album', seed_id: album.id, label };
    }
    case 'mood':
    case 'genre': {
      const [first, second] = proposed.seed_kind === 'mood' ? (['mood', 'genre'] as const) : (['genre', 'mood'] as const);
      for (const kind of [first, second]) {
        const name = await playableTerm(ctx.db, kind === 'mood' ? 'tags' : 'genres', proposed.seed);
        if (name) return { seed_kind: kind, seed_id: name, label: name };
      }
      return undefined;
    }
  }
}

function prompt(text: string, moods: string[], genres: string[]): ChatMessage[] {
  const system = [
    'You pick the seed of a radio station in a personal music library from what the listener asks for.',
    'A seed is one artist, one album, one mood or one genre.',
    'For an artist or an album, give its name as it is usually written (an album: its title only).',
    `A mood must be one of the library's moods: ${JSON.stringify(moods)}.`,
    `A genre must be one of the library's genres: ${JSON.stringify(genres)}.`,
    'Reply with one JSON object and nothing else: {"seed_kind": "artist" | "album" | "mood" | "genre", "seed": string}.',
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: text },
  ];
}
