import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { CanonicalDoc, entityByRef, findDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { Kind, Source } from '../../shared/events/canonical.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { canonicalCommands } from './canonical-commands.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const RefBody = z.object({ source: Source, external_id: z.string().min(1).max(500) });

function kindRoutes(kind: Kind) {
  const base = `/${PLURAL[kind]}`;
  const param = `${kind}_id`;
  const idOf = (params: Record<string, string>) => params[param]!;
  return [
    defineRoute({
      method: 'post',
      path: `${base}/refs/check`,
      tag: 'canonical',
      summary: `Which canonical ${kind} each ref belongs to`,
      description: 'Only reads: any signed-in user may ask.',
      access: 'user',
      body: z.object({ refs: z.array(RefBody).max(1000) }),
      response: z.object({ results: z.array(RefBody.extend({ canonical_id: z.string().nullable() })) }),
      handler: async ({ ctx, body }) => ({
        results: await Promise.all(
          body.refs.map(async (r) => ({ ...r, canonical_id: (await entityByRef(ctx.db, kind, r.source, r.external_id)) ?? null })),
        ),
      }),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/{${param}}/refs`,
      tag: 'canonical',
      summary: `Link an external ref to a ${kind}`,
      description: 'Changes what the entity is (and plays) for everyone: staff or admin only. A ref already owned by another entity is a 409 that names the owner.',
      access: 'staff',
      params: z.object({ [param]: z.string().min(1).max(64) }),
      body: RefBody,
      response: CanonicalDoc,
      errors: { 404: `Unknown ${kind}`, 409: 'The ref belongs to another entity' },
      handler: async ({ ctx, params, body, user }) => {
        const commands = canonicalCommands(ctx, user.username);
        const id = await commands.finalId(kind, idOf(params));
        await commands.link(kind, id, body, { rule: 'manual', value: user.username });
        return id;
      },
      answer: async ({ ctx }, id) => (await findDoc(ctx.db, kind, id)) ?? notFound(kind),
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/{${param}}/refs/{source}/{external_id}`,
      tag: 'canonical',
      summary: `Unlink an external ref from a ${kind}`,
      description: 'Changes what the entity is (and plays) for everyone: staff or admin only.',
      access: 'staff',
      params: z.object({ [param]: z.string().min(1).max(64), source: Source, external_id: z.string().min(1).max(500) }),
      response: CanonicalDoc,
      errors: { 404: 'Unknown entity, or the ref is not linked to it' },
      handler: async ({ ctx, params, user }) => {
        const commands = canonicalCommands(ctx, user.username);
        const id = await commands.finalId(kind, idOf(params));
        const ref = params as unknown as z.infer<typeof RefBody>;
        await commands.unlink(kind, id, { source: ref.source, external_id: ref.external_id });
        return id;
      },
      answer: async ({ ctx }, id) => (await findDoc(ctx.db, kind, id)) ?? notFound(kind),
    }),
  ];
}

function notFound(kind: Kind): never {
  throw new NotFound(`${kind} not found`);
}

export const refsRoutes = [...kindRoutes('artist'), ...kindRoutes('album'), ...kindRoutes('track')];
