import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { SessionUser } from '../../shared/users.ts';
import type { Intake } from './intake.ts';
import type { JsonText } from './json-text.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/**
 * `public`: anyone; `user`: any signed-in role; `staff`: the household's curators (staff or admin),
 * for changes to the shared canonical entities; `admin`: the admin role.
 */
export type Access = 'public' | 'user' | 'staff' | 'admin';

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

interface RouteDeclaration<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R extends z.ZodType, A extends Access> {
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
  /** A machine-to-machine delivery authenticated by a shared secret, not a session (a webhook); `access` is then `public`. */
  intake?: Intake;
}

/**
 * A route whose handler answers. Read-your-writes is the declaration's: after the handler, the
 * request waits (bounded) for the projectors that handle the event types it appended, and for the
 * reactors concerned, before the answer goes out. No handler waits by hand.
 */
export interface RouteSpec<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R extends z.ZodType, A extends Access>
  extends RouteDeclaration<P, Q, B, R, A> {
  handler(input: HandlerInput<P, Q, B, A>): Promise<z.input<R> | JsonText<z.input<R>> | void>;
  answer?: never;
}

/**
 * A route that writes, then answers from the read models: `handler` runs the command and hands
 * what the answer needs to `answer`, which runs once the read models include the writes.
 */
export interface WriteThenAnswerSpec<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R extends z.ZodType, A extends Access, W>
  extends RouteDeclaration<P, Q, B, R, A> {
  handler(input: HandlerInput<P, Q, B, A>): Promise<W>;
  answer(input: HandlerInput<P, Q, B, A>, written: W): Promise<z.input<R> | void>;
}

export type Route = RouteDeclaration<any, any, any, z.ZodType, Access> & {
  handler(input: HandlerInput<any, any, any, Access>): Promise<unknown>;
  answer?(input: HandlerInput<any, any, any, Access>, written: unknown): Promise<unknown>;
};

/** Declares a route once: the same declaration validates requests and documents the API. */
export function defineRoute<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R extends z.ZodType, A extends Access>(
  spec: RouteSpec<P, Q, B, R, A>,
): Route;
export function defineRoute<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R extends z.ZodType, A extends Access, W>(
  spec: WriteThenAnswerSpec<P, Q, B, R, A, W>,
): Route;
export function defineRoute(spec: unknown): Route {
  return spec as Route;
}
