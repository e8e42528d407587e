import type { AppContext } from '../../infra/context.ts';
import { type AppendResult, WrongExpectedVersionError } from '../../infra/eventstore/event-store.ts';
import { HoldBudget } from '../../infra/db/hold-budget.ts';
import { Conflict } from '../../shared/errors.ts';
import { pollForPosition } from '../../infra/projections/wait-for-position.ts';
import type { Observation } from './observation.ts';
import { ReconcileBatch } from './reconcile-batch.ts';
import { ReconcileView } from './reconcile-view.ts';
import { reconcileLocks } from './reconcile-locks.ts';
import { holdingXactLocks } from '../../infra/db/advisory-locks.ts';

const ATTEMPTS = 3;
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs reconciliations one at a time in a process, and on PostgreSQL under advisory locks on what
 * they match, across processes: name keys are not claims, so two concurrent observations of one new
 * name would otherwise mint two entities.
 */
function serialized<T>(ctx: AppContext, observations: Observation[], work: () => Promise<T>): Promise<T> {
  const locked = ctx.engine === 'postgres' ? () => holdingXactLocks(ctx.db, reconcileLocks(observations), work) : work;
  const run = queue.then(locked);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * The one entry point every source calls. Matching order: a ref already claimed; then exact
 * identifiers (ISRC for tracks, UPC for albums, metabase ids for all); then the folded name key
 * (artist name, or album/track title under its artist) where no exact identifier conflicts;
 * otherwise a new entity. The rule that fired is recorded with the link.
 */
export async function reconcile(ctx: AppContext, observation: Observation, actor: string | null = null): Promise<string> {
  return (await reconcileMany(ctx, [observation], actor))[0]!;
}

/**
 * Reconciles a batch with the same rules and evidence as one `reconcile` after another, in a few
 * reads, one append and one catch-up of the read models: observations later in the batch match what earlier ones
 * created. Returns the canonical id of each observation, in order. Callers pass a few hundred to
 * a few thousand observations at a time (one transaction on PostgreSQL; short ones on the embedded
 * database, see EMBEDDED_APPEND_MS).
 */
export function reconcileMany(ctx: AppContext, observations: Observation[], actor: string | null = null): Promise<string[]> {
  if (observations.length === 0) return Promise.resolve([]);
  return serialized(ctx, observations, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await runBatch(ctx, observations, actor, attempt === 1);
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        // Another writer changed a stream the batch read: read again; past a few tries, go one by one.
        if (attempt >= ATTEMPTS) return oneByOne(ctx, observations, actor);
      }
    }
  });
}

/**
 * On the embedded database a request waits for the append under way: a batch appends in parts of
 * about this long (half a projection batch: see runnerOptions in infra/service.ts), cut between
 * observations (each observation's events commit together; a part that fails retries the batch,
 * which finds the earlier parts' claims and adds nothing for them).
 */
const EMBEDDED_APPEND_MS = 50;
const embeddedAppends = new HoldBudget(() => EMBEDDED_APPEND_MS, { min: 20, max: 2000, start: 200 });

async function timedFlush(batch: ReconcileBatch): Promise<AppendResult | undefined> {
  const events = batch.pending();
  const started = performance.now();
  const result = await batch.flush();
  embeddedAppends.record(events, performance.now() - started);
  return result;
}

/**
 * What ReconcileView reads. A batch waits for these only: the others (a user's dashboard behind a
 * page of scrobbles just recorded) have no say in matching.
 */
const VIEW_READ_MODELS: ReadonlySet<string> = new Set(['canonical_docs', 'external_refs']);

/** How long a batch waits for the read models to include every write before it (a long catch-up, a slow machine). */
const CATCH_UP_MS = 120_000;

async function runBatch(ctx: AppContext, observations: Observation[], actor: string | null, trustReadModel: boolean): Promise<string[]> {
  // The view starts from the read models it reads: matching on a stale one would mint duplicates, so wait for them (not just the bounded read-your-writes wait).
  const head = await ctx.store.headPosition();
  const caughtUp = ctx.projections ? await ctx.projections.waiters.waitFor(head, CATCH_UP_MS, VIEW_READ_MODELS) : await pollForPosition(ctx.db, head, CATCH_UP_MS, VIEW_READ_MODELS);
  if (!caughtUp) throw new Conflict('the canonical read models are behind the log; try again later');
  const batch = new ReconcileBatch(ctx, actor, await ReconcileView.load(ctx.db, observations), trustReadModel);
  const ids: string[] = [];
  let result: AppendResult | undefined;
  for (const observation of observations) {
    ids.push(await batch.reconcile(observation));
    if (ctx.engine === 'pglite' && batch.pending() >= embeddedAppends.size()) result = (await timedFlush(batch)) ?? result;
  }
  result = (await batch.flush()) ?? result;
  // Callers look the ids up in the canonical read models right away (a resolve answers the doc).
  await ctx.readModels.catchUp(result?.position);
  return ids;
}

async function oneByOne(ctx: AppContext, observations: Observation[], actor: string | null): Promise<string[]> {
  const ids: string[] = [];
  for (const observation of observations) {
    for (let attempt = 1; ; attempt++) {
      try {
        ids.push(...(await runBatch(ctx, [observation], actor, false)));
        break;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (attempt >= ATTEMPTS) throw new Conflict('the canonical layer kept changing under this observation, try again');
      }
    }
  }
  return ids;
}
