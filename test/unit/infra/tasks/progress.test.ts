import { expect } from 'chai';
import { withEstimate } from '../../../../infra/tasks/progress.ts';

describe('task progress estimates', () => {
  it('given processed of a known total, then percent and the time left at the pace so far', () => {
    expect(withEstimate({ processed: 250, total: 1000 }, 10_000)).to.deep.equal({ processed: 250, total: 1000, percent: 25, eta_seconds: 30 });
  });

  it('given done counted past a total taken at the start, then 100 percent and nothing left', () => {
    expect(withEstimate({ done: 3007, total: 3006 }, 5000)).to.include({ percent: 100, eta_seconds: 0 });
  });

  it('given nothing done yet, then a percent but no estimate of the time left', () => {
    expect(withEstimate({ done: 0, total: 10 }, 1000)).to.include({ percent: 0, eta_seconds: null });
  });

  it('given no total (or a zero one), then the progress as it was', () => {
    expect(withEstimate({ page: 3 }, 1000)).to.deep.equal({ page: 3 });
    expect(withEstimate({ done: 0, total: 0 }, 1000)).to.deep.equal({ done: 0, total: 0 });
  });
});
