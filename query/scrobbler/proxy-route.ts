import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { PAGE, queryBool, queryInt } from '../../infra/http/params.ts';
import { liveRead } from '../../infra/upstreams/scrobbler/live-read.ts';

/** Proxied answers keep the scrobbler's own JSON shape (its keys, string scalars, `@attr` paging). */
export const Proxied = z.record(z.string(), z.unknown()).meta({ description: 'The scrobbler’s answer, in its own shape' });

/** Paging passed through to the scrobbler as `page` and `limit`. */
export const paging = { page: queryInt(1, PAGE), limit: queryInt(50, { min: 1, max: 1000 }) };
export const autocorrect = { autocorrect: queryBool(false) };
export const Period = z.enum(['overall', '7day', '1month', '3month', '6month', '12month']).default('overall');

export const PROXY_ERRORS = {
  404: 'The scrobbler has nothing there (unknown artist, album, track, tag, user or country; private listening)',
  502: 'The scrobbler failed',
  503: 'The scrobbler is not configured',
};

type Values = Record<string, string | number | boolean | undefined>;
type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ProxySpec {
  path: string;
  summary: string;
  description?: string;
  /** The scrobbler method answering this path. */
  method: string;
  ttlMs: number;
  params?: AnyObject;
  query?: AnyObject;
  /** The method's parameters, from the validated path and query. */
  upstream(input: { params: Values; query: Values }): Values;
  /** Whose data the answer is, so writes by that user can drop it from the cache. */
  scope?(input: { params: Values; query: Values }): string;
}

/** A GET that answers one scrobbler method through the cache, in the scrobbler's own shape. */
export function proxyRoute(spec: ProxySpec): Route {
  return defineRoute({
    method: 'get',
    path: spec.path,
    tag: 'scrobbler',
    summary: spec.summary,
    description: spec.description ?? `Live \`${spec.method}\`, cached; answered in the scrobbler’s own shape.`,
    access: 'user',
    params: spec.params,
    query: spec.query,
    response: Proxied,
    errors: PROXY_ERRORS,
    handler: ({ ctx, params, query }) => {
      const input = { params: (params ?? {}) as Values, query: (query ?? {}) as Values };
      return readFor(ctx, spec, input);
    },
  });
}

export function readFor(ctx: AppContext, spec: Pick<ProxySpec, 'method' | 'ttlMs' | 'upstream' | 'scope'>, input: { params: Values; query: Values }) {
  return liveRead(ctx, { method: spec.method, params: toStrings(spec.upstream(input)), ttlMs: spec.ttlMs, scope: spec.scope?.(input) });
}

function toStrings(values: Values): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === '') continue;
    out[name] = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
  }
  return out;
}

export const str = (max = 500) => z.string().trim().min(1).max(max);
