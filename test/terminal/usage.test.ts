/**
 * `npm start -- --help` lists every command the chat knows: each command /help names and each one
 * in Telegram's command menu, in both languages (it had left out /save, /savings, /alert, /alerts).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMMANDS } from '../../src/channels/telegram/index.js';
import { loadI18n } from '../../src/i18n/index.js';

const i18n = loadI18n();
const commandsIn = (text: string) => new Set(text.match(/\/[a-z]+/g) ?? []);

describe('npm start -- --help', () => {
  for (const locale of ['en', 'sw'] as const) {
    it(`names every command of /help and of the command menu (${locale})`, () => {
      const usage = commandsIn(i18n.t(locale, { id: 'terminal-usage' }));
      const help = [
        ...commandsIn(i18n.t(locale, { id: 'help-commands' })),
        ...commandsIn(i18n.t(locale, { id: 'help-commands-alerts' })),
        ...DEFAULT_COMMANDS.map((c) => `/${c}`),
      ];
      const missing = help.filter((c) => !usage.has(c));
      expect(missing).toEqual([]);
    });
  }
});
