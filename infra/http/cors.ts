import type { NextFunction, Request, Response } from 'express';

/**
 * The single-page client may be served from its own origin (CLIENT_URL): that origin, and only
 * that one, may call the API from a browser with the session cookie.
 */
export function clientCors(clientUrl: string) {
  const client = new URL(clientUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.get('origin') !== client) return next();
    // Paged lists give their total in a header, which a cross-origin client reads only when exposed.
    res.set({ 'Access-Control-Allow-Origin': client, 'Access-Control-Allow-Credentials': 'true', 'Access-Control-Expose-Headers': 'X-Total-Count', Vary: 'Origin' });
    if (req.method !== 'OPTIONS' || !req.get('access-control-request-method')) return next();
    res
      .set({
        'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
        'Access-Control-Allow-Headers': req.get('access-control-request-headers') ?? 'content-type',
        'Access-Control-Max-Age': '600',
      })
      .status(204)
      .end();
  };
}
