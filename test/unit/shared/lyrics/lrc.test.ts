import { expect } from 'chai';
import { parseLrc } from '../../../../shared/lyrics/lrc.ts';

describe('LRC parsing', () => {
  it('reads minutes, seconds and hundredths into milliseconds, text trimmed', () => {
    expect(parseLrc('[00:17.12] I feel your breath upon my neck\n[03:20.31] The clock won’t stop')).to.deep.equal([
      { time_ms: 17_120, text: 'I feel your breath upon my neck' },
      { time_ms: 200_310, text: 'The clock won’t stop' },
    ]);
  });

  it('reads a fraction as written: tenths, hundredths, milliseconds, or none', () => {
    expect(parseLrc('[00:01.5]a\n[00:01.05]b\n[00:01.050]c\n[00:02]d\n[00:03:25]e').map((l) => [l.text, l.time_ms])).to.deep.equal([['b', 1050], ['c', 1050], ['a', 1500], ['d', 2000], ['e', 3250]]);
  });

  it('repeats a line with several time tags and orders every line by time', () => {
    expect(parseLrc('[00:30.00][00:10.00]Chorus\n[00:20.00]Verse')).to.deep.equal([
      { time_ms: 10_000, text: 'Chorus' },
      { time_ms: 20_000, text: 'Verse' },
      { time_ms: 30_000, text: 'Chorus' },
    ]);
  });

  it('skips metadata tags and untimed lines, keeps empty lines as breaks', () => {
    expect(parseLrc('[ar:Borislav Slavov]\n[ti:I Want to Live]\nno time here\n[00:05.00]\n[03:25.72] ')).to.deep.equal([
      { time_ms: 5000, text: '' },
      { time_ms: 205_720, text: '' },
    ]);
  });

  it('applies the offset tag: positive comes sooner, never before zero', () => {
    expect(parseLrc('[offset:+500]\n[00:01.00]a\n[00:00.20]b')).to.deep.equal([
      { time_ms: 0, text: 'b' },
      { time_ms: 500, text: 'a' },
    ]);
  });

  it('reads Windows line ends and gives nothing for text without time tags', () => {
    expect(parseLrc('[00:01.00]a\r\n[00:02.00]b\r\n')).to.have.length(2);
    expect(parseLrc('plain lyrics\nwithout times')).to.deep.equal([]);
  });
});
