import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

/** OWASP's scrypt cost: N = 2^17, r = 8, p = 1 (about 128 MiB and a few hundred ms per hash). */
export const OWASP_SCRYPT = { N: 2 ** 17, r: 8, p: 1 };

interface Cost {
  N: number;
  r: number;
  p: number;
}

function scrypt(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, 32, { ...cost, maxmem: 256 * cost.N * cost.r + 16 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Hashes are `scrypt$N$r$p$salt$key`, so verification uses the cost a hash was made with. */
export function createPasswordHasher(cost: Cost = OWASP_SCRYPT) {
  const dummy = hashWith('not a password', cost);
  return {
    async hash(password: string): Promise<string> {
      return hashWith(password, cost);
    },
    async verify(password: string, stored: string | undefined): Promise<boolean> {
      // Without a hash we still pay one scrypt, so a missing user takes as long as a wrong password.
      const [scheme, n, r, p, salt, key] = (stored ?? (await dummy)).split('$');
      if (scheme !== 'scrypt' || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64url');
      // A damaged hash (a cost scrypt refuses, a truncated key) is a failed check, not a crash.
      const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }).catch(() => undefined);
      return stored !== undefined && actual !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

async function hashWith(password: string, cost: Cost): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
