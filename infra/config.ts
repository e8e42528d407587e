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

const ROLES = ['api', 'projector', 'worker'] as const;
export type Role = (typeof ROLES)[number];

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
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
  JWT_SECRET: optional,
  SECRET_KEY: optional,
  COOKIE_SECURE: bool.default(false),
  ADMIN_USERNAME: z.string().default('admin'),
  ADMIN_PASSWORD: optional,
  CLIENT_URL: url('http://localhost:5173'),
  TRUSTED_PROXY: optional,
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
  /** Test suites only: a cheaper scrypt cost for password hashing. Leave unset in deployments. */
  PASSWORD_SCRYPT_N: z.coerce.number().int().min(1024).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = Readonly<z.output<typeof schema>>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return Object.freeze(parsed.data);
}
