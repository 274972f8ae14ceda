/**
 * Platform limits on labels are counted as the platforms count them: Meta's WhatsApp limits (a row
 * title's 24, a button title's 20…) and Telegram's in UTF-16 code units, which is JavaScript's
 * `string.length` (an emoji such as 🧪 is 2, not 1). A cut never splits a character: it keeps whole
 * graphemes (an emoji with its skin tone or joined parts stays whole) and marks itself with "…".
 */

// Made on the first cut: building it loads ICU's break rules (about 10 ms), which a start need not pay.
let segmenter: Intl.Segmenter | undefined;
const graphemes = () => {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
};

/** `s` trimmed, cut to at most `max` UTF-16 code units at a whole grapheme, marking the cut with "…". */
export function clipUtf16(s: string, max: number): string {
  const t = s.trim();
  if (t.length <= max) return t;
  const room = max - 1;
  let out = '';
  for (const { segment } of graphemes().segment(t)) {
    if (out.length + segment.length > room) break;
    out += segment;
  }
  return `${out.trimEnd()}…`;
}

/** The longest start of `s` within `max` UTF-16 code units that ends at a whole grapheme (no mark). */
export function cutUtf16(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  for (const { segment } of graphemes().segment(s)) {
    if (out.length + segment.length > max) break;
    out += segment;
  }
  return out;
}
