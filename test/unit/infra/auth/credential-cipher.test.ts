import { expect } from 'chai';
import { createCipher } from '../../../../infra/credentials/cipher.ts';

describe('credential cipher (AES-256-GCM)', () => {
  const cipher = createCipher('secret-key-one');

  it('round-trips a secret', () => {
    const secret = 'scrypt$1024$8$1$c2FsdA$a2V5 and ünïcode';
    expect(cipher.decrypt(cipher.encrypt(secret))).to.equal(secret);
  });

  it('seals the same secret differently each time and never shows it', () => {
    const [a, b] = [cipher.encrypt('token-123'), cipher.encrypt('token-123')];
    expect(a).not.to.equal(b);
    expect(a).not.to.include('token-123');
    expect(Buffer.from(a, 'base64url').toString('latin1')).not.to.include('token-123');
  });

  it('detects a tampered ciphertext', () => {
    const raw = Buffer.from(cipher.encrypt('token-123'), 'base64url');
    raw[raw.length - 1]! ^= 0x01;
    expect(() => cipher.decrypt(raw.toString('base64url'))).to.throw();
  });

  it('detects a tampered tag or iv', () => {
    for (const index of [0, 14]) {
      const raw = Buffer.from(cipher.encrypt('token-123'), 'base64url');
      raw[index]! ^= 0x80;
      expect(() => cipher.decrypt(raw.toString('base64url'))).to.throw();
    }
  });

  it('refuses to open a secret sealed under another key', () => {
    expect(() => createCipher('secret-key-two').decrypt(cipher.encrypt('token-123'))).to.throw();
  });

  it('refuses a truncated secret', () => {
    expect(() => cipher.decrypt(cipher.encrypt('token-123').slice(0, 20))).to.throw();
  });

  describe('bound to a credential id (associated data)', () => {
    it('opens under the id it was sealed with', () => {
      expect(cipher.decrypt(cipher.encrypt('token-123', 'cred-a'), 'cred-a')).to.equal('token-123');
    });

    it('refuses to open under another id, or with no id', () => {
      const sealed = cipher.encrypt('token-123', 'cred-a');
      expect(() => cipher.decrypt(sealed, 'cred-b')).to.throw();
      expect(() => cipher.decrypt(sealed)).to.throw();
    });

    it('a value sealed without an id (the old format) does not open as if bound to one', () => {
      expect(() => cipher.decrypt(cipher.encrypt('token-123'), 'cred-a')).to.throw();
    });
  });
});
