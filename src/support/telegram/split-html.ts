/**
 * Splits Telegram HTML into messages of at most `max` characters without cutting an entity
 * (`&amp;`) or a tag, closing the tags still open at each cut and opening them again in the next
 * part, so every part parses and nothing of a long user message is lost.
 */
export function splitHtml(html: string, max: number): string[] {
  if (html.length <= max) return [html];
  const parts: string[] = [];
  let open: string[] = [];
  let rest = html;
  while (rest.length) {
    const prefix = open.map((t) => `<${t}>`).join('');
    const budget = max - prefix.length - closingLength(open) - 16;
    if (rest.length <= budget) {
      parts.push(prefix + rest);
      break;
    }
    const cut = safeCut(rest, Math.max(1, budget));
    const chunk = rest.slice(0, cut);
    const stillOpen = openTagsAfter(open, chunk);
    parts.push(
      prefix +
        chunk +
        [...stillOpen]
          .reverse()
          .map((t) => `</${t.split(' ')[0]}>`)
          .join(''),
    );
    open = stillOpen;
    rest = rest.slice(cut);
  }
  return parts;
}

const closingLength = (open: string[]) => open.reduce((n, t) => n + t.split(' ')[0]!.length + 3, 0);

/** The last cut at or before `limit` that is outside a tag and an entity, at a line or word end if possible. */
function safeCut(text: string, limit: number): number {
  let cut = limit;
  const inside = (i: number) => {
    const lt = text.lastIndexOf('<', i - 1);
    const gt = text.lastIndexOf('>', i - 1);
    const amp = text.lastIndexOf('&', i - 1);
    const semi = text.lastIndexOf(';', i - 1);
    return lt > gt || (amp > semi && i - amp <= 10);
  };
  while (cut > 1 && inside(cut)) cut--;
  const soft = Math.max(text.lastIndexOf('\n', cut), text.lastIndexOf(' ', cut));
  if (soft > limit / 2 && !inside(soft + 1)) return soft + 1;
  return cut;
}

function openTagsAfter(open: string[], chunk: string): string[] {
  const stack = [...open];
  for (const m of chunk.matchAll(/<(\/?)([a-zA-Z-]+)([^>]*)>/g)) {
    if (m[1]) {
      const i = stack.map((t) => t.split(' ')[0]).lastIndexOf(m[2]!);
      if (i >= 0) stack.splice(i, 1);
    } else stack.push(`${m[2]}${m[3] ?? ''}`.trim());
  }
  return stack;
}
