import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { Request, Response } from 'express';
import { RequestActivity } from '../../../../infra/http/request-activity.ts';
import { inBackground } from '../../../../infra/db/work-class.ts';

/** Starts a request through the middleware; `inside` runs in its async context; returns its end. */
function request(activity: RequestActivity, inside: () => void = () => {}): () => void {
  const res = new EventEmitter();
  activity.middleware({} as Request, res as unknown as Response, inside);
  return () => res.emit('finish');
}

async function elapsed(work: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work;
  return performance.now() - started;
}

describe('request activity', () => {
  it('is quiet at once when no request was served', async () => {
    expect(await elapsed(new RequestActivity().quiet(20, 500))).to.be.below(15);
  });

  it('holds background work while a request is served, but no longer than the longest wait', async () => {
    const activity = new RequestActivity();
    request(activity);
    const waited = await elapsed(activity.quiet(5, 60));
    expect(waited).to.be.within(55, 200);
  });

  it('lets background work go once requests leave a gap of the grace period', async () => {
    const activity = new RequestActivity();
    const end = request(activity);
    setTimeout(end, 20);
    const waited = await elapsed(activity.quiet(10, 1000));
    expect(waited).to.be.within(25, 200);
  });

  it('does not count a request that waits aside for the projections', async () => {
    const activity = new RequestActivity();
    let quietInside = Infinity;
    let aside: Promise<void> = Promise.resolve();
    request(activity, () => {
      aside = activity.aside(async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        quietInside = await elapsed(activity.quiet(5, 1000));
      });
    });
    await aside;
    expect(quietInside).to.be.below(100);
  });

  it('says a request waits for background work while it waits aside, and no longer', async () => {
    const activity = new RequestActivity();
    let release!: () => void;
    let during = false;
    request(activity, () => {
      void activity.aside(async () => {
        during = activity.awaitsBackground();
        await new Promise<void>((resolve) => (release = resolve));
      });
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(during).to.equal(true);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(activity.awaitsBackground()).to.equal(false);
  });

  it('does not count the wait of background work a request started (a task) as the request waiting', async () => {
    const activity = new RequestActivity();
    let during = true;
    let waited!: Promise<void>;
    request(activity, () => {
      waited = inBackground(() => activity.aside(async () => void (during = activity.awaitsBackground())));
    });
    await waited;
    expect(during).to.equal(false);
  });
});
