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

  it('given a target that drops (the API woke up), then the next hold fits it at once, and grows back gradually', () => {
    let target = 100;
    const budget = new HoldBudget(() => target, { min: 10, max: 5000, start: 500 });
    // Sizes that differ enough for the budget to learn the slope.
    for (const items of [200, 400, 800, 600, 900, 950]) budget.record(items, 1 + 0.1 * items);
    const idleSize = settle(budget, 1, 0.1);
    target = 10;
    expect(budget.size()).to.be.within(85, 95);
    budget.record(budget.size(), 10);
    target = 100;
    const woken = budget.size();
    expect(woken).to.be.below(idleSize * 0.6);
    budget.record(woken, 1 + 0.1 * woken);
    expect(budget.size()).to.be.above(woken).and.below(idleSize);
  });
});
