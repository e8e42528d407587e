import { ServiceUnavailable } from '../../shared/errors.ts';

/**
 * The database cannot serve right now, as opposed to a query being wrong: the server is down,
 * restarting, dropped or out of connections, or the pool waited too long for a free one. Such a
 * failure is the client's to retry (503), never a 500.
 */
const UNAVAILABLE_CODES = new Set([
  // The socket: nothing listens, the network or the name is gone.
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  // SQLSTATE class 08 (connection exception).
  '08000', '08001', '08003', '08004', '08006',
  // Shut down by an admin or a crash, or still starting up.
  '57P01', '57P02', '57P03',
  // Out of resources: too many connections, out of memory.
  '53000', '53200', '53300',
  // The database itself is gone (dropped while the service runs).
  '3D000',
]);

const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect', // pg.Pool: no free connection within connectionTimeoutMillis
  'Connection terminated', // pg: the server closed the socket (unexpectedly, or due to connection timeout)
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
  'PGlite is closing',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return UNAVAILABLE_MESSAGES.some((message) => error.message.startsWith(message));
}

/** Seconds a client is asked to wait: about what a restart or a burst takes to pass. */
const RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(): ServiceUnavailable {
  return new ServiceUnavailable('The database is unavailable; try again shortly', RETRY_AFTER_SECONDS);
}
