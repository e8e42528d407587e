/**
 * Loaded first by `npm start`, `npm run demo` and `npm run replay` (node --import), and run by the
 * tests that spawn the service: when a source file is newer than dist/ (a developer edited one, or
 * checked out another branch) it rebuilds before the compiled entry point loads, saying so on
 * standard error, so the process never runs code older than its sources.
 */
import { build } from './build.mjs';
import { builtFrom, newestSource } from './sources.mjs';

const built = builtFrom();
if (built === undefined || newestSource() > built) {
  process.stderr.write(built === undefined ? 'no build in dist/: compiling (npm run build)\n' : 'sources changed since the last build: compiling (npm run build)\n');
  try {
    build();
  } catch {
    process.stderr.write('the build failed (see above); fix it, then npm start again\n');
    process.exit(1);
  }
}
