import { expect } from 'chai';
import { recallSeries, rememberSeries } from '../../../../query/scrobbler/day-series-memo.ts';

describe('the kept all-time plays per day', () => {
  const listener = (i: number) => ({ user_key: `user ${i}`, listener: `account ${i}`, scrobbler_username: `Account ${i}` });

  it('given a series kept at one place of the projector, then it is answered there and nowhere else', () => {
    const db = {};
    rememberSeries(db, listener(0), 'p1', '[1]');
    expect(recallSeries(db, listener(0), 'p1')).to.equal('[1]');
    expect(recallSeries(db, listener(0), 'p2')).to.equal(undefined);
    expect(recallSeries(db, listener(1), 'p1')).to.equal(undefined);
    expect(recallSeries({}, listener(0), 'p1')).to.equal(undefined);
  });

  it('given more than 100 listeners, then the least recently read lose theirs first', () => {
    const db = {};
    for (let i = 0; i < 100; i++) rememberSeries(db, listener(i), 'p1', `[${i}]`);
    expect(recallSeries(db, listener(0), 'p1')).to.equal('[0]');
    rememberSeries(db, listener(100), 'p1', '[100]');
    expect(recallSeries(db, listener(0), 'p1')).to.equal('[0]');
    expect(recallSeries(db, listener(1), 'p1')).to.equal(undefined);
    expect(recallSeries(db, listener(100), 'p1')).to.equal('[100]');
  });
});
