import { expect } from 'chai';
import { contentJson } from '../../../../infra/upstreams/llm/chat-completions.ts';

describe('chat completions: the JSON object in an answer', () => {
  it('reads plain JSON and JSON in a Markdown code fence alike', () => {
    expect(contentJson('{"a": 1}')).to.deep.equal({ a: 1 });
    expect(contentJson('```json\n{"a": 1}\n```')).to.deep.equal({ a: 1 });
    expect(contentJson('  ```\n{"a": [1, 2]}\n```  ')).to.deep.equal({ a: [1, 2] });
  });

  it('refuses prose, and prose around a fence', () => {
    expect(() => contentJson('Here you go: {"a": 1}')).to.throw(SyntaxError);
    expect(() => contentJson('Sure!\n```json\n{"a": 1}\n```')).to.throw(SyntaxError);
  });
});
