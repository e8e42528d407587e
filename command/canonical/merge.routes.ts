import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryBool } from '../../infra/http/params.ts';
import { CanonicalDoc, findDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { BadRequest, Conflict, NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { canonicalCommands } from './canonical-commands.ts';
import { MergePreview, previewMerge } from './merge-preview.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };

/** A self-merge or a cycle is a malformed request, not a race. */
async function asBadRequest<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Conflict && !(error instanceof NotFound)) throw new BadRequest(error.message);
    throw error;
  }
}

function mergeRoute(kind: Kind) {
  return defineRoute({
    method: 'post',
    path: `/admin/canonical/${PLURAL[kind]}/{target_id}/merge`,
    tag: 'admin',
    summary: `Merge a duplicate ${kind} into the target`,
    description:
      'Refs move to the target; the source is tombstoned with merged_into. A merged album brings its tracks. ' +
      'With `dry_run=true` nothing is appended: the answer is the merge as it would happen now (refs moved, the events it would append, ' +
      'user data re-pointed, conflicting fields and users who hold both). See docs/time-travel.md.',
    access: 'admin',
    params: z.object({ target_id: z.string().min(1).max(64) }),
    query: z.object({ dry_run: queryBool(false) }),
    body: z.object({ source_id: z.string().min(1).max(64) }),
    response: z.union([CanonicalDoc, MergePreview]),
    errors: { 400: 'Merge into itself or into its own merge chain', 404: 'Unknown entity' },
    handler: ({ ctx, params, query, body, user }) =>
      asBadRequest(async () => {
        if (query.dry_run) return previewMerge(ctx, user.username, kind, params.target_id, body.source_id);
        await canonicalCommands(ctx, user.username).merge(kind, params.target_id, body.source_id);
        return null;
      }),
    answer: async ({ ctx, params }, preview) => preview ?? (await findDoc(ctx.db, kind, params.target_id)) ?? (() => { throw new NotFound(`${kind} not found`); })(),
  });
}

function unmergeRoute(kind: Kind) {
  return defineRoute({
    method: 'post',
    path: `/admin/canonical/${PLURAL[kind]}/{target_id}/unmerge`,
    tag: 'admin',
    summary: `Undo the merge of a ${kind} into the target`,
    description:
      'Appends `EntityUnmerged`: the source stands again with the refs it brought (refs linked to the target since the merge stay), ' +
      'the ids merged into it before follow it again, and user data recorded under those ids returns to it. Merging again undoes an unmerge. ' +
      'Only the last merge of a chain can be undone. Answers the source. See docs/time-travel.md.',
    access: 'admin',
    params: z.object({ target_id: z.string().min(1).max(64) }),
    body: z.object({ source_id: z.string().min(1).max(64) }),
    response: CanonicalDoc,
    errors: { 404: 'Unknown entity', 409: 'The source is not merged into the target, or the target was merged away since' },
    handler: async ({ ctx, params, body, user }) => void (await canonicalCommands(ctx, user.username).unmerge(kind, params.target_id, body.source_id)),
    answer: async ({ ctx, body }) => (await findDoc(ctx.db, kind, body.source_id)) ?? (() => { throw new NotFound(`${kind} not found`); })(),
  });
}

export const mergeRoutes = [mergeRoute('artist'), mergeRoute('album'), mergeRoute('track'), unmergeRoute('artist'), unmergeRoute('album'), unmergeRoute('track')];
