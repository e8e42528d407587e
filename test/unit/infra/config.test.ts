import { expect } from 'chai';
import { ConfigurationError, loadConfig } from '../../../infra/config.ts';

const SECRET_32 = 'x'.repeat(32);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
}

describe('configuration: secrets and the password-hashing cost', () => {
  for (const name of ['JWT_SECRET', 'SECRET_KEY']) {
    it(`given ${name} shorter than 32 bytes, then it is refused with a line naming it`, () => {
      const problems = problemsOf({ [name]: 'x'.repeat(31) });
      expect(problems).to.have.length(1);
      expect(problems[0]).to.match(new RegExp(`^${name} must be at least 32 bytes`));
    });

    it(`given ${name} of 32 bytes, or unset, then it is accepted`, () => {
      expect(loadConfig({ [name]: SECRET_32 })[name as 'JWT_SECRET']).to.equal(SECRET_32);
      expect(loadConfig({})[name as 'JWT_SECRET']).to.equal(undefined);
    });
  }

  it('counts bytes, not characters', () => {
    expect(problemsOf({ SECRET_KEY: 'é'.repeat(16) })).to.deep.equal([]);
    expect(problemsOf({ SECRET_KEY: 'é'.repeat(15) })).to.have.length(1);
  });

  it('given PASSWORD_SCRYPT_N below 2^17 outside the test suite, then it is refused', () => {
    const problems = problemsOf({ PASSWORD_SCRYPT_N: '1024' });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^PASSWORD_SCRYPT_N below the default 131072/);
    expect(problemsOf({ PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'production' })).to.have.length(1);
  });

  it('given PASSWORD_SCRYPT_N below 2^17 with NODE_ENV=test, or at or above 2^17 anywhere, then it is accepted', () => {
    expect(loadConfig({ PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'test' }).PASSWORD_SCRYPT_N).to.equal(1024);
    expect(loadConfig({ PASSWORD_SCRYPT_N: String(2 ** 18) }).PASSWORD_SCRYPT_N).to.equal(2 ** 18);
  });

  it('given a PASSWORD_SCRYPT_N that is not a power of two, then it is refused (scrypt would throw at the first login)', () => {
    expect(problemsOf({ PASSWORD_SCRYPT_N: '200000' })[0]).to.match(/^PASSWORD_SCRYPT_N must be a power of two/);
  });
});
