import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import { bodyInt } from '../../infra/http/params.ts';
import { askModel, modelConfigured } from '../../infra/upstreams/llm/ask-model.ts';
import type { ChatMessage } from '../../infra/upstreams/llm/chat-completions.ts';
import { LIST_COLUMNS, toDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { type FailedAnswer, clip } from '../../shared/assistant.ts';
import { LibraryGenre } from '../../shared/library.ts';
import { LibraryRow, hasGenre } from '../library/library.queries.ts';

/** The most tracks one prompt lists: a random sample of the playable ones when there are more. */
export const MAX_CANDIDATES = 300;
const MAX_NAME_CHARS = 100;

export const GenerateBody = z.object({
  request: z.string().trim().min(1, 'say what the playlist is for').max(1_000),
  genre: LibraryGenre.nullish().transform((g) => (g?.trim() ? g.trim().toLowerCase() : null)),
  max_tracks: bodyInt({ min: 1, max: 200 }).default(25),
});
export type GenerateBody = z.infer<typeof GenerateBody>;

/** What the model answers: a title, and indexes into the numbered list it was given. */
const ModelPlaylist = z.object({
  title: z.string().trim().min(1).transform((t) => t.slice(0, 200)),
  indexes: z.array(z.number().int()).max(1_000),
});

type LibraryRow = z.infer<typeof LibraryRow>;
export type GenerateAnswer = { state: 'ok'; title: string; tracks: LibraryRow[] } | { state: 'no_candidates' } | { state: 'not_configured' } | FailedAnswer;

/**
 * A playlist proposal: the model picks from a numbered list of playable canonical tracks (of the
 * genre, when one is given), by index. Indexes outside the list are dropped, repeats removed, and
 * at most `max_tracks` kept. Nothing is created: the client sends the accepted proposal to create.
 */
export async function generatePlaylist(ctx: AppContext, body: GenerateBody): Promise<GenerateAnswer> {
  if (!modelConfigured(ctx.config)) return { state: 'not_configured' };
  const candidates = await playableCandidates(ctx.db, body.genre);
  if (candidates.length === 0) return { state: 'no_candidates' };
  const outcome = await askModel(ctx.config, prompt(body, candidates), ModelPlaylist, 'playlist_generate');
  if (outcome.state !== 'ok') return outcome;
  const chosen = [...new Set(outcome.value.indexes.filter((i) => i >= 0 && i < candidates.length))].slice(0, body.max_tracks);
  if (chosen.length === 0) return { state: 'failed', reason: 'invalid_answer', detail: 'none of the indexes names a listed track' };
  return { state: 'ok', title: outcome.value.title, tracks: await rowsOf(ctx.db, chosen.map((i) => candidates[i]!.id)) };
}

interface Candidate {
  id: string;
  name: string | null;
  artist_name: string | null;
  album_title: string | null;
  year: number | null;
  genres: string[];
  tags: string[];
}

/** Up to MAX_CANDIDATES playable tracks, listed by artist, album and position so the model reads albums whole. */
async function playableCandidates(db: Kysely<Database>, genre: string | null): Promise<Candidate[]> {
  let playable = db
    .selectFrom('canonical_docs')
    .select(['id', 'name', 'artist_name', 'album_title', 'year', 'disc', 'track_number', 'tags'])
    .select(sql<string[]>`canonical_docs.genres || coalesce((select a.genres from canonical_docs a where a.id = canonical_docs.album_id), '[]'::jsonb)`.as('genres'))
    .where('kind', '=', 'track')
    .where(sql<boolean>`not tombstoned and (sources->>'mediaserver') = 'true'`);
  if (genre) playable = playable.where(hasGenre('track', genre));
  const sample = playable.orderBy(sql`random()`).limit(MAX_CANDIDATES).as('c');
  return db
    .selectFrom(sample)
    .selectAll()
    .orderBy((eb) => eb.ref('c.artist_name'), (ob) => ob.asc().nullsLast())
    .orderBy((eb) => eb.ref('c.album_title'), (ob) => ob.asc().nullsLast())
    .orderBy((eb) => eb.ref('c.disc'), (ob) => ob.asc().nullsLast())
    .orderBy((eb) => eb.ref('c.track_number'), (ob) => ob.asc().nullsLast())
    .orderBy('c.id')
    .execute();
}

function prompt(body: GenerateBody, candidates: Candidate[]): ChatMessage[] {
  const system = [
    'You make a playlist from the tracks of a personal music library.',
    'The user says what the playlist is for; the tracks you may use are the numbered lines below (number. artist — title (album, year) [genres and moods]).',
    `Choose up to ${body.max_tracks} tracks that fit, in the order they should play, and give the playlist a short title.`,
    'Reply with one JSON object and nothing else: {"title": string, "indexes": [integer, ...]}, where the indexes are the numbers of the lines you chose.',
  ].join('\n');
  const lines = candidates.map((c, i) => `${i}. ${line(c)}`);
  return [
    { role: 'system', content: `${system}\n\n${lines.join('\n')}` },
    { role: 'user', content: body.request },
  ];
}

function line(c: Candidate): string {
  const album = [c.album_title && clip(c.album_title, MAX_NAME_CHARS), c.year].filter(Boolean).join(', ');
  const terms = [...new Set([...c.genres, ...c.tags])].slice(0, 8).join(', ');
  return `${clip(c.artist_name ?? 'unknown artist', MAX_NAME_CHARS)} — ${clip(c.name ?? 'untitled', MAX_NAME_CHARS)}${album ? ` (${album})` : ''}${terms ? ` [${terms}]` : ''}`;
}

/** The chosen tracks as library rows, in the chosen order. */
async function rowsOf(db: Kysely<Database>, ids: string[]): Promise<LibraryRow[]> {
  const rows = await db.selectFrom('canonical_docs').select(LIST_COLUMNS).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const { refs: _, ...doc } = toDoc(row, []);
    return [doc];
  });
}
