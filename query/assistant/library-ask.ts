import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { askModel, modelConfigured } from '../../infra/upstreams/llm/ask-model.ts';
import type { ChatMessage } from '../../infra/upstreams/llm/chat-completions.ts';
import type { FailedAnswer } from '../../shared/assistant.ts';
import { LIBRARY_FILTERS, LIBRARY_KINDS, LIBRARY_SORTS, LibraryFilter, LibraryGenre, LibraryKind, LibrarySearch, LibrarySort } from '../../shared/library.ts';
import { albumGenres } from '../library/library.queries.ts';

/** How many of the library's genres the prompt lists (the most common ones). */
const GENRES_IN_PROMPT = 100;

/** Blank or absent is "no value"; the library routes read the same field the same way. */
const optionalText = <T extends z.ZodType<string>>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v), schema.nullish().transform((v) => v ?? null));

/** A sort or filter the model left out (or null) is the library routes' default. */
const orDefault = <T extends string>(schema: z.ZodType<T>, fallback: T) => z.preprocess((v) => v ?? undefined, schema.default(fallback as never));

/**
 * What the model answers, checked against the library routes' own vocabulary: a query the client
 * runs as is on `GET /library/{kind}`.
 */
const ModelQuery = z.object({
  kind: LibraryKind,
  sort: orDefault(LibrarySort, 'recent'),
  filter: orDefault(LibraryFilter, 'all'),
  genre: optionalText(LibraryGenre).transform((g) => g?.toLowerCase() ?? null),
  q: optionalText(LibrarySearch),
});

/** The query as the answer carries it: every value one `GET /library/{kind}` takes. */
export const LibraryQuery = z.object({ kind: LibraryKind, sort: LibrarySort, filter: LibraryFilter, genre: LibraryGenre.nullable(), q: LibrarySearch.nullable() });
export type LibraryQuery = z.infer<typeof LibraryQuery>;

export type LibraryAskAnswer = { state: 'ok'; query: LibraryQuery } | { state: 'not_configured' } | FailedAnswer;

export async function libraryAsk(ctx: AppContext, question: string): Promise<LibraryAskAnswer> {
  if (!modelConfigured(ctx.config)) return { state: 'not_configured' };
  const genres = await albumGenres(ctx.db, GENRES_IN_PROMPT);
  const outcome = await askModel(ctx.config, prompt(question, genres.map((g) => g.genre)), ModelQuery, 'library_ask');
  return outcome.state === 'ok' ? { state: 'ok', query: outcome.value } : outcome;
}

function prompt(question: string, genres: string[]): ChatMessage[] {
  const system = [
    'You turn a listener\'s request into a query of their music library browser.',
    `"kind": what to list, one of ${JSON.stringify(LIBRARY_KINDS)}.`,
    `"sort": one of ${JSON.stringify(LIBRARY_SORTS)} (recent: newest in the library first; name: alphabetical; source_count: best confirmed by the sources first).`,
    `"filter": one of ${JSON.stringify(LIBRARY_FILTERS)} (playable: files on the mediaserver; not_playable: known only from listening history or catalogs; multi_source / single_source: confirmed by two sources or more / by one).`,
    `"genre": one of the library's genres, or null: ${JSON.stringify(genres)}.`,
    '"q": words of an artist, album or track name to search for, or null.',
    'Reply with one JSON object and nothing else: {"kind": string, "sort": string, "filter": string, "genre": string | null, "q": string | null}.',
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: question },
  ];
}
