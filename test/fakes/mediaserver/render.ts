import type { Request, Response } from 'express';
import type { Json } from './library.ts';

/** The element an item is written as in XML, by its type (the JSON puts them all under `Metadata`). */
const ITEM_TAG: Record<string, string> = { artist: 'Directory', album: 'Directory', track: 'Track', playlist: 'Playlist', movie: 'Video', episode: 'Video' };

export const wantsJson = (req: Request) => String(req.headers.accept ?? '').includes('application/json');

/**
 * Answers a `MediaContainer` as the server does: JSON when asked, XML otherwise. `children` holds
 * the lists (`Metadata`, `Directory`) under their JSON keys.
 */
export function sendContainer(req: Request, res: Response, attributes: Json, children: Record<string, Json[]> = {}, forceXml = false): void {
  if (wantsJson(req) && !forceXml) {
    res.type('application/json').send(JSON.stringify({ MediaContainer: { ...attributes, ...children } }));
    return;
  }
  const inner = Object.entries(children)
    .flatMap(([key, list]) => list.map((child) => element(key === 'Metadata' ? (ITEM_TAG[String(child.type)] ?? 'Directory') : key, child)))
    .join('\n');
  res.type('text/xml').send(`<?xml version="1.0" encoding="UTF-8"?>\n<MediaContainer${attrs(attributes)}>\n${inner}\n</MediaContainer>\n`);
}

/** One element: scalar fields as attributes, lists of objects as child elements named by their key. */
export function element(tag: string, value: Json): string {
  const nested = Object.entries(value)
    .filter(([, v]) => Array.isArray(v))
    .flatMap(([key, list]) => (list as Json[]).map((child) => element(key, child)));
  return nested.length === 0 ? `<${tag}${attrs(value)} />` : `<${tag}${attrs(value)}>${nested.join('')}</${tag}>`;
}

function attrs(value: Json): string {
  return Object.entries(value)
    .filter(([, v]) => v !== null && v !== undefined && !Array.isArray(v) && typeof v !== 'object')
    .map(([k, v]) => ` ${k}="${escape(typeof v === 'boolean' ? (v ? '1' : '0') : String(v))}"`)
    .join('');
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
