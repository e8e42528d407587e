import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { CanonicalDoc, findDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { BadRequest, Conflict, NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { canonicalCommands } from './canonical-commands.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };

function mergeRoute(kind: Kind) {
  return defineRoute({
    method: 'post',
    path: `/admin/canonical/${PLURAL[kind]}/{target_id}/merge`,
    tag: 'admin',
    summary: `Merge a duplicate ${kind} into the target`,
    description: 'Refs move to the target; the source is tombstoned with merged_into. A merged album brings its tracks.',
    access: 'admin',
    params: z.object({ target_id: z.string().min(1).max(64) }),
    body: z.object({ source_id: z.string().min(1).max(64) }),
    response: CanonicalDoc,
    errors: { 400: 'Merge into itself or into its own merge chain', 404: 'Unknown entity' },
    handler: async ({ ctx, params, body, user }) => {
      try {
        await canonicalCommands(ctx, user.username).merge(kind, params.target_id, body.source_id);
      } catch (error) {
        // A self-merge or a cycle is a malformed request, not a race.
        if (error instanceof Conflict && !(error instanceof NotFound)) throw new BadRequest(error.message);
        throw error;
      }
    },
    answer: async ({ ctx, params }) => (await findDoc(ctx.db, kind, params.target_id)) ?? (() => { throw new NotFound(`${kind} not found`); })(),
  });
}

export const mergeRoutes = [mergeRoute('artist'), mergeRoute('album'), mergeRoute('track')];
