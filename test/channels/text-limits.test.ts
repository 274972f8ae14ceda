/** Label cuts counted as the platforms count (UTF-16 units), never splitting a character (#25). */
import { describe, expect, it } from 'vitest';
import { phoneKeyboard } from '../../src/channels/telegram/send/render.js';
import { clipUtf16, cutUtf16 } from '../../src/channels/text-limits.js';

describe('cuts in UTF-16 units at whole characters', () => {
  it('keeps an emoji and a joined emoji whole, within the limit, marking the cut', () => {
    expect(clipUtf16('🧪 Sign with the dev wallet', 24)).toBe('🧪 Sign with the dev wa…');
    expect(clipUtf16('🧪 Sign with the dev wallet', 24).length).toBe(24);
    const agent = '🧑‍💼'; // 5 UTF-16 units, one grapheme
    expect(clipUtf16(`${agent}${agent}${agent}`, 12)).toBe(`${agent}${agent}…`);
    expect(clipUtf16('  short  ', 20)).toBe('short');
  });

  it('a Telegram placeholder is cut to 64 units without leaving half an emoji', () => {
    const placeholder = `${'a'.repeat(63)}📱 more`;
    const cut = phoneKeyboard('Share', placeholder).input_field_placeholder!;
    expect(cut).toBe('a'.repeat(63));
    expect(cutUtf16(placeholder, 65)).toBe(`${'a'.repeat(63)}📱`);
    expect(/[\uD800-\uDBFF]$/.test(cut)).toBe(false);
  });
});
