import type { EventsTable, StreamsTable } from '../eventstore/postgres/event-tables.ts';
import type { ProjectionCheckpointsTable } from '../projections/checkpoints.ts';
import type { CredentialsTable } from '../credentials/credential-store.ts';
import type { TaskHistoryTable } from '../../projectors/tasks/task-history.table.ts';
import type { UsersTable } from '../../projectors/auth/users.table.ts';
import type { CanonicalDocsTable, ExternalRefsTable } from '../../projectors/canonical/canonical-docs.table.ts';
import type * as Dashboard from '../../projectors/scrobbler/dashboard.table.ts';

/** Every table of the database, for kysely's typing. */
export interface Database {
  events: EventsTable;
  streams: StreamsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  credentials: CredentialsTable;
  task_history: TaskHistoryTable;
  users: UsersTable;
  canonical_docs: CanonicalDocsTable;
  external_refs: ExternalRefsTable;
  dashboard_scrobbles: Dashboard.DashboardScrobblesTable;
  dashboard_invalid: Dashboard.DashboardInvalidTable;
  dashboard_totals: Dashboard.DashboardTotalsTable;
  dashboard_days: Dashboard.DashboardDaysTable;
  dashboard_hours: Dashboard.DashboardHoursTable;
  dashboard_heatmap: Dashboard.DashboardHeatmapTable;
  dashboard_entity_days: Dashboard.DashboardEntityDaysTable;
  dashboard_entity_months: Dashboard.DashboardEntityMonthsTable;
  dashboard_entities: Dashboard.DashboardEntitiesTable;
  dashboard_streaks: Dashboard.DashboardStreaksTable;
  dashboard_redirects: Dashboard.DashboardRedirectsTable;
}
