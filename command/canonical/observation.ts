import type { Facts, Kind, Source } from '../../shared/events/canonical.events.ts';

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
