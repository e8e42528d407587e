import type { z } from 'zod';
import type { RecordingFeatures } from '../../infra/upstreams/features/schemas.ts';
import type { FeatureData } from '../../shared/events/canonical.events.ts';

export type FeatureDataFact = z.infer<typeof FeatureData>;

/** Probabilities kept to 4 places: the classifiers' 12 digits are noise, and events stay small. */
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * What the doc keeps of a recording's documents: tempo (bpm, 1 decimal), key (`D major`), each
 * `mood_<x>` classifier's probability of `<x>`, and the `genre_dortmund` classifier's genres (the
 * one with whole names). Nothing usable in either document is "none" (null).
 */
export function featureDataOf(features: RecordingFeatures | undefined): FeatureDataFact | null {
  if (!features) return null;
  const { lowlevel, highlevel } = features;
  const bpm = lowlevel?.rhythm?.bpm;
  const tonic = lowlevel?.tonal?.key_key;
  const scale = lowlevel?.tonal?.key_scale;
  const moods: Record<string, number> = {};
  for (const [name, classifier] of Object.entries(highlevel?.highlevel ?? {})) {
    const mood = name.startsWith('mood_') ? name.slice('mood_'.length) : null;
    const p = mood === null ? undefined : classifier.all[mood];
    if (mood !== null && p !== undefined) moods[mood] = round(p);
  }
  const genres = Object.fromEntries(Object.entries(highlevel?.highlevel.genre_dortmund?.all ?? {}).map(([genre, p]) => [genre, round(p)]));
  const data: FeatureDataFact = {
    bpm: bpm === undefined ? null : Math.round(bpm * 10) / 10,
    key: tonic ? (scale ? `${tonic} ${scale}` : tonic) : null,
    moods,
    genres,
  };
  const empty = data.bpm === null && data.key === null && Object.keys(moods).length === 0 && Object.keys(genres).length === 0;
  return empty ? null : data;
}
