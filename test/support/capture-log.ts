/** Everything the service writes to stdout and stderr while `run` runs, for "no secret in the logs" checks. */
export async function capturedLog<T>(run: () => Promise<T>): Promise<{ result: T; log: string }> {
  const lines: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const tap = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  process.stdout.write = tap as typeof process.stdout.write;
  process.stderr.write = tap as typeof process.stderr.write;
  try {
    const result = await run();
    return { result, log: lines.join('') };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
