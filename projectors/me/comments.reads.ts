import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { SessionUser } from '../../shared/users.ts';
import type { CommentsTable } from './comments.table.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { chainEnds, idsEndingAt } from '../canonical/merge-aliases.reads.ts';

export const CommentRow = z.object({
  id: z.string(),
  /** The same as `id`, under the name the routes use. */
  comment_id: z.string(),
  username: z.string(),
  kind: z.enum(['artist', 'album', 'track']),
  canonical_id: z.string(),
  body: z.string(),
  edited: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'Note' });
export type CommentRow = z.infer<typeof CommentRow>;

export const ItemSummary = z.object({ kind: z.string(), canonical_id: z.string(), title: z.string().nullable(), subtitle: z.string().nullable(), cover: z.string().nullable() }).meta({ id: 'ItemSummary' });
export const MyCommentRow = CommentRow.extend({ item: ItemSummary }).meta({ id: 'MyNote' });

async function toRows(db: Kysely<Database>, rows: Selectable<CommentsTable>[]): Promise<CommentRow[]> {
  const ends = await chainEnds(db, rows.map((r) => r.canonical_id));
  return rows.map((r) => ({
    id: r.comment_id,
    comment_id: r.comment_id,
    username: r.username,
    kind: r.kind as Kind,
    canonical_id: ends.get(r.canonical_id)!,
    body: r.body,
    edited: r.edited,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

/** Admins see every user's notes; everyone else only their own. */
const visibleTo = (viewer: SessionUser) => (viewer.role === 'admin' ? null : usernameKey(viewer.username));

export async function findComment(db: Kysely<Database>, commentId: string): Promise<CommentRow | undefined> {
  const row = await db.selectFrom('comments').selectAll().where('comment_id', '=', commentId).executeTakeFirst();
  return row ? (await toRows(db, [row]))[0] : undefined;
}

/** The notes on an entity (by the end of its merge chain) the viewer may see, oldest first. */
export async function thread(db: Kysely<Database>, viewer: SessionUser, kind: Kind, endId: string): Promise<CommentRow[]> {
  const author = visibleTo(viewer);
  let query = db.selectFrom('comments').selectAll().where('kind', '=', kind).where('canonical_id', 'in', (await idsEndingAt(db, kind, [endId])).get(endId)!);
  if (author) query = query.where('username_key', '=', author);
  return toRows(db, await query.orderBy('created_at').orderBy('comment_id').execute());
}

/** For each requested (kind, id): how many notes on its entity the viewer may see. */
export async function countVisible(db: Kysely<Database>, viewer: SessionUser, items: { kind: Kind; canonical_id: string }[]): Promise<Map<string, number>> {
  const author = visibleTo(viewer);
  const ends = await chainEnds(db, items.map((i) => i.canonical_id));
  const counts = new Map<string, number>();
  for (const kind of new Set(items.map((i) => i.kind))) {
    const wanted = [...new Set(items.filter((i) => i.kind === kind).map((i) => ends.get(i.canonical_id)!))];
    const aliases = await idsEndingAt(db, kind, wanted);
    let query = db.selectFrom('comments').select(['canonical_id', (eb) => eb.fn.countAll<string>().as('n')]).where('kind', '=', kind).where('canonical_id', 'in', [...aliases.values()].flat());
    if (author) query = query.where('username_key', '=', author);
    const byId = new Map((await query.groupBy('canonical_id').execute()).map((r) => [r.canonical_id, Number(r.n)]));
    for (const [end, ids] of aliases) counts.set(`${kind}::${end}`, ids.reduce((n, id) => n + (byId.get(id) ?? 0), 0));
  }
  return new Map(items.map((i) => [`${i.kind}::${i.canonical_id}`, counts.get(`${i.kind}::${ends.get(i.canonical_id)}`) ?? 0]));
}

/** The user's own notes, newest first, each with the title, subtitle and cover of what it is about. */
export async function myComments(db: Kysely<Database>, username: string): Promise<z.infer<typeof MyCommentRow>[]> {
  const rows = await toRows(db, await db.selectFrom('comments').selectAll().where('username_key', '=', usernameKey(username)).orderBy('created_at', 'desc').orderBy('comment_id', 'desc').execute());
  const ids = [...new Set(rows.map((r) => r.canonical_id))];
  const byId = await summaryDocs(db, ids);
  return rows.map((r) => {
    const doc = byId.get(r.canonical_id);
    const subtitle = doc?.kind === 'track' ? [doc.artist_name, doc.album_title].filter(Boolean).join(' · ') || null : (doc?.artist_name ?? null);
    const cover = doc?.cover_url ?? (doc?.album_id ? byId.get(doc.album_id)?.cover_url : null) ?? null;
    return { ...r, item: { kind: r.kind, canonical_id: r.canonical_id, title: doc?.name ?? null, subtitle, cover } };
  });
}

/** The docs the summaries need, with the albums of tracks (a track without a cover shows its album's). */
async function summaryDocs(db: Kysely<Database>, ids: string[]) {
  const columns = ['id', 'kind', 'name', 'artist_name', 'album_id', 'album_title', 'cover_url'] as const;
  const docs = ids.length === 0 ? [] : await db.selectFrom('canonical_docs').select(columns).where('id', 'in', ids).execute();
  const albums = [...new Set(docs.filter((d) => d.kind === 'track' && !d.cover_url && d.album_id).map((d) => d.album_id!))];
  const extra = albums.length === 0 ? [] : await db.selectFrom('canonical_docs').select(columns).where('id', 'in', albums).execute();
  return new Map([...extra, ...docs].map((d) => [d.id, d]));
}
