import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'chai';

const root = resolve(import.meta.dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('the README, for the person running the service', () => {
  it('starts with the two set-up commands and the test command', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(firstBlock.split('\n').filter(Boolean).map((l) => l.split(/\s+#/)[0]!.trim())).to.deep.equal(['npm ci', 'npm start', 'npm test']);
    expect(readme.indexOf('```sh')).to.be.below(readme.indexOf('\n## '));
  });

  it('stays short: at most 300 lines', () => {
    expect(readme.split('\n').length).to.be.at.most(300);
  });

  it('links every docs/ file, and every link it makes leads to a file that exists', () => {
    const linked = [...readme.matchAll(/\]\((docs\/[^)#]+)\)/g)].map((m) => m[1]!);
    for (const target of linked) expect(existsSync(join(root, target)), target).to.equal(true);
    const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(docs.filter((d) => !linked.includes(d)), 'docs not linked').to.deep.equal([]);
  });

  it('names no path of the machine it was written on', () => {
    expect(readme).not.to.match(/\/(work|home|root|Users|tmp)\//);
  });
});
