/**
 * The same OutMessages every channel gets, rendered for the Cloud API, each checked against Meta's
 * limits by the fake Graph API's own check: up to 3 short choices are reply buttons, up to 10 a list
 * (titles cut to 24 with the whole label as the row's description), more a numbered text menu; a
 * https link is a call-to-action button; long texts are split before the interactive message.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS, renderCloud } from '../../../src/channels/whatsapp-cloud/render/render.js';
import { templateMessage, templateParameter } from '../../../src/channels/whatsapp-cloud/render/template.js';
import type { Button, OutMessage } from '../../../src/chat/types.js';
import { loadI18n } from '../../../src/i18n/index.js';
import { checkMessage } from '../../fakes/whatsapp-graph-api.js';

const i18n = loadI18n();
const label = (s: string) => ({ id: 'core-x', args: { s } });
/** A translator where `core-x` prints its argument, so labels are exactly what the test says. */
const t = {
  t: (l: 'en' | 'sw', text: { id: string; args?: Record<string, string | number> }) =>
    text.id === 'core-x' ? String(text.args?.s) : i18n.t(l, text),
};
const choice = (id: string, s: string): Button => ({ id, label: label(s) });
const valid = (parts: ReturnType<typeof renderCloud>['parts']) =>
  parts.map((p) => checkMessage({ messaging_product: 'whatsapp', to: '254712345678', ...p }));

