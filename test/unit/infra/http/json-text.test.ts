import { expect } from 'chai';
import { withJsonField } from '../../../../infra/http/json-text.ts';

describe('an answer with a field of JSON text', () => {
  it('given an object, then the field is spliced in after its own fields, as written', () => {
    const answer = withJsonField({ state: 'ready', window_days: null }, 'plays_per_day', '[{"date":"2026-01-01","plays":2}]');
    expect(JSON.parse(answer.text)).to.deep.equal({ state: 'ready', window_days: null, plays_per_day: [{ date: '2026-01-01', plays: 2 }] });
  });

  it('given an empty object, then the field is its only one', () => {
    expect(JSON.parse(withJsonField({}, 'days', '[]').text)).to.deep.equal({ days: [] });
  });
});
