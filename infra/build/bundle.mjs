/**
 * Part of the build: `npm start`'s entry point and everything it loads at a start, bundled from
 * the compiled files into dist/start/ (esbuild). Node 20's module loader costs about a millisecond
 * of reading, resolving and linking for each of the ~1,100 files a start loaded (the service's and
 * its packages'), on the main thread, while the database opens on its own (infra/main.ts):
 * bundled, a start evaluates a few large files instead (docs/operations.md, "Start-up cost").
 *
 * What a start does not load stays out: PGlite (its WebAssembly and data files sit beside its
 * module, and it runs on its own thread), and the clients loaded only when configured (PostgreSQL,
 * EventStoreDB, Kafka), which stay behind their dynamic imports in chunks of their own. A compiled
 * file that finds a file relative to itself (the PGlite thread's entry, the template database)
 * gets its own address in place of `import.meta.url`, so it finds the same file as before.
 */
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import * as esbuild from 'esbuild';

const BUNDLE_DIR = 'start';
const NOT_BUNDLED = [
  ...['@electric-sql/pglite', 'pg', '@eventstore/db-client', 'kafkajs'],
  // Large tables, compiled at every start inside the bundle: from their packages, iconv-lite's
  // character sets load at first use and mime-db's media types are parsed as JSON, far cheaper.
  ...['iconv-lite', 'mime-db'],
];

export async function bundle(buildDir) {
  const outdir = join(buildDir, BUNDLE_DIR);
  await esbuild.build({
    entryPoints: [join(buildDir, 'infra', 'main.js')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: NOT_BUNDLED,
    // The bundled CommonJS packages (express and its middleware) call require for Node's own modules.
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    plugins: [ownAddresses(buildDir, outdir)],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/** `import.meta.url` of a compiled file is its own address in dist/, not the bundle's. */
function ownAddresses(buildDir, outdir) {
  return {
    name: 'own-addresses',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async ({ path }) => {
        if (relative(buildDir, path).startsWith('..')) return undefined;
        const code = await readFile(path, 'utf8');
        if (!code.includes('import.meta.url')) return undefined;
        const own = `new URL(${JSON.stringify(relative(outdir, path).split(sep).join('/'))}, import.meta.url).href`;
        return { contents: code.replaceAll('import.meta.url', own), loader: 'js' };
      });
    },
  };
}

if (process.argv[1] === import.meta.filename) await bundle(process.argv[2]);
