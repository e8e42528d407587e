/**
 * Name folding: the key under which two spellings of one artist, album or track name meet.
 *
 * - case and compatibility forms fold (NFKD, lowercase): "ＡＢＢＡ" and "abba" meet;
 * - diacritics drop: "Motörhead" → "motorhead", "Beyoncé" → "beyonce";
 * - "&", "+" and the word "and" fold to one "and": "Simon & Garfunkel" = "Simon and Garfunkel";
 * - bracketed qualifiers drop when they only describe an edition: "(Remastered 2011)",
 *   "[Deluxe Edition]", "- 2011 Remaster", "(Live)" stays (a live take is another recording);
 * - a leading "the " drops: "The Beatles" = "Beatles";
 * - punctuation becomes space, runs of whitespace collapse, the ends trim.
 *
 * A name made only of punctuation or symbols keeps its characters, so it never folds to "".
 */
const EDITION_WORDS =
  /\b(remaster(ed)?|deluxe|expanded|anniversary|edition|version|bonus|reissue|mono|stereo|single|album|radio edit|explicit|clean|\d{4})\b/;

export function foldName(name: string): string {
  const withoutEditions = name
    .replace(/\s*[([]([^)\]]*)[)\]]/g, (whole, inner: string) => (EDITION_WORDS.test(inner.toLowerCase()) ? ' ' : whole))
    .replace(/\s+-\s+((\d{4}\s+)?remaster(ed)?(\s+\d{4})?|remastered version|\d{4} remaster|single version|radio edit|mono|stereo)\s*$/i, ' ');
  const folded = withoutEditions
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/\s*[&+]\s*/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the\s+/, '')
    .replace(/\s+/g, ' ');
  return folded || name.trim().toLowerCase().replace(/\s+/g, ' ');
}
