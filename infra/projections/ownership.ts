import { messageOf } from '../../shared/errors.ts';
import { sessionLock } from '../db/advisory-locks.ts';
import { log } from '../logger.ts';
import type { ProjectionRunner } from './runner.ts';

const RETRY_MS = 1000;

export interface ProjectionOwnership {
  /** Tries once; true when this process took the projections and its runner started. */
  claim(): Promise<boolean>;
  /** Tries every second in the background until this process owns the projections. */
  waitForTurn(): void;
  /** This process must not run the projections any more (a batch found its checkpoints moved). */
  lost(): void;
  stop(): Promise<void>;
}

/**
 * On PostgreSQL one process runs the projections: the holder of a session advisory lock. Others with
 * the projector role wait and take over within about a second of the holder's connection ending
 * (a stop, kill -9, a lost host). Checkpoints move by compare-and-set besides, so a holder that lost
 * its connection without noticing cannot apply a batch twice.
 */
export function projectionOwnership(connectionString: string, runner: ProjectionRunner): ProjectionOwnership {
  const lock = sessionLock(connectionString, 'music-library projections');
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let changing: Promise<unknown> = Promise.resolve();

  const claim = async () => {
    if (stopped || !(await lock.tryAcquire())) return false;
    log.info('projections: this process runs the projections');
    await runner.start();
    return true;
  };
  const waitForTurn = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      changing = claim().then(
        (owned) => owned || waitForTurn(),
        (error: unknown) => {
          log.warn('projections: could not take over', { error: messageOf(error) });
          void lock.release();
          waitForTurn();
        },
      );
    }, RETRY_MS);
  };
  const lost = () => {
    changing = (async () => {
      await runner.stop();
      await lock.release();
      waitForTurn();
    })();
  };
  lock.onLost(lost);
  return {
    claim,
    waitForTurn,
    lost,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await changing;
      await lock.release();
    },
  };
}
