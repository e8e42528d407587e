import { expect } from 'chai';
import { recall, remember } from '../../../../query/library/list-memo.ts';

describe('the memory of list variants', () => {
  const variant = (i: number) => `variant ${i}`;

  it('given 25 lists that keep their order, then the 20 answered last keep it, and every one keeps its total', () => {
    const db = {};
    for (let i = 0; i < 25; i++) remember(db, variant(i), { at: '1', total: i, starts: new Map(), order: [`id ${i}`] });
    const kept = Array.from({ length: 25 }, (_, i) => recall(db, variant(i)));
    expect(kept.map((m) => m?.total)).to.deep.equal(Array.from({ length: 25 }, (_, i) => i));
    expect(kept.map((m) => Boolean(m?.order))).to.deep.equal([...Array<boolean>(5).fill(false), ...Array<boolean>(20).fill(true)]);
  });

  it('given a list answered again, then it is the last answered, and keeps its order when newer ones come', () => {
    const db = {};
    for (let i = 0; i < 20; i++) remember(db, variant(i), { at: '1', total: 1, starts: new Map(), order: ['x'] });
    remember(db, variant(0), recall(db, variant(0))!);
    remember(db, variant(20), { at: '1', total: 1, starts: new Map(), order: ['y'] });
    expect(recall(db, variant(0))?.order).to.deep.equal(['x']);
    expect(recall(db, variant(1))?.order).to.equal(undefined);
  });

  it('given five lists of 100,000 ids, then the four answered last keep their order (400,000 ids in all)', () => {
    const db = {};
    const ids = Array.from({ length: 100_000 }, (_, i) => `id ${i}`);
    for (let i = 0; i < 5; i++) remember(db, variant(i), { at: '1', total: ids.length, starts: new Map(), order: ids });
    expect(Array.from({ length: 5 }, (_, i) => Boolean(recall(db, variant(i))?.order))).to.deep.equal([false, true, true, true, true]);
  });
});
