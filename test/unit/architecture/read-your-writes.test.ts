import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect } from 'chai';

const root = resolve(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

const code = (file: string) =>
  readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');

/**
 * Read-your-writes belongs to `defineRoute` (docs/architecture.md): a route or command never waits
 * for the read models by hand. The few mid-flow waits say `ctx.readModels.catchUp`, and never in a
 * route file or on the read side.
 */
describe('read-your-writes is the route declaration’s', () => {
  const sides = [...sources('command'), ...sources('query')];

  it('no route, command or query file calls settle', () => {
    expect(sides.filter((f) => /\bsettle(Reactions)?\s*\(/.test(code(f)))).to.deep.equal([]);
  });

  it('no route file and nothing of the read side waits for the read models by hand', () => {
    const waiting = sides.filter((f) => (f.endsWith('.routes.ts') || f.startsWith('query/')) && /readModels\s*\.\s*catchUp/.test(code(f)));
    expect(waiting).to.deep.equal([]);
  });
});
