/**
 * `npm run build` (and `prepare`, so `npm ci` runs it): compiles the service's TypeScript to
 * JavaScript in dist/ once, instead of at every start. Type checking is `npm run typecheck`'s job;
 * this only emits (tsc --noCheck), with the files other than TypeScript (worker entries, SQL, JSON)
 * copied beside the code that loads them, then bundles what `npm start` loads (./bundle.mjs). It
 * builds into a fresh directory and swaps it in, so a failed build leaves the previous one whole;
 * the stamp records how new the sources it saw were.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { TEMPLATE } from './pgdata-template.mjs';
import { BUILD_DIR, SOURCE_DIRS, STAMP, newestSource, repoRoot, sourceFiles } from './sources.mjs';

// The build's own scripts run from the sources, never from dist/.
const BUILD_TOOLS = join(repoRoot, 'infra', 'build');

export function build() {
  const seen = newestSource();
  const next = `${BUILD_DIR}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(repoRoot, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(join(repoRoot, dir))) {
      if (file.endsWith('.ts') || file.startsWith(BUILD_TOOLS)) continue;
      cpSync(file, join(next, relative(repoRoot, file)));
    }
  }
  execFileSync(process.execPath, [join(BUILD_TOOLS, 'bundle.mjs'), next], { stdio: 'inherit' });
  makeTemplate(next);
  writeFileSync(join(next, STAMP), `${seen}\n`);
  const old = `${BUILD_DIR}.old-${process.pid}`;
  if (existsSync(BUILD_DIR)) renameSync(BUILD_DIR, old);
  renameSync(next, BUILD_DIR);
  rmSync(old, { recursive: true, force: true });
}

/**
 * The migrated empty database; the previous build's while no migration, read model (its version)
 * or PGlite changed since. A stale one would still be right: the start resets what it finds older.
 */
function makeTemplate(next) {
  const previous = join(BUILD_DIR, TEMPLATE);
  const inputs = [
    ...['infra/db', 'infra/projections', 'projectors'].flatMap((dir) => [...sourceFiles(join(repoRoot, dir))]),
    join(repoRoot, 'package-lock.json'),
    join(repoRoot, 'infra', 'build', 'pgdata-template.mjs'),
  ];
  const madeAt = existsSync(join(previous, 'PG_VERSION')) ? statSync(join(previous, 'PG_VERSION')).mtimeMs : 0;
  if (inputs.every((file) => statSync(file).mtimeMs < madeAt)) {
    cpSync(previous, join(next, TEMPLATE), { recursive: true, preserveTimestamps: true });
    return;
  }
  execFileSync(process.execPath, [join(repoRoot, 'infra', 'build', 'pgdata-template.mjs'), next], { stdio: 'inherit' });
}

if (process.argv[1] === import.meta.filename) build();
