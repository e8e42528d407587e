import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import * as eventStore from './0001-event-store.ts';
import * as projections from './0002-projections.ts';
import * as taskHistory from './0003-task-history.ts';
import * as users from './0004-users.ts';
import * as canonical from './0005-canonical.ts';
import * as library from './0006-library.ts';
import * as catalogCache from './0007-catalog-cache.ts';
import * as me from './0008-me.ts';
import * as scrobbles from './0009-scrobbles.ts';
import * as dashboard from './0010-dashboard.ts';
import * as mediaserver from './0011-mediaserver.ts';
import * as scrobblerCache from './0012-scrobbler-cache.ts';
import * as mediaserverPlaylists from './0013-mediaserver-playlists.ts';
import * as projectionHealth from './0014-projection-health.ts';
import * as callbackStates from './0015-callback-states.ts';
import * as libraryListOrder from './0015-library-list-order.ts';
import * as credentialSealing from './0018-credential-sealing.ts';
import * as streamer from './0030-streamer.ts';
import * as streamerAudioFeatures from './0031-streamer-audio-features.ts';
import * as enrichedDocs from './0040-enriched-docs.ts';
import * as enrichmentErrors from './0041-enrichment-errors.ts';
import * as metabaseCache from './0042-metabase-cache.ts';
import * as libraryEnrichment from './0050-library-enrichment.ts';
import * as releasedb from './0051-releasedb.ts';
import * as featureData from './0052-feature-data.ts';
import * as radio from './0060-radio.ts';
import * as assistantConversations from './0070-assistant-conversations.ts';
import * as monitorEvents from './0080-monitor-events.ts';
import * as dbCounters from './0081-db-counters.ts';
import * as upstreamConnections from './0082-upstream-connections.ts';
import * as commentsRecordedId from './0090-comments-recorded-id.ts';
import * as scrobblesRecordedIds from './0091-scrobbles-recorded-ids.ts';
import * as enrichmentErrorsMergedAway from './0092-enrichment-errors-merged-away.ts';
import * as libraryReads from './0110-library-reads.ts';
import * as scaleOut from './0120-scale-out.ts';
import * as authAttempts from './0125-auth-attempts.ts';
import * as nameTrigrams from './0185-name-trigrams.ts';
import * as libraryFilterOrders from './0186-library-filter-orders.ts';
import * as listJson from './0187-list-json.ts';
import * as playableStatistics from './0188-playable-statistics.ts';
import * as eventStoreExpect from './0190-event-store-expect.ts';
import * as dashboardEntityIndexes from './0191-dashboard-entity-indexes.ts';
import * as trackGenres from './0192-track-genres.ts';
import * as eventLogKeys from './0193-event-log-keys.ts';

/** Migrations in order; names never change once released. */
const migrations: Record<string, Migration> = {
  '0001-event-store': eventStore,
  '0002-projections': projections,
  '0003-task-history': taskHistory,
  '0004-users': users,
  '0005-canonical': canonical,
  '0006-library': library,
  '0007-catalog-cache': catalogCache,
  '0008-me': me,
  '0009-scrobbles': scrobbles,
  '0010-dashboard': dashboard,
  '0011-mediaserver': mediaserver,
  '0012-scrobbler-cache': scrobblerCache,
  '0013-mediaserver-playlists': mediaserverPlaylists,
  '0014-projection-health': projectionHealth,
  '0015-callback-states': callbackStates,
  '0015-library-list-order': libraryListOrder,
  '0018-credential-sealing': credentialSealing,
  '0030-streamer': streamer,
  '0031-streamer-audio-features': streamerAudioFeatures,
  '0040-enriched-docs': enrichedDocs,
  '0041-enrichment-errors': enrichmentErrors,
  '0042-metabase-cache': metabaseCache,
  '0050-library-enrichment': libraryEnrichment,
  '0051-releasedb': releasedb,
  '0052-feature-data': featureData,
  '0060-radio': radio,
  '0070-assistant-conversations': assistantConversations,
  '0080-monitor-events': monitorEvents,
  '0081-db-counters': dbCounters,
  '0082-upstream-connections': upstreamConnections,
  '0090-comments-recorded-id': commentsRecordedId,
  '0091-scrobbles-recorded-ids': scrobblesRecordedIds,
  '0092-enrichment-errors-merged-away': enrichmentErrorsMergedAway,
  '0110-library-reads': libraryReads,
  '0120-scale-out': scaleOut,
  '0125-auth-attempts': authAttempts,
  '0185-name-trigrams': nameTrigrams,
  '0186-library-filter-orders': libraryFilterOrders,
  '0187-list-json': listJson,
  '0188-playable-statistics': playableStatistics,
  '0190-event-store-expect': eventStoreExpect,
  '0191-dashboard-entity-indexes': dashboardEntityIndexes,
  '0192-track-genres': trackGenres,
  '0193-event-log-keys': eventLogKeys,
};

export async function migrate(db: Kysely<any>): Promise<void> {
  // Most starts have nothing to apply: one read instead of the migrator's lock table and bookkeeping.
  const applied = await appliedMigrations(db);
  if (applied.size === migrationNames.length && migrationNames.every((name) => applied.has(name))) return;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

export const migrationNames = Object.keys(migrations);

/** The migrations this build knows and the database has not applied (all of them on a new database). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const applied = await appliedMigrations(db);
  return migrationNames.filter((name) => !applied.has(name));
}

async function appliedMigrations(db: Kysely<any>): Promise<Set<string>> {
  const { rows: [table] } = await sql<{ present: boolean }>`select to_regclass('kysely_migration') is not null as present`.execute(db);
  if (!table?.present) return new Set();
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return new Set(rows.map((r) => r.name));
}
