import type { AppContext } from '../../infra/context.ts';
import type { TaskContext } from '../../infra/tasks/task.ts';
import type { Metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { type EntityKind, MBID_PATTERN } from '../../infra/upstreams/metabase/musicbrainz.ts';
import type { MetabaseObject } from '../../infra/upstreams/metabase/schemas.ts';
import { CACHE_KINDS, type RefItem } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import type { KnownErrorSource } from '../../shared/enrichment/error-sources.ts';
import type { Facts, Kind } from '../../shared/events/canonical.events.ts';
import { UpstreamNotFound } from '../../shared/errors.ts';
import { type DrainParams, type DrainSpec, runDrain } from './drain.ts';
import { enrichmentCommands } from './enrichment-commands.ts';

/** A drain's batch without `drain=true` stops here, whatever `limit` asks. */
export const BATCH_CAP = 1000;
/**
 * The most a `drain=true` run of a metabase drain works: about five and a half hours at one
 * request a second. What is left waits for the next run, which continues where this one stopped.
 */
export const METABASE_DRAIN_CAP = 20_000;

/** An upstream id that is not an MBID would only earn a 400: it is an error row of its own. */
export class NotAnMbid extends Error {
  constructor(mbid: string) {
    super(`metabase ref ${mbid} is not an MBID`);
  }
}

export function checkedMbid(mbid: string): string {
  if (!MBID_PATTERN.test(mbid)) throw new NotAnMbid(mbid);
  return mbid.toLowerCase();
}

/** The entity a metabase ref of `kind` names: an album's ref is a release group, or else a release. */
export async function lookupRef(mb: Metabase, kind: Kind, mbid: string): Promise<{ cacheKind: EntityKind; payload: MetabaseObject }> {
  const kinds = CACHE_KINDS[kind] as EntityKind[];
  for (const cacheKind of kinds) {
    try {
      return { cacheKind, payload: await mb.lookup(cacheKind, checkedMbid(mbid)) };
    } catch (error) {
      if (!(error instanceof UpstreamNotFound) || cacheKind === kinds[kinds.length - 1]) throw error;
    }
  }
  throw new UpstreamNotFound('metabase', `no ${kinds.join(' or ')} ${mbid}`);
}

/**
 * A metabase drain over refs: each item's facts are recorded as `EntityEnriched` from the
 * metabase, read from the item's ref; `facts` does the fetching (through the cache).
 */
export function metabaseRefDrain(
  ctx: AppContext,
  task: TaskContext<DrainParams>,
  spec: { name: string; kind: Kind; errorSource: KnownErrorSource; scope: Record<string, unknown>; backlog: DrainSpec<RefItem>['backlog']; facts(item: RefItem): Promise<Facts> },
) {
  const enrich = enrichmentCommands(ctx, task.startedBy);
  return runDrain<RefItem>({
    ctx,
    task,
    name: spec.name,
    scope: spec.scope,
    batchCap: BATCH_CAP,
    drainCap: METABASE_DRAIN_CAP,
    backlog: spec.backlog,
    keyOf: (item) => item.key,
    errors: { source: spec.errorSource, entityOf: (item) => ({ kind: spec.kind, id: item.id }) },
    async work(item) {
      const facts = await spec.facts(item);
      const appended = await enrich.enrich(spec.kind, item.id, 'metabase', { source: 'metabase', external_id: item.mbid }, facts);
      return appended ? 'enriched' : 'unchanged';
    },
  });
}
