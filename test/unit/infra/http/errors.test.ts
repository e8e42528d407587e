import { expect } from 'chai';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { RequestValidationError, errorMiddleware, validationDetails } from '../../../../infra/http/errors.ts';
import { setLogLevel } from '../../../../infra/logger.ts';
import { Conflict, NotFound, TooManyRequests } from '../../../../shared/errors.ts';

const testLogLevel = (process.env.TEST_LOG_LEVEL ?? 'silent') as Parameters<typeof setLogLevel>[0];

/** Just enough of express's response to see what the middleware answers. */
function render(error: unknown) {
  const out: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    status(code: number) {
      out.status = code;
      return this;
    },
    set(headers: Record<string, string>) {
      Object.assign(out.headers, headers);
      return this;
    },
    json(body: unknown) {
      out.body = body;
      return this;
    },
  };
  const req = { method: 'GET', path: '/x' } as Request;
  errorMiddleware(error, req, res as unknown as Response, () => {});
  return out;
}

describe('http errors', () => {
  describe('validationDetails', () => {
    const schema = z.object({ username: z.string(), limit: z.number().int().min(1), nested: z.object({ ok: z.boolean() }).optional() });

    it('names a missing field "missing" at [where, field]', () => {
      const input = { limit: 1 };
      const error = schema.safeParse(input).error!;
      expect(validationDetails('body', error, input)).to.deep.equal([{ loc: ['body', 'username'], msg: 'Field required', type: 'missing' }]);
    });

    it('keeps zod’s message and code for a present but wrong value, nested paths included', () => {
      const input = { username: 'a', limit: 0, nested: { ok: 'yes' } };
      const details = validationDetails('query', schema.safeParse(input).error!, input);
      expect(details.map((d) => d.loc)).to.deep.equal([['query', 'limit'], ['query', 'nested', 'ok']]);
      expect(details.map((d) => d.type)).to.deep.equal(['too_small', 'invalid_type']);
      for (const d of details) expect(d.msg).to.be.a('string').and.not.equal('Field required');
    });
  });

  describe('errorMiddleware', () => {
    before(() => setLogLevel('silent'));
    after(() => setLogLevel(testLogLevel));

    it('renders a validation failure as 422 {detail: [...]}', () => {
      const detail = [{ loc: ['query', 'limit'], msg: 'bad', type: 'too_small' }];
      expect(render(new RequestValidationError(detail))).to.deep.include({ status: 422, body: { detail } });
    });

    it('renders domain errors with their status, message and headers', () => {
      expect(render(new NotFound('Task not found'))).to.deep.include({ status: 404, body: { detail: 'Task not found' } });
      expect(render(new Conflict('taken'))).to.deep.include({ status: 409, body: { detail: 'taken' } });
      expect(render(new TooManyRequests('slow down', 2.2))).to.deep.include({ status: 429, headers: { 'Retry-After': '3' } });
    });

    it('renders malformed JSON as a 422 at ["body"]', () => {
      const error = Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400, expose: true });
      const out = render(error);
      expect(out.status).to.equal(422);
      expect((out.body as { detail: { loc: string[] }[] }).detail[0]!.loc).to.deep.equal(['body']);
    });

    it('passes on the status of a client error raised by express or body-parser', () => {
      const error = Object.assign(new Error('unsupported charset "KLINGON"'), { type: 'charset.unsupported', status: 415, expose: true });
      expect(render(error)).to.deep.include({ status: 415, body: { detail: 'unsupported charset "KLINGON"' } });
    });

    it('hides everything about an unexpected error: 500 with a fixed message', () => {
      const error = new Error('connection string postgres://user:pw@db/x refused');
      const out = render(error);
      expect(out).to.deep.include({ status: 500, body: { detail: 'Internal server error' } });
      expect(render(Object.assign(new Error('internal'), { status: 503 }))).to.deep.include({ status: 500 });
      expect(render(Object.assign(new Error('secret internals'), { status: 400, expose: false })).status).to.equal(500);
      expect(render('a thrown string').status).to.equal(500);
    });
  });
});
