import { expect } from 'chai';
import { HoldBudget } from '../../../../infra/db/hold-budget.ts';

/** Holds on a machine where each costs `fixedMs` plus `perItemMs` per item, fed back until the size settles. */
function settle(budget: HoldBudget, fixedMs: number, perItemMs: number): number {
  for (let i = 0; i < 40; i++) budget.record(budget.size(), fixedMs + perItemMs * budget.size());
  return budget.size();
}

describe('hold budget: holds of the embedded connection sized by time', () => {
  it('given holds that cost mostly per item, then the size settles where a hold lasts the target', () => {
    const size = settle(new HoldBudget(() => 10, { min: 10, max: 2000, start: 500 }), 1, 0.1);
    expect(size).to.be.within(85, 95);
  });

  it('given a fixed cost that alone passes the target, then the size stays where the items cost as much as the fixed part', () => {
    const size = settle(new HoldBudget(() => 4, { min: 10, max: 500, start: 500 }), 30, 0.5);
    expect(size).to.be.within(55, 65);
  });

  it('given the bounds, then the size never leaves them', () => {
    expect(settle(new HoldBudget(() => 1000, { min: 10, max: 300, start: 100 }), 1, 0.01)).to.equal(300);
    expect(settle(new HoldBudget(() => 1, { min: 10, max: 300, start: 100 }), 0, 5)).to.equal(10);
  });

  it('given one hold that waited behind another, when the holds after it keep the same size, then their times bring the size back', () => {
    const budget = new HoldBudget(() => 100, { min: 10, max: 500, start: 500 });
    budget.record(1, 6);
    budget.record(10, 340);
    expect(budget.size()).to.be.below(300);
    expect(settle(budget, 2, 1)).to.be.within(80, 110);
  });
});
