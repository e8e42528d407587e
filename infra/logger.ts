/**
 * One format: a JSON line per record (what log shippers and fail2ban read), pretty when stdout is a
 * terminal; warn and error go to stderr. Callers never pass secrets: tokens stay out of messages.
 * Not pino: this already covers what the service logs, and a dependency would add to start-up.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

let threshold = order[(process.env.LOG_LEVEL as Level) ?? 'info'] ?? order.info;
const pretty = process.stdout.isTTY === true;

export function setLogLevel(level: Level | 'silent'): void {
  threshold = order[level];
}

function write(level: Level, msg: string, fields?: Record<string, unknown>, always = false): void {
  if (order[level] < threshold && !(always && threshold < order.silent)) return;
  const t = new Date().toISOString();
  const line = pretty ? prettyLine(t, level, msg, fields) : JSON.stringify({ t, level, msg, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

/** `12:00:01 INFO  request method=GET path=/healthz status=200`: the same fields, for a person. */
function prettyLine(t: string, level: Level, msg: string, fields: Record<string, unknown> = {}): string {
  const pairs = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return [t.slice(11, 19), level.toUpperCase().padEnd(5), msg, ...pairs].join(' ');
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
  /** An info line shown at every LOG_LEVEL but `silent`: where the service listens, which scripts and operators wait for. */
  announce: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields, true),
};
