import { z } from 'zod';
import { personalListWriteRoutes } from './personal-lists.ts';
import { TargetBody, targetId } from './target.ts';

const BODY_NOTE = 'Either id is enough; a catalog id alone is resolved through the catalog and seeds the canonical when missing. Adding twice changes nothing.';

/** The personal lists by canonical id (or a catalog id to seed one from). */
export const meWriteRoutes = personalListWriteRoutes({
  prefix: '/me',
  tag: 'me',
  by: '',
  addBody: () => TargetBody,
  addDescription: (_kind, list) => `${BODY_NOTE}${list === 'wishlist' ? ' An owned album stays owned (the answer shows `status: owned`).' : ''}`,
  addErrors: { 404: 'Unknown canonical id, or nothing in the catalog under that id', 502: 'The catalog failed' },
  addTarget: (ctx, user, kind, body) => targetId(ctx, user, kind, body),
  param: 'canonical_id',
  removeParams: z.object({ canonical_id: z.string().min(1).max(64) }),
  removeDescription: (_kind, list) => `Any id of the merge chain removes ${list ? 'it' : 'the favorite'}; removing what is not there answers \`removed: false\`.`,
  removeTarget: async (_ctx, _kind, params) => params.canonical_id,
});
