/**
 * A number means what the question on screen asks (the whole app in terminal mode, and WhatsApp's
 * menu rendering): a notice that arrives mid-flow (the tracker, support) shows its choices lettered
 * and does not replace the question's numbered ones, so "2" typed at the amount step is still the
 * amount step's second choice; "A" picks the notice's choice.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { chooseFromMenu, renderMessage } from '../../src/channels/whatsapp/index.js';
import type { OutMessage } from '../../src/chat/types.js';
import { loadConfig } from '../../src/config/env.js';
import { loadI18n } from '../../src/i18n/index.js';

const notice: OutMessage = {
  texts: [{ id: 'core-error-unavailable' }],
  buttons: [[{ id: 'menu:history', label: { id: 'core-menu-history' } }]],
};

describe('numbered menus keep their meaning when a notice arrives', () => {
  it('terminal: "1" at the amount step is KES 500, not the notice’s button; "A" is the notice’s', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (d) => {
      printed += String(d);
    });
    const app = await startApp(loadConfig({ HTTP_PORT: '0', LOG_LEVEL: 'silent' }), {
      stdin,
      stdout,
      terminal: { TERMINAL_LOCALE: 'en' },
    });
    const until = async (pattern: RegExp, from: number) => {
      for (let i = 0; i < 100 && !pattern.test(printed.slice(from)); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(printed.slice(from)).toMatch(pattern);
    };
    try {
      let mark = printed.length;
      stdin.write('Buy\n');
      await until(/\[1\] KES 500/, mark);

      mark = printed.length;
      await app.engine.notify({ channel: 'terminal', id: 'local' }, notice);
      expect(printed.slice(mark)).toContain('[A] 📜 History');
      expect(printed.slice(mark)).not.toContain('[1]');

      mark = printed.length;
      stdin.write('1\n');
      await until(/Which token do you want to buy\?/, mark);
      expect(printed.slice(mark)).not.toMatch(/history|orders/i);

      mark = printed.length;
      stdin.write('A\n');
      await until(/history|orders/i, mark);
      expect(printed.slice(mark)).not.toContain('Which token');
    } finally {
      stdin.end();
      await app.stop();
    }
  });

  it('WhatsApp: a notice is lettered and kept apart; numbers answer the question, letters the notice', () => {
    const i18n = loadI18n();
    const question = renderMessage(
      {
        texts: [{ id: 'buy-ask-amount' }],
        buttons: [
          [
            { id: 'buy:amt:500', label: { id: 'core-menu-buy' } },
            { id: 'buy:amt:1000', label: { id: 'core-menu-quote' } },
          ],
        ],
      },
      'sw',
      i18n,
    );
    const note = renderMessage({ ...notice, notice: true }, 'sw', i18n);
    expect(note.text).toContain('*A.*');
    expect(note.menu?.lettered).toBe(true);
    expect(chooseFromMenu('2', question.menu, note.menu)).toBe('buy:amt:1000');
    expect(chooseFromMenu('1', question.menu, note.menu)).toBe('buy:amt:500');
    expect(chooseFromMenu('a', question.menu, note.menu)).toBe('menu:history');
    expect(chooseFromMenu('1', note.menu, undefined)).toBeUndefined();
  });
});