describe('rendering for the Cloud API', () => {
  it('up to three short choices are reply buttons carrying the same ids', () => {
    const r = renderCloud(
      {
        texts: [label('Confirm your order?')],
        buttons: [[choice('buy:confirm:1', '✅ Confirm')], [choice('nav:cancel', 'Cancel')]],
      },
      'en',
      t,
    );
    expect(valid(r.parts)).toEqual([undefined]);
    expect(r.parts).toHaveLength(1);
    expect(r.parts[0]).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Confirm your order?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'buy:confirm:1', title: '✅ Confirm' } },
            { type: 'reply', reply: { id: 'nav:cancel', title: 'Cancel' } },
          ],
        },
      },
    });
    expect(r.interactive).toBe(true);
    expect(r.menu).toMatchObject({
      labelsOnly: true,
      items: [{ id: 'buy:confirm:1' }, { id: 'nav:cancel' }],
    });
  });

  it('a choice too long for a button, or a fourth one, makes a list; long titles are cut and kept whole in the description', () => {
    const long = 'Use my number 0712 345 678 for M-Pesa';
    const r = renderCloud(
      {
        texts: [label('Which number?')],
        buttons: [[choice('buy:phone:saved', long)], [choice('buy:phone:other', 'Another number')]],
      },
      'sw',
      t,
    );
    expect(valid(r.parts)).toEqual([undefined]);
    const list = r.parts[0]!.interactive as {
      type: string;
      action: {
        button: string;
        sections: { title: string; rows: { id: string; title: string; description?: string }[] }[];
      };
    };
    expect(list.type).toBe('list');
    expect(list.action.button).toBe(i18n.t('sw', { id: 'wa-cloud-list-button' }));
    expect(list.action.sections[0]!.title).toBe(i18n.t('sw', { id: 'wa-cloud-list-section' }));
    const [first, second] = list.action.sections[0]!.rows;
    expect(first!.title.length).toBeLessThanOrEqual(LIMITS.rowTitle);
    expect(first!.title.endsWith('…')).toBe(true);
    expect(first!.description).toBe(long);
    expect(second).toEqual({ id: 'buy:phone:other', title: 'Another number' });

    const four = renderCloud(
      { texts: [label('Token?')], buttons: [['A', 'B', 'C', 'D'].map((x) => choice(`tok:${x}`, x))] },
      'en',
      t,
    );
    expect(valid(four.parts)).toEqual([undefined]);
    expect((four.parts[0]!.interactive as { type: string }).type).toBe('list');
  });

  it('more than ten choices fall back to a numbered text menu that numbers answer', () => {
    const items = Array.from({ length: 12 }, (_, i) => choice(`net:${i}`, `Network ${i}`));
    const r = renderCloud({ texts: [label('Network?')], buttons: items.map((b) => [b]) }, 'en', t);
    expect(valid(r.parts)).toEqual([undefined]);
    expect(r.parts[0]!.type).toBe('text');
    const body = (r.parts[0]!.text as { body: string }).body;
    expect(body).toContain('*1.* Network 0');
    expect(body).toContain('*12.* Network 11');
    expect(body).toContain(i18n.t('en', { id: 'wa-menu-hint' }));
    expect(r.menu?.labelsOnly).toBeUndefined();
    expect(r.interactive).toBe(false);
  });

  it('a https link is a call-to-action button; with choices too, the choices follow in their own message', () => {
    const url = 'https://polygonscan.com/tx/0xabc';
    const r = renderCloud(
      {
        texts: [label('Done! Your tokens are on their way.')],
        buttons: [
          [{ id: 'explorer:D-1', label: label('🔍 View on the block explorer'), url }],
          [choice('menu:buy:again', 'Buy again')],
        ],
        notice: true,
      },
      'en',
      t,
    );
    expect(valid(r.parts)).toEqual([undefined, undefined]);
    expect(r.parts[0]).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        body: { text: 'Done! Your tokens are on their way.' },
        action: { name: 'cta_url', parameters: { url } },
      },
    });
    const cta = r.parts[0]!.interactive as { action: { parameters: { display_text: string } } };
    expect([...cta.action.parameters.display_text].length).toBeLessThanOrEqual(LIMITS.ctaText);
    expect(r.parts[1]).toMatchObject({
      interactive: { type: 'button', body: { text: i18n.t('en', { id: 'wa-cloud-choose' }) } },
    });
    // A notice's choices are kept apart from the question's.
    expect(r.menu?.lettered).toBe(true);
    expect(r.summary).toContain(url);
  });

  it('a plain http link (local mode) is a line of text, never a link button', () => {
    const r = renderCloud(
      {
        texts: [label('Sign here')],
        buttons: [[{ id: 'sell:link:page', label: label('Open'), url: 'http://127.0.0.1:8080/sign/x' }]],
      },
      'en',
      t,
    );
    expect(r.parts).toEqual([
      {
        type: 'text',
        text: { body: 'Sign here\n\n🔗 Open: http://127.0.0.1:8080/sign/x', preview_url: false },
      },
    ]);
  });

  it('a text longer than an interactive body goes first, in texts of at most 4096 characters', () => {
    const paragraph = 'x'.repeat(3000);
    const r = renderCloud(
      { texts: [label(paragraph), label(paragraph), label('Choose:')], buttons: [[choice('a', 'A')]] },
      'en',
      t,
    );
    expect(valid(r.parts)).toEqual([undefined, undefined, undefined]);
    expect(r.parts.map((p) => p.type)).toEqual(['text', 'text', 'interactive']);
    expect((r.parts[2]!.interactive as { body: { text: string } }).body.text).toBe('Choose:');
  });

  it('the template carries the update on one line, as Meta requires of a parameter', () => {
    const summary = 'Done!\nYou got 3.86 USDT.\n\n\tReceipt:     ABC';
    expect(templateParameter(summary)).toBe('Done! · You got 3.86 USDT. · Receipt: ABC');
    expect([...templateParameter('y'.repeat(5000))].length).toBe(800);
    const m = templateMessage({ name: 'rampchat_update', languages: { en: 'en', sw: 'sw' } }, 'sw', summary);
    expect(checkMessage({ messaging_product: 'whatsapp', to: '254712345678', ...m })).toBeUndefined();
    expect(m).toMatchObject({ template: { name: 'rampchat_update', language: { code: 'sw' } } });
  });

  it('a real flow message renders within the limits in both languages', () => {
    for (const locale of ['en', 'sw'] as const) {
      const message: OutMessage = {
        texts: [{ id: 'buy-ask-amount' }],
        buttons: [
          [
            { id: 'buy:amt:500', label: { id: 'core-menu-buy' } },
            { id: 'buy:amt:1000', label: { id: 'core-menu-quote' } },
          ],
          [{ id: 'nav:cancel', label: { id: 'core-menu-history' } }],
        ],
      };
      expect(valid(renderCloud(message, locale, i18n).parts)).toEqual([undefined]);
    }
  });
});

