/** What `npm run build` compiles and where it puts it, shared by the build and the freshness check. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const BUILD_DIR = join(repoRoot, 'dist');
export const STAMP = '.built-from';
/** Every directory the entry points reach (the demo runs the test fakes in-process). */
export const SOURCE_DIRS = ['command', 'query', 'projectors', 'shared', 'infra', 'demo', 'test/fakes', 'test/support'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

export function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.isFile()) yield path;
  }
}

/** The newest modification time (ms) among the sources and the build settings. */
export function newestSource() {
  let newest = 0;
  for (const file of CONFIG_FILES) newest = Math.max(newest, statSync(join(repoRoot, file)).mtimeMs);
  for (const dir of SOURCE_DIRS) for (const file of sourceFiles(join(repoRoot, dir))) newest = Math.max(newest, statSync(file).mtimeMs);
  return newest;
}

/** The source time the current build was made from, or undefined without a build. */
export function builtFrom() {
  try {
    return Number(readFileSync(join(BUILD_DIR, STAMP), 'utf8'));
  } catch {
    return undefined;
  }
}
