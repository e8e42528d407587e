import { expect } from 'chai';
import { composeFromFacts, jsonbKeyOrder, stableJson, withLinked, withObserved, withoutRef } from '../../../../shared/canonical/doc-facts.ts';

describe('doc facts', () => {
  it('orders keys as jsonb returns them: shorter first, then bytewise', () => {
    const ordered = jsonbKeyOrder({ 'scrobbler|b': {}, 'catalog|10': {}, 'catalog|9': {}, 'catalog|é': {}, 'catalog|z': {} });
    expect(Object.keys(ordered)).to.deep.equal(['catalog|9', 'catalog|z', 'catalog|10', 'catalog|é', 'scrobbler|b']);
  });

  it('writes equal facts as equal text whatever their key order, dropping undefined', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: undefined } })).to.equal(stableJson({ a: { d: [2, 1] }, b: 1 }));
    expect(stableJson({ a: [1, 2] })).to.not.equal(stableJson({ a: [2, 1] }));
  });

  it('links put the new ref first, observations replace in place, unlinks drop it; the doc follows', () => {
    let facts = withLinked({}, 'catalog|1');
    facts = withObserved(facts, 'catalog|1', { name: 'Abba' });
    facts = withLinked(facts, 'mediaserver|m');
    expect(Object.keys(facts)).to.deep.equal(['mediaserver|m', 'catalog|1']);
    facts = withObserved(facts, 'mediaserver|m', { name: 'ABBA' });
    expect(composeFromFacts(facts)).to.include({ name: 'ABBA', source_count: 2 });
    expect(composeFromFacts(withoutRef(facts, 'mediaserver|m'))).to.include({ name: 'Abba', source_count: 1 });
  });
});
