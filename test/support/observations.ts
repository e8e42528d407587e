import type { Observation } from '../../command/canonical/observation.ts';

type Source = Observation['source'];
type Facts = Partial<Observation['facts']>;

/** Builders of what a source reports, for tests that seed the canonical layer. */
export const artistSeen = (source: Source, external_id: string, name: string, facts: Facts = {}): Observation => ({
  source, kind: 'artist', external_id, facts: { name, ...facts },
});

export const albumSeen = (source: Source, external_id: string, name: string, by: Observation, facts: Facts = {}): Observation => ({
  source, kind: 'album', external_id, facts: { name, ...facts }, artist: by,
});

export const trackSeen = (source: Source, external_id: string, name: string, by: Observation, on: Observation, facts: Facts = {}): Observation => ({
  source, kind: 'track', external_id, facts: { name, ...facts }, artist: by, album: on,
});
