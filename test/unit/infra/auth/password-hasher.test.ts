import { expect } from 'chai';
import { createPasswordHasher } from '../../../../infra/auth/password-hasher.ts';

const cheap = { N: 1024, r: 8, p: 1 };

describe('password hasher (scrypt)', () => {
  const hasher = createPasswordHasher(cheap);

  it('verifies the password a hash was made from', async () => {
    const hash = await hasher.hash('correct horse');
    expect(await hasher.verify('correct horse', hash)).to.equal(true);
  });

  it('refuses another password', async () => {
    const hash = await hasher.hash('correct horse');
    expect(await hasher.verify('correct horsE', hash)).to.equal(false);
  });

  it('writes a self-describing hash with a random salt and never the password', async () => {
    const [a, b] = [await hasher.hash('correct horse'), await hasher.hash('correct horse')];
    expect(a).to.match(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.to.equal(b);
    expect(a).not.to.include('correct horse');
  });

  it('verifies a hash made at another cost with the cost written in it', async () => {
    const hash = await createPasswordHasher({ N: 2048, r: 8, p: 1 }).hash('pw');
    expect(await hasher.verify('pw', hash)).to.equal(true);
  });

  it('answers false without a stored hash (unknown user), even for the dummy password', async () => {
    expect(await hasher.verify('anything', undefined)).to.equal(false);
    expect(await hasher.verify('not a password', undefined)).to.equal(false);
  });

  it('spends about as long on an unknown user as on a wrong password', async () => {
    const costly = createPasswordHasher({ N: 2 ** 14, r: 8, p: 1 });
    const hash = await costly.hash('pw');
    await costly.verify('warm-up', undefined);
    const time = async (stored: string | undefined) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < 3; i++) await costly.verify('wrong', stored);
      return Number(process.hrtime.bigint() - started);
    };
    const [unknown, wrong] = [await time(undefined), await time(hash)];
    expect(unknown / wrong).to.be.within(0.33, 3);
  });

  it('answers false for a malformed or truncated hash instead of failing', async () => {
    const hash = await hasher.hash('pw');
    expect(await hasher.verify('pw', 'bcrypt$whatever')).to.equal(false);
    expect(await hasher.verify('pw', '')).to.equal(false);
    expect(await hasher.verify('pw', hash.slice(0, -4))).to.equal(false);
    expect(await hasher.verify('pw', hash.replace('$1024$', '$1000$'))).to.equal(false);
  });

  it('treats canonically equivalent Unicode spellings as the same password', async () => {
    const hash = await hasher.hash('caf\u00e9');
    expect(await hasher.verify('cafe\u0301', hash)).to.equal(true);
  });
});
