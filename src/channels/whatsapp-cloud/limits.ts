/** Meta's limits on the parts of a message, and the cut that keeps a text within one. */

import { clipUtf16 } from '../text-limits.js';

/** Meta's limits, in UTF-16 code units as Meta counts them (JavaScript's string length). */
export const LIMITS = {
  text: 4096,
  body: 1024,
  caption: 1024,
  buttons: 3,
  buttonTitle: 20,
  rows: 10,
  rowTitle: 24,
  rowDescription: 72,
  sectionTitle: 24,
  listButton: 20,
  ctaText: 20,
  id: 200,
} as const;

/**
 * Cuts to `max` UTF-16 code units, as Meta counts ("🧪 Sign with the dev wal…" is 25 of them, over a
 * row title's 24, though only 24 code points), at a whole character, marking the cut.
 */
export const clip = (s: string, max: number): string => clipUtf16(s, max);
