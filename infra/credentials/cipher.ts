import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a key derived from SECRET_KEY: iv | tag | ciphertext, base64url. `bound` is
 * authenticated with the ciphertext (associated data): a sealed value opens only under the same
 * `bound`, so a row copied under another credential id does not open.
 */
export function createCipher(secretKey: string) {
  const key = createHash('sha256').update(secretKey).digest();
  return {
    encrypt(plain: string, bound?: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      if (bound !== undefined) cipher.setAAD(Buffer.from(bound, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    decrypt(sealed: string, bound?: string): string {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      if (bound !== undefined) decipher.setAAD(Buffer.from(bound, 'utf8'));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

export type Cipher = ReturnType<typeof createCipher>;
