/**
 * The raw fields of a delivery are kept (an admin inspecting an event sees what the sender sent),
 * secrets never: the log is replayed by auditors. Removed: fields whose name says secret (tokens,
 * passwords, keys, cookies, authorization), any text that holds the intake's own secret, and the
 * value of secret-named parameters inside URLs (a thumbnail link carrying a server token).
 */
const SECRET_NAME = /token|secret|passw|api[-_]?key|authorization|cookie|credential/i;
const SECRET_URL_PARAM = /([?&][^=&#]*(?:token|secret|passw|api[-_]?key|signature|sig)[^=&#]*=)[^&#]*/gi;
export const REDACTED = '[redacted]';

export function withoutSecrets(value: Record<string, unknown>, intakeSecret: string): Record<string, unknown> {
  return clean(value, intakeSecret) as Record<string, unknown>;
}

function clean(value: unknown, intakeSecret: string): unknown {
  if (typeof value === 'string') return value.includes(intakeSecret) ? REDACTED : value.replace(SECRET_URL_PARAM, `$1${REDACTED}`);
  if (Array.isArray(value)) return value.map((item) => clean(item, intakeSecret));
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!SECRET_NAME.test(key)) kept[key] = clean(item, intakeSecret);
  return kept;
}
