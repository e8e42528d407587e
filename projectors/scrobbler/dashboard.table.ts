import type { ColumnType } from 'kysely';

/** Every dashboard row belongs to one user and one scrobbler account of that user ("listener"). */
interface Owned {
  user_key: string;
  listener: string;
}

/**
 * Valid scrobbles, with the entity keys they count under: the canonical id, or a scrobbler-shaped
 * fallback (`s:<external id>`) while a scrobble has none, so unmatched listening still counts.
 */
export interface DashboardScrobblesTable extends Owned {
  scrobble_id: string;
  uts: number;
  day: number;
  dow: number;
  hour: number;
  artist: string;
  album: string | null;
  track: string;
  artist_key: string;
  album_key: string | null;
  track_key: string;
  /** The canonical ids the scrobble was stamped or linked with, before redirects: an unmerge moves the plays recorded under its source back. */
  recorded_artist_id: string | null;
  recorded_album_id: string | null;
  recorded_track_id: string | null;
}

/** Scrobbles with impossible timestamps: kept apart so that deleting them never touches aggregates. */
export interface DashboardInvalidTable extends Owned {
  scrobble_id: string;
  kind: string;
  uts: number;
}

export interface DashboardTotalsTable extends Owned {
  scrobbles: number;
  artists: number;
  albums: number;
  tracks: number;
  last_imported_at: ColumnType<Date, Date | string, Date | string>;
}

export interface DashboardDaysTable extends Owned {
  day: number;
  plays: number;
}

export interface DashboardHoursTable extends Owned {
  day: number;
  hour: number;
  plays: number;
}

/** All-time weekday × hour counters (UTC, Monday = 0). */
export interface DashboardHeatmapTable extends Owned {
  dow: number;
  hour: number;
  plays: number;
}

export interface DashboardEntityDaysTable extends Owned {
  kind: string;
  day: number;
  entity_key: string;
  plays: number;
}

/** Plays per entity and calendar month (months since 1970-01). */
export interface DashboardEntityMonthsTable extends Owned {
  kind: string;
  entity_key: string;
  month: number;
  plays: number;
}

export interface DashboardEntitiesTable extends Owned {
  kind: string;
  entity_key: string;
  plays: number;
  first_uts: number;
  last_uts: number;
  name: string;
  artist_name: string | null;
  artist_key: string | null;
}

/** Runs of consecutive days with at least one play, both ends included. */
export interface DashboardStreaksTable extends Owned {
  start_day: number;
  end_day: number;
  length: number;
}

/** A merged-away canonical id and the target its plays now count under (chains collapsed). */
export interface DashboardRedirectsTable {
  from_id: string;
  kind: string;
  to_id: string;
}
