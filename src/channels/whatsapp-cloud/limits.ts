/** Meta's limits on the parts of a message, and the cut that keeps a text within one. */

/** Meta's limits (characters). */
export const LIMITS = {
  text: 4096,
  body: 1024,
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

/** Cuts to `max` characters (code points), marking the cut. */
export function clip(s: string, max: number): string {
  const chars = [...s.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
