import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { SessionUser } from './auth.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** `public`: anyone; `user`: any signed-in role; `admin`: the admin role. */
export type Access = 'public' | 'user' | 'admin';

type Shape = z.ZodObject<z.ZodRawShape>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<P, Q, B, A extends Access> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  user: A extends 'public' ? SessionUser | null : SessionUser;
  ctx: AppContext;
  req: Request;
  res: Response;
}

export interface RouteSpec<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R extends z.ZodType, A extends Access> {
  method: Method;
  /** OpenAPI-style path: `/admin/task-history/{task_id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: A;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  status?: number;
  /** Extra documented statuses: status → description. */
  errors?: Record<number, string>;
  /** Other statuses whose body is `response` too (a readiness report that says not ready): status → description. */
  alsoAnswers?: Record<number, string>;
  /** Documented headers of the successful response: name → description and type. */
  responseHeaders?: Record<string, { description: string; type: 'integer' | 'string' }>;
  /** The handler wrote the response itself (streams, redirects, cookies with bodies of its own). */
  raw?: boolean;
  handler(input: HandlerInput<P, Q, B, A>): Promise<z.input<R> | void>;
}

export type Route = RouteSpec<any, any, any, z.ZodType, Access>;

/** Declares a route once: the same declaration validates requests and documents the API. */
export function defineRoute<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R extends z.ZodType, A extends Access>(
  spec: RouteSpec<P, Q, B, R, A>,
): Route {
  return spec as unknown as Route;
}
