/**
 * The HTML a template renders to: Telegram's own tags and entities kept, every other `<` and `&`
 * escaped, checked against the character-at-a-time reading it replaced.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../../src/channels/telegram/send/render.js';

const TAG = /^<\/?(b|strong|i|em|u|ins|s|strike|del|code|pre|blockquote|tg-spoiler|a(?=[\s>/]))(\s[^<>]*)?>/i;
const ENTITY = /^&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-fA-F]{1,6});/;

/** The earlier implementation, a character at a time. */
function reference(html: string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const ch = html[i] as string;
    const m =
      ch === '<' ? TAG.exec(html.slice(i, i + 300)) : ch === '&' ? ENTITY.exec(html.slice(i, i + 12)) : null;
    if (m) {
      out += m[0];
      i += m[0].length;
      continue;
    }
    out += ch === '<' ? '&lt;' : ch === '&' ? '&amp;' : ch;
    i += 1;
  }
  return out;
}

describe('sanitizeHtml', () => {
  it('keeps Telegram tags and entities, escapes the rest', () => {
    expect(sanitizeHtml('<b>KES 1,000</b> &amp; <i>fee</i> 5 < 6 && <script>x</script>')).toBe(
      '<b>KES 1,000</b> &amp; <i>fee</i> 5 &lt; 6 &amp;&amp; &lt;script>x&lt;/script>',
    );
    expect(sanitizeHtml('<a href="https://polygonscan.com/tx/0x1">tx</a> &#x1F600; &#128512;')).toBe(
      '<a href="https://polygonscan.com/tx/0x1">tx</a> &#x1F600; &#128512;',
    );
    expect(sanitizeHtml('&')).toBe('&amp;');
    expect(sanitizeHtml('<')).toBe('&lt;');
    expect(sanitizeHtml('<b>')).toBe('<b>');
    expect(sanitizeHtml('')).toBe('');
  });

  it('hands a text with nothing to escape back as it is', () => {
    const text = 'Karibu! Chagua: Nunua, Uza, Bei.';
    expect(sanitizeHtml(text)).toBe(text);
  });

  it('agrees with the character-at-a-time reading on random texts', () => {
    const parts = [
      '<b>',
      '</b>',
      '<a href="x">',
      '</a>',
      '<x>',
      '<',
      '>',
      '&',
      '&amp;',
      '&#12;',
      '&lt',
      'ab',
      ' ',
      'é',
      '<pre>',
      '<tg-spoiler>',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: next() % 12 }, () => parts[next() % parts.length]).join('');
      expect(sanitizeHtml(text), text).toBe(reference(text));
    }
  });
});