describe("labels within Meta's limits counted as Meta counts them, in UTF-16 units (#25)", () => {
  it('"🧪 Sign with the dev wallet" in a list row is cut to 24 UTF-16 units, not 24 code points', () => {
    for (const locale of ['en', 'sw'] as const) {
      const sign = i18n.t(locale, { id: 'sell-button-devsign' });
      const r = renderCloud(
        {
          texts: [label('Sign')],
          buttons: [
            [{ id: 'sell:devsign', label: { id: 'sell-button-devsign' } }],
            [choice('a', 'A')],
            [choice('b', 'B')],
            [choice('c', 'C')],
          ],
        },
        locale,
        t,
      );
      expect(valid(r.parts)).toEqual([undefined]);
      const rows = (
        r.parts[0]!.interactive as {
          action: { sections: { rows: { title: string; description?: string }[] }[] };
        }
      ).action.sections[0]!.rows;
      expect(rows[0]!.title.length).toBeLessThanOrEqual(LIMITS.rowTitle);
      if (sign.length > LIMITS.rowTitle) {
        expect(rows[0]!.title.startsWith('🧪 ')).toBe(true);
        expect(rows[0]!.title.endsWith('…')).toBe(true);
        expect(rows[0]!.description).toBe(sign);
      }
    }
  });

  it('a label of 20 code points but 21 UTF-16 units is no reply button; cuts never split an emoji', () => {
    const emoji = '🧪 Thibitisha malipo!'; // 20 code points, 21 UTF-16 units
    expect([...emoji].length).toBe(20);
    const r = renderCloud({ texts: [label('?')], buttons: [[choice('x', emoji)]] }, 'sw', t);
    expect(valid(r.parts)).toEqual([undefined]);
    expect((r.parts[0]!.interactive as { type: string }).type).toBe('list');
    // Emoji at the cut: the title ends with a whole character before the mark.
    const packed = `${'🎉'.repeat(15)}`;
    const cut = renderCloud({ texts: [label('?')], buttons: [[choice('y', packed)]] }, 'en', t);
    expect(valid(cut.parts)).toEqual([undefined]);
    const title = (cut.parts[0]!.interactive as { action: { sections: { rows: { title: string }[] }[] } })
      .action.sections[0]!.rows[0]!.title;
    expect(title).toBe(`${'🎉'.repeat(11)}…`);
    expect(title.length).toBe(23);
  });

  it('every button label of both languages renders within the limits the fake checks', () => {
    for (const locale of ['en', 'sw'] as const) {
      const ids = i18n.ids(locale).filter((id) => /-button(-|$)/.test(id) && !/-hint$/.test(id));
      for (const id of ids) {
        const one: Button = {
          id: 'x:1',
          label: {
            id,
            args: {
              address: '0x52908…9ee7',
              phone: '+254 712 345 678',
              s: 'x',
              amount: 'KES 1,000.00',
              network: 'Polygon',
              token: 'USDT',
            },
          },
        };
        for (const buttons of [
          [[one]],
          [[one], [choice('a', 'A')], [choice('b', 'B')], [choice('c', 'C')]],
        ]) {
          const r = renderCloud({ texts: [label('?')], buttons }, locale, t);
          expect({ id, locale, problems: valid(r.parts) }).toEqual({
            id,
            locale,
            problems: r.parts.map(() => undefined),
          });
        }
        const url = renderCloud(
          { texts: [label('?')], buttons: [[{ ...one, url: 'https://polygonscan.com/tx/0xabc' }]] },
          locale,
          t,
        );
        expect({ id, locale, problems: valid(url.parts) }).toEqual({
          id,
          locale,
          problems: url.parts.map(() => undefined),
        });
      }
    }
  });
});
