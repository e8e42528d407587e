import { expect } from 'chai';
import { ULID_PATTERN, newId, ulidRandom } from '../../../shared/ids.ts';

describe('ids', () => {
  it('new ids are distinct ULIDs, across refills of the random pool', () => {
    const ids = Array.from({ length: 2_000 }, newId);
    for (const id of ids) expect(id).to.match(ULID_PATTERN);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('the random draws are fractions of 256 in [0, 1) that take many values', () => {
    const draws = Array.from({ length: 10_000 }, ulidRandom);
    for (const d of draws) {
      expect(d).to.be.at.least(0).and.below(1);
      expect(Number.isInteger(d * 256)).to.equal(true);
    }
    expect(new Set(draws).size).to.be.above(200);
  });
});
