import { messageOf } from '../../shared/errors.ts';
import { sessionLock } from './advisory-locks.ts';
import { log } from '../logger.ts';

const RETRY_MS = 1000;

/** Work only one process may run at a time: the projections, a reactor. */
export interface Owned {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface Ownership {
  /** Tries once; true when this process took the lock and started the work. */
  claim(): Promise<boolean>;
  /** Tries every second in the background until this process owns the work. */
  waitForTurn(): void;
  /** This process must not run the work any more (it found its checkpoints moved). */
  lost(): void;
  stop(): Promise<void>;
}

/**
 * On PostgreSQL one process runs `work`: the holder of a session advisory lock named `name`. Others
 * wait and take over within about a second of the holder's connection ending (a stop, kill -9, a lost
 * host). The work's checkpoints move by compare-and-set besides, so a holder that lost its connection
 * without noticing cannot apply anything twice (docs/deploy.md).
 */
export function lockOwnership(connectionString: string, name: string, work: Owned): Ownership {
  const lock = sessionLock(connectionString, `music-library ${name}`);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let changing: Promise<unknown> = Promise.resolve();

  const claim = async () => {
    if (stopped || !(await lock.tryAcquire())) return false;
    log.info('this process took over', { work: name });
    await work.start();
    return true;
  };
  const waitForTurn = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      changing = claim().then(
        (owned) => owned || waitForTurn(),
        (error: unknown) => {
          log.warn('could not take over', { work: name, error: messageOf(error) });
          void lock.release();
          waitForTurn();
        },
      );
    }, RETRY_MS);
  };
  const lost = () => {
    changing = (async () => {
      await work.stop();
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
