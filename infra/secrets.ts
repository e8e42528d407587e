import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Secrets {
  /** Signs session JWTs (HS256). */
  jwtSecret: string;
  /** Encrypts stored upstream credentials (AES-256-GCM key material). */
  secretKey: string;
}

/**
 * JWT_SECRET and SECRET_KEY from the environment, or generated once into DATA_DIR/secrets.json
 * (mode 0600) so sessions and stored credentials survive restarts.
 */
export function loadSecrets(config: { DATA_DIR: string; JWT_SECRET?: string | undefined; SECRET_KEY?: string | undefined }): Secrets {
  const file = join(config.DATA_DIR, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
  const generated: Secrets = {
    jwtSecret: stored.jwtSecret ?? randomBytes(32).toString('base64url'),
    secretKey: stored.secretKey ?? randomBytes(32).toString('base64url'),
  };
  if (!stored.jwtSecret || !stored.secretKey) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, JSON.stringify(generated), { mode: 0o600 });
  }
  return {
    jwtSecret: config.JWT_SECRET ?? generated.jwtSecret,
    secretKey: config.SECRET_KEY ?? generated.secretKey,
  };
}
