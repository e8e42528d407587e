import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { LinkView } from '../../shared/mediaserver.ts';
import type { MediaserverLinksTable } from '../../projectors/mediaserver/links.table.ts';
import { linkRow } from '../../projectors/mediaserver/links.reads.ts';

const MeResponse = z.object({
  linked: z.boolean(),
  link: LinkView.nullable(),
  has_pending_pin: z.boolean(),
  pending_pin_expires_at: z.string().nullable(),
});

function viewOf(row: MediaserverLinksTable): z.infer<typeof LinkView> | null {
  if (!row.credential_id || row.account_id === null || !row.linked_at) return null;
  return {
    account_id: Number(row.account_id),
    account_uuid: row.account_uuid ?? '',
    account_username: row.account_username,
    account_title: row.account_title,
    thumb: row.account_thumb,
    linked_at: row.linked_at.toISOString(),
  };
}

export const linkQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/mediaserver/me',
    tag: 'mediaserver',
    summary: "The caller's link state: `link` is null when not linked; `has_pending_pin` is true mid-flow",
    access: 'user',
    response: MeResponse,
    handler: async ({ ctx, user }) => {
      const row = await linkRow(ctx.db, user.username);
      const link = row ? viewOf(row) : null;
      // A PIN past its lifetime is no longer a flow in progress, even before a finish call says so.
      const pending = row?.pending_expires_at && row.pending_expires_at.getTime() > Date.now() ? row.pending_expires_at : null;
      return { linked: link !== null, link, has_pending_pin: pending !== null, pending_pin_expires_at: pending?.toISOString() ?? null };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/admin/linked-users',
    tag: 'mediaserver',
    summary: 'Users with a linked media server account',
    access: 'admin',
    response: z.array(LinkView.extend({ username: z.string() })),
    handler: async ({ ctx }) => {
      // A deleted account's link is no longer anyone's: it is left out.
      const rows = await ctx.db
        .selectFrom('mediaserver_links as l')
        .innerJoin('users as u', 'u.username_key', 'l.username_key')
        .selectAll('l')
        .where('l.credential_id', 'is not', null)
        .where('u.deleted', '=', false)
        .orderBy('l.username_key')
        .execute();
      return rows.flatMap((row) => {
        const view = viewOf(row);
        return view ? [{ username: row.username, ...view }] : [];
      });
    },
  }),
];
