/**
 * Help shows the whole product: every command a flow of the app's table answers to (sell, support
 * and ticket included) and every command in Telegram's command menu is named in /help, in English
 * and Kiswahili; the welcome says the bot buys and sells, with prices, history and support.
 */
import { describe, expect, it } from 'vitest';
import { FLOW_DEFS } from '../../src/app/flows.js';
import { DEFAULT_COMMANDS } from '../../src/channels/telegram/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { Driver } from './helpers.js';

const i18n = loadI18n();

describe('/help', () => {
  it('names a command of every flow that has one, and every Telegram menu command, in both languages', () => {
    const d = new Driver();
    const out = d.command('help');
    const ids = out.sends.flatMap((m) => m.texts.map((t) => t.id));
    expect(ids).toContain('help-commands');
    const wanted = new Set<string>(DEFAULT_COMMANDS.filter((c) => c !== 'start' && c !== 'help'));
    for (const def of FLOW_DEFS) {
      if (def.name !== 'help' && def.commands?.length) wanted.add(def.commands[0]!);
    }
    wanted.add('language');
    expect([...wanted]).toEqual(expect.arrayContaining(['sell', 'support', 'ticket']));
    for (const locale of ['en', 'sw'] as const) {
      // Every commands paragraph /help sends (a capability may add its own, e.g. help-commands-alerts).
      const shown = out.sends
        .flatMap((m) => m.texts)
        .filter((t) => t.id.startsWith('help-commands'))
        .map((t) => i18n.t(locale, t))
        .join('\n');
      for (const command of wanted)
        expect(shown, `${locale}: /${command}`).toMatch(new RegExp(`/${command}\\b`));
    }
  });

  it('the welcome and the help say what the bot does: buy and sell with M-Pesa, prices, history, support', () => {
    const words = {
      en: [/buy and sell/i, /M-Pesa/, /price/i, /past orders/i, /person/i],
      sw: [/nunua na uza|kununua na kuuza/i, /M-Pesa/, /bei/i, /oda zako za awali/i, /mtu/i],
    };
    for (const locale of ['en', 'sw'] as const) {
      for (const id of ['core-welcome', 'help-intro']) {
        const shown = i18n.t(locale, { id });
        for (const w of words[locale]) expect(shown, `${locale} ${id}`).toMatch(w);
      }
    }
  });
});
