import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';

/**
 * The ids whose merge chain ends at each given end id, the end itself first. The canonical docs
 * collapse chains (`merged_into` always names the end), so one lookup finds every alias.
 */
export async function idsEndingAt(db: Kysely<Database>, kind: Kind, endIds: string[]): Promise<Map<string, string[]>> {
  const aliases = new Map(endIds.map((id) => [id, [id]]));
  if (endIds.length === 0) return aliases;
  const rows = await db.selectFrom('canonical_docs').select(['id', 'merged_into']).where('kind', '=', kind).where('merged_into', 'in', endIds).orderBy('id').execute();
  for (const row of rows) aliases.get(row.merged_into!)!.push(row.id);
  return aliases;
}

/** Where each id's merge chain ends now (an unknown id stands for itself). */
export async function chainEnds(db: Kysely<Database>, ids: string[]): Promise<Map<string, string>> {
  const ends = new Map(ids.map((id) => [id, id]));
  if (ids.length === 0) return ends;
  const rows = await db.selectFrom('canonical_docs').select(['id', 'merged_into']).where('id', 'in', [...new Set(ids)]).where('merged_into', 'is not', null).execute();
  for (const row of rows) ends.set(row.id, row.merged_into!);
  return ends;
}
