/**
 * Paragraphs as Cloud API texts: packed into texts of at most 4096 characters, and, before an
 * interactive message, the last ones that fit its 1024-character body kept for it.
 */

import { cutUtf16 } from '../../text-limits.js';
import type { WireMessage } from '../graph.js';
import { LIMITS } from '../limits.js';

/** A plain text message (no link preview). */
export const text = (body: string): WireMessage => ({ type: 'text', text: { body, preview_url: false } });

/** Splits paragraphs into texts of at most `limit` characters, cutting inside one only when it must. */
export function chunkParagraphs(paragraphs: string[], limit: number = LIMITS.text): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const p of paragraphs.flatMap((p) => cutLong(p, limit))) {
    if (!current) current = p;
    else if (current.length + 2 + p.length <= limit) current += `\n\n${p}`;
    else {
      chunks.push(current);
      current = p;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

function cutLong(p: string, limit: number): string[] {
  const out: string[] = [];
  let rest = p;
  while (rest.length > limit) {
    const cut = rest.lastIndexOf('\n', limit);
    // Never between the two halves of a character (an emoji is two UTF-16 units).
    const at = cut > limit / 2 ? cut : cutUtf16(rest, limit).length || limit;
    out.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, '');
  }
  if (rest) out.push(rest);
  return out;
}

/**
 * Paragraphs as leading texts plus a body of at most 1024 characters for the interactive message
 * that ends them: as many of the last paragraphs as fit, or `fallback` when even the last is longer.
 */
export function withBody(paragraphs: string[], fallback: string): { lead: WireMessage[]; body: string } {
  let taken = 0;
  let body = '';
  for (let i = paragraphs.length - 1; i >= 0; i--) {
    const next = body ? `${paragraphs[i]}\n\n${body}` : paragraphs[i]!;
    if (next.length > LIMITS.body) break;
    body = next;
    taken++;
  }
  const rest = paragraphs.slice(0, paragraphs.length - taken);
  return { lead: chunkParagraphs(rest).map(text), body: body || fallback };
}
