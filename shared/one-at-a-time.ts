/**
 * Runs the works given under one key one after another (within this process), so a double click
 * that starts a task per user starts one, and the second finds it running. Each call makes its own
 * set of keys.
 */
export function oneAtATimePerKey(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const run = (running.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    running.set(key, tail);
    void tail.then(() => running.get(key) === tail && running.delete(key));
    return run;
  };
}
