import { personalListQueryRoutes } from './personal-lists.ts';

export const meQueryRoutes = personalListQueryRoutes({
  prefix: '/me',
  tag: 'me',
  note: 'Each row is the canonical doc (merged-away ids answer the end of their chain) with `added_at`.',
});
