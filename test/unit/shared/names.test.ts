import { expect } from 'chai';
import { foldName } from '../../../shared/names.ts';

describe('name folding', () => {
  const same = (a: string, b: string) => it(`"${a}" meets "${b}"`, () => expect(foldName(a)).to.equal(foldName(b)));
  const apart = (a: string, b: string) => it(`"${a}" stays apart from "${b}"`, () => expect(foldName(a)).to.not.equal(foldName(b)));

  same('ABBA', 'abba');
  same('Motörhead', 'Motorhead');
  same('Beyoncé', 'BEYONCE');
  same('Sigur Rós', 'sigur ros');
  same('Simon & Garfunkel', 'Simon and Garfunkel');
  same('Hall + Oates', 'Hall & Oates');
  same('The Beatles', 'Beatles');
  same('  Daft   Punk ', 'Daft Punk');
  same('AC/DC', 'AC DC');
  same("Guns N' Roses", 'Guns N Roses');
  same('Abbey Road (Remastered 2009)', 'Abbey Road');
  same('Abbey Road [Deluxe Edition]', 'Abbey Road');
  same('Here Comes the Sun - 2019 Mix', 'Here Comes the Sun - 2019 Mix');
  same('Come Together - Remastered 2009', 'Come Together');
  same('Ｔｏｋｙｏ', 'tokyo');
  same('Straße', 'Strasse');
  apart('Hey Jude (Live)', 'Hey Jude');
  apart('Blue', 'Blur');

  it('folds to the documented key', () => {
    expect(foldName('The Rolling Stones & Friends (Remastered 2011)')).to.equal('rolling stones and friends');
  });

  it('never folds a symbol-only name to an empty key', () => {
    expect(foldName('!!!')).to.equal('!!!');
    expect(foldName('†')).to.not.equal('');
  });
});
