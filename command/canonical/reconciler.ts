import type { AppContext } from '../../infra/context.ts';
import type { Evidence, Facts, Kind, Source } from '../../shared/events/canonical.events.ts';
import { foldName } from '../../shared/names.ts';
import type { z } from 'zod';
import { canonicalCommands } from './canonical-commands.ts';
import { RefOwned } from './ref-claim.ts';

/** What a source saw: one artist, album or track with its normalized facts, and what it belongs to. */
export interface Observation {
  source: Source;
  kind: Kind;
  external_id: string;
  facts: Facts & { name: string };
  /** For albums and tracks: the artist as the same source reports it. */
  artist?: Observation;
  /** For tracks: the album as the same source reports it. */
  album?: Observation;
}

type EvidenceT = z.infer<typeof Evidence>;

interface Candidate {
  id: string;
  isrc: string | null;
  upc: string | null;
  mbid: string | null;
}

const EXACT: Record<Kind, ('isrc' | 'upc' | 'mbid')[]> = { artist: ['mbid'], album: ['upc', 'mbid'], track: ['isrc', 'mbid'] };

/** Another exact identifier on both sides that differs: never join these by name. */
function conflicts(candidate: Candidate, facts: Facts): boolean {
  return (['isrc', 'upc', 'mbid'] as const).some((key) => candidate[key] && facts[key] && candidate[key] !== facts[key]);
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The one entry point every source calls. Matching order: a ref already claimed; then exact
 * identifiers (ISRC for tracks, UPC for albums, metabase ids for all); then the folded name key
 * (artist name, or album/track title under its artist) where no exact identifier conflicts;
 * otherwise a new entity. The rule that fired is recorded with the link.
 *
 * Observations run one at a time in a process: name keys are not claims, so two concurrent
 * observations of one new name would otherwise mint two entities.
 */
export function reconcile(ctx: AppContext, observation: Observation, actor: string | null = null): Promise<string> {
  const run = queue.then(() => reconcileNow(ctx, observation, actor));
  queue = run.catch(() => undefined);
  return run;
}

async function reconcileNow(ctx: AppContext, obs: Observation, actor: string | null): Promise<string> {
  const commands = canonicalCommands(ctx, actor);
  const facts: Facts & { name: string } = { ...obs.facts };
  if (obs.artist) {
    facts.artist_id = await reconcileNow(ctx, obs.artist, actor);
    facts.artist_name ??= obs.artist.facts.name;
  }
  if (obs.album) {
    facts.album_id = await reconcileNow(ctx, obs.album, actor);
    facts.album_title ??= obs.album.facts.name;
  }
  const ref = { source: obs.source, external_id: obs.external_id };
  for (let attempt = 0; ; attempt++) {
    const owner = await commands.owner(obs.kind, ref);
    let id: string;
    if (owner) {
      id = await commands.finalId(obs.kind, owner);
    } else {
      const match = await findMatch(ctx, obs.kind, facts);
      id = match?.id ?? (await commands.register(obs.kind)).id;
      try {
        await commands.link(obs.kind, id, ref, match?.evidence ?? { rule: 'new_entity', value: null });
      } catch (error) {
        if (error instanceof RefOwned && attempt < 3) continue;
        throw error;
      }
    }
    const result = await commands.observe(obs.kind, id, ref, facts);
    await ctx.settle(result?.position ?? (await ctx.store.headPosition()));
    return id;
  }
}

async function findMatch(ctx: AppContext, kind: Kind, facts: Facts & { name: string }): Promise<{ id: string; evidence: EvidenceT } | undefined> {
  const live = ctx.db.selectFrom('canonical_docs').select(['id', 'isrc', 'upc', 'mbid']).where('kind', '=', kind).where('tombstoned', '=', false);
  for (const key of EXACT[kind]) {
    const value = facts[key];
    if (!value) continue;
    const hit = await live.where(key, '=', value).orderBy('created_at').executeTakeFirst();
    if (hit) return { id: hit.id, evidence: { rule: key, value } };
  }
  const folded = foldName(facts.name);
  let byName = live.where('name_folded', '=', folded);
  if (kind !== 'artist') {
    if (!facts.artist_id) return undefined;
    byName = byName.where('artist_id', '=', facts.artist_id);
  }
  const candidates = await byName.orderBy('created_at').execute();
  const hit = candidates.find((c) => !conflicts(c, facts));
  return hit ? { id: hit.id, evidence: { rule: 'name_key', value: folded } } : undefined;
}
