import { z } from 'zod';
import type { Route } from '../../infra/http/define-route.ts';
import { queryBool, queryInt } from '../../infra/http/params.ts';
import { Kind } from '../../shared/events/canonical.events.ts';
import { DISCOVER_CATALOG_TASK } from './discover-catalog.task.ts';
import { drainRoute, drainsText } from './drain-route.ts';
import { DISCOVER_STORE_TASK, STORE_DRAIN_CAP, STORE_KINDS } from './discover-store.task.ts';
import { releasedbClient } from '../../infra/upstreams/releasedb/client.ts';
import { RELEASEDB_DISCOVER_TASK, RELEASEDB_REPROJECT_TASK } from './releasedb.tasks.ts';
import { LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP } from './library-drains.ts';
import { LINK_ALBUM_TRACKS_TASK, TRACKLIST_SOURCES } from './link-album-tracks.task.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from './metabase-drains.ts';

export const catalogDrainRoutes: Route[] = [
  drainRoute({
    path: 'discover-catalog',
    task: DISCOVER_CATALOG_TASK,
    summary: 'Link tracks by ISRC, albums by UPC and artists through a catalog-linked album or track to the catalog, never by name, as a task',
    description: `${drainsText(BATCH_CAP, METABASE_DRAIN_CAP)} A catalog id another entity owns, or a code the catalog does not know, is a \`catalog_discover\` error row.`,
    query: z.object({ kind: Kind.default('track'), limit: queryInt(200, { min: 1, max: METABASE_DRAIN_CAP }), drain: queryBool(false) }),
  }),
  drainRoute({
    path: 'discover-store',
    task: DISCOVER_STORE_TASK,
    summary: 'Link albums by UPC and tracks by ISRC to the store, never by name, as a task (about 3 s per candidate, 20 requests a minute)',
    description: `${drainsText(BATCH_CAP, STORE_DRAIN_CAP)} A store id another entity owns, or a code the store does not know, is a \`store_discover\` error row.`,
    query: z.object({ kind: z.enum(STORE_KINDS).default('album'), limit: queryInt(200, { min: 1, max: STORE_DRAIN_CAP }), drain: queryBool(false) }),
  }),
  drainRoute({
    path: 'releasedb-discover',
    task: RELEASEDB_DISCOVER_TASK,
    summary: 'Link albums with a UPC to the releasedb by exact barcode, as a task (about one request a second)',
    description: `${drainsText(BATCH_CAP, METABASE_DRAIN_CAP)} Needs RELEASEDB_TOKEN (503 without). No barcode match is a \`releasedb_discover\` error row.`,
    query: z.object({ limit: queryInt(200, { min: 1, max: METABASE_DRAIN_CAP }), drain: queryBool(false) }),
    ready: (ctx) => void releasedbClient(ctx.config),
  }),
  drainRoute({
    path: 'releasedb-reproject',
    task: RELEASEDB_REPROJECT_TASK,
    summary: 'Styles, genres and labels from the cached releasedb rows onto their albums (no network), as a task',
    description: drainsText(LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP),
    query: z.object({ limit: queryInt(1000, { min: 1, max: LIBRARY_DRAIN_CAP }), drain: queryBool(false) }),
  }),
  drainRoute({
    path: 'link-album-tracks',
    task: LINK_ALBUM_TRACKS_TASK,
    summary: "Link the tracks of albums with a source ref to that source's tracks by (disc, track) position, as a task",
    description: `${drainsText(BATCH_CAP, METABASE_DRAIN_CAP)} An album is skipped unless its track and disc counts match the source's and the titles align (80% of the pairs); \`title_fallback=true\` also links tracks whose title is unique on both sides (counted as \`title_matched\`). Only the catalog's tracklists can be read.`,
    query: z.object({
      source: z.enum(TRACKLIST_SOURCES).default('catalog'),
      limit: queryInt(200, { min: 1, max: METABASE_DRAIN_CAP }),
      drain: queryBool(false),
      title_fallback: queryBool(false),
    }),
  }),
];
