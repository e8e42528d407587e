/**
 * The media server answers XML unless asked for JSON, and a few of its documents only come as XML.
 * This reads the subset it speaks (elements, attributes, no mixed text that matters) and turns a
 * document into the shape of its JSON twin, so one set of schemas parses both.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<!DOCTYPE[^>]*>|<\/\s*([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export class XmlSyntaxError extends Error {}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref] ?? whole;
  });
}

/** The document's root element. */
export function parseXml(text: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  for (const match of text.matchAll(TOKEN)) {
    const [, closing, opening, attributeText, selfClosing] = match;
    if (closing) {
      const open = stack.pop();
      if (!open || open.name !== closing) throw new XmlSyntaxError(`unexpected </${closing}>`);
      continue;
    }
    if (!opening) continue;
    const element: XmlElement = { name: opening, attributes: attributesOf(attributeText ?? ''), children: [] };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else if (root) throw new XmlSyntaxError('more than one root element');
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (!root) throw new XmlSyntaxError('no root element');
  if (stack.length > 0) throw new XmlSyntaxError(`<${stack[stack.length - 1]!.name}> is not closed`);
  return root;
}

function attributesOf(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name, doubleQuoted, singleQuoted] of text.matchAll(ATTRIBUTE)) attributes[name!] = decodeEntities(doubleQuoted ?? singleQuoted ?? '');
  return attributes;
}

/**
 * The JSON twin of an element: attributes become fields, children are grouped into arrays by tag.
 * Library items (anything with a `ratingKey`: `<Directory>` albums, `<Track>`, `<Playlist>`) go under
 * `Metadata`, as the server's JSON puts them; a bare `<Directory>` (a section) stays `Directory`.
 */
export function toJsonShape(element: XmlElement): Record<string, unknown> {
  const out: Record<string, unknown> = { ...element.attributes };
  for (const child of element.children) {
    const key = 'ratingKey' in child.attributes && child.name !== 'Media' && child.name !== 'Part' ? 'Metadata' : child.name;
    const list = (out[key] ??= []) as unknown[];
    list.push(toJsonShape(child));
  }
  return out;
}

/** A whole document as its JSON twin: `{MediaContainer: {...}}`, or `{user: {...}}` for the account. */
export function xmlToJson(text: string): Record<string, unknown> {
  const root = parseXml(text);
  return { [root.name]: toJsonShape(root) };
}
