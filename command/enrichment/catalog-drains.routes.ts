import { z } from 'zod';
import type { Route } from '../../infra/http/define-route.ts';
import { queryBool, queryInt } from '../../infra/http/params.ts';
import { Kind } from '../../shared/events/canonical.events.ts';
import { DISCOVER_CATALOG_TASK } from './discover-catalog.task.ts';
import { drainRoute, drainsText } from './drain-route.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from './metabase-drains.ts';

export const catalogDrainRoutes: Route[] = [
  drainRoute({
    path: 'discover-catalog',
    task: DISCOVER_CATALOG_TASK,
    summary: 'Link tracks by ISRC, albums by UPC and artists through a catalog-linked album or track to the catalog, never by name, as a task',
    description: `${drainsText(BATCH_CAP, METABASE_DRAIN_CAP)} A catalog id another entity owns, or a code the catalog does not know, is a \`catalog_discover\` error row.`,
    query: z.object({ kind: Kind.default('track'), limit: queryInt(200, { min: 1, max: METABASE_DRAIN_CAP }), drain: queryBool(false) }),
  }),
];
