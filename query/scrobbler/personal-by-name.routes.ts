import { personalListQueryRoutes } from '../me/personal-lists.ts';

export const personalByNameQueryRoutes = personalListQueryRoutes({
  prefix: '/scrobbler/me',
  tag: 'scrobbler',
  note: 'The same list as under `/me` (one store of personal data, whichever way an entry was added); each row is the canonical doc, its external refs name the scrobbler ids.',
});
