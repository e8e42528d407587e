import { z } from 'zod';

/**
 * The configuration contract of the service: every setting is an environment variable with a fixed
 * name (see README). Parsed once, frozen.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const url = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim().replace(/\/+$/, '') : fallback));

/** A signing or encryption secret given by the operator: at least 32 bytes, as the generated ones are. */
const secret = optional.refine((v) => v === undefined || Buffer.byteLength(v, 'utf8') >= 32, {
  message: 'must be at least 32 bytes (e.g. `openssl rand -base64 48`), or unset to have one generated into DATA_DIR',
});

/** OWASP's scrypt cost, the default; see infra/auth/password-hasher.ts. */
const DEFAULT_SCRYPT_N = 2 ** 17;

const ROLES = ['api', 'projector', 'worker'] as const;
export type Role = (typeof ROLES)[number];

const schema = z.object({
  PORT: z.coerce.number().int().min(0, 'must be a port from 0 to 65535').max(65535, 'must be a port from 0 to 65535').default(8000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optional,
  EVENTSTORE_URL: optional,
  KAFKA_BROKERS: optional,
  ROLES: z
    .string()
    .default('api,projector,worker')
    .transform((v) => v.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(ROLES)).min(1)),
  JWT_SECRET: secret,
  SECRET_KEY: secret,
  COOKIE_SECURE: bool.default(false),
  ADMIN_USERNAME: z.string().default('admin'),
  ADMIN_PASSWORD: optional,
  CLIENT_URL: url('http://localhost:5173'),
  TRUSTED_PROXY: optional,
  /** `closed`: no self-registration (admins still create accounts under /auth/users/). */
  REGISTRATION: z.enum(['open', 'closed']).default('open'),
  MEDIASERVER_URL: optional,
  MEDIASERVER_TOKEN: optional,
  MEDIASERVER_ACCOUNT_URL: url('https://plex.tv'),
  MEDIASERVER_CLIENT_ID: optional,
  /** A proxied audio stream whose server sends nothing for this long is aborted. */
  MEDIASERVER_STREAM_IDLE_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  SCROBBLER_API_URL: url('https://ws.audioscrobbler.com/2.0'),
  SCROBBLER_AUTH_URL: url('https://www.last.fm/api/auth'),
  SCROBBLER_API_KEY: optional,
  SCROBBLER_API_SECRET: optional,
  STREAMER_API_URL: url('https://api.spotify.com/v1'),
  STREAMER_ACCOUNTS_URL: url('https://accounts.spotify.com'),
  STREAMER_CLIENT_ID: optional,
  STREAMER_CLIENT_SECRET: optional,
  STREAMER_REDIRECT_URI: optional,
  CATALOG_API_URL: url('https://api.deezer.com'),
  STORE_API_URL: url('https://itunes.apple.com'),
  METABASE_API_URL: url('https://musicbrainz.org/ws/2'),
  COVERART_API_URL: url('https://coverartarchive.org'),
  RELEASEDB_API_URL: url('https://api.discogs.com'),
  RELEASEDB_TOKEN: optional,
  FEATURES_API_URL: url('https://acousticbrainz.org'),
  LYRICS_API_URL: url('https://lrclib.net'),
  LLM_API_URL: url('https://api.openai.com/v1'),
  LLM_API_KEY: optional,
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  UPSTREAM_PACING: z.enum(['real', 'off']).default('real'),
  /**
   * Test suites only: a cheaper scrypt cost for password hashing, refused below the default unless
   * NODE_ENV=test. Leave unset in deployments.
   */
  PASSWORD_SCRYPT_N: z.coerce
    .number()
    .int()
    .min(1024)
    .refine((n) => (n & (n - 1)) === 0, { message: 'must be a power of two' })
    .optional(),
  NODE_ENV: optional,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** How long an assistant route waits for the model before answering `failed` (the client's own patience is 15 s). */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /**
   * Who to contact about this installation's requests (an e-mail or a URL), sent in the metabase's
   * User-Agent as its rules ask. One header line: no control characters.
   */
  METABASE_CONTACT: optional.refine((v) => v === undefined || (v.length <= 200 && !/[\u0000-\u001f\u007f]/.test(v)), {
    message: 'must be one line of at most 200 characters (an e-mail address or a URL)',
  }),
  /**
   * The shared secret of the monitor intake (POST /monitor/webhooks/*), sent in the X-Monitor-Token
   * header or `?token=`. Unset: the intake is off and answers 404.
   */
  MONITOR_WEBHOOK_SECRET: optional.refine((v) => v === undefined || v.length >= 16, {
    message: 'must be at least 16 characters (e.g. `openssl rand -hex 24`), or unset to turn the monitor intake off',
  }),
}).superRefine((config, context) => {
  if (config.PASSWORD_SCRYPT_N !== undefined && config.PASSWORD_SCRYPT_N < DEFAULT_SCRYPT_N && config.NODE_ENV !== 'test') {
    context.addIssue({
      code: 'custom',
      path: ['PASSWORD_SCRYPT_N'],
      message: `below the default ${DEFAULT_SCRYPT_N} (2^17) weakens every password hash and is for the test suite only (NODE_ENV=test); leave it unset`,
    });
  }
});

export type Config = Readonly<z.output<typeof schema>>;

/** A setting the service refuses to start with: one line per problem, each naming its variable. */
export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new ConfigurationError(parsed.error.issues.map(problem));
  return Object.freeze(parsed.data);
}

/** One line naming the variable (not an index inside it) and what it accepts. */
function problem(issue: z.core.$ZodIssue): string {
  const accepts = issue.code === 'invalid_type' && issue.expected === 'number' ? 'must be a number' : issue.message;
  return `${String(issue.path[0] ?? 'configuration')} ${accepts}`;
}
