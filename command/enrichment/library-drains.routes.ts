import { z } from 'zod';
import type { Route } from '../../infra/http/define-route.ts';
import { queryBool, queryInt } from '../../infra/http/params.ts';
import { ARTIST_REPROJECT_TASK } from './artist-reproject.task.ts';
import { AUDIO_QUALITY_TASK } from './audio-quality.task.ts';
import { drainRoute, drainsText } from './drain-route.ts';
import { LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP } from './library-drains.ts';
import { TAGS_TASK } from './tags.task.ts';

const query = (limit: number) => z.object({ limit: queryInt(limit, { min: 1, max: LIBRARY_DRAIN_CAP }), drain: queryBool(false) });
const description = `${drainsText(LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP)} No network: it reads what the service holds already.`;

export const libraryDrainRoutes: Route[] = [
  drainRoute({
    path: 'audio-quality',
    task: AUDIO_QUALITY_TASK,
    summary: 'Codec, bit depth, sample rate and lossless flag onto tracks from the media server mirror, as a task',
    description,
    query: query(1000),
  }),
  drainRoute({
    path: 'tags',
    task: TAGS_TASK,
    summary: 'Unify tags, moods and styles of albums and tracks from every source (folded, counted, top 20), as a task',
    description,
    query: query(1000),
  }),
  drainRoute({
    path: 'artist-reproject',
    task: ARTIST_REPROJECT_TASK,
    summary: 'Recompute artist docs (album and track counts, years, genres, picture) from their live albums and tracks, as a task',
    description,
    query: query(2000),
  }),
];
