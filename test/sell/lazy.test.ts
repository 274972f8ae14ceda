/**
 * Selling loads on first use: a local start runs no dev chain until someone sells, then starts it,
 * says so in the terminal, and the sell goes on as before. The stubs cover every sell effect and the
 * signing paths, so nothing reaches a missing handler.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import type { Engine } from '../../src/engine/index.js';
import { loadI18n } from '../../src/i18n/index.js';
import { registerSellEffects } from '../../src/sell/effects.js';
import type { SellService } from '../../src/sell/index.js';
import { SELL_EFFECT_TYPES, SIGNING_PATH, WALLETCONNECT_PATH } from '../../src/sell/lazy.js';
import { signingRoutes } from '../../src/signing/routes.js';
import { WALLETCONNECT_PATH as SERVED_WALLETCONNECT_PATH } from '../../src/signing/walletconnect.js';
import { waitFor } from '../helpers/wait.js';

/** The app in local mode with its terminal chat; `printed()` is everything it wrote so far. */
async function terminalApp() {
  const config = loadConfig({ HTTP_PORT: '0', LOG_LEVEL: 'silent' });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (d) => {
    printed += String(d);
  });
  const app = await startApp(config, { stdin, stdout, terminal: { TERMINAL_LOCALE: 'en' } });
  return { app, stdin, printed: () => printed };
}

describe('selling on first use', () => {
  it('stubs exactly the effects selling registers, and the paths it serves', () => {
    const types: string[] = [];
    const recording = { registerEffect: (type: string) => void types.push(type) } as unknown as Engine;
    registerSellEffects(recording, {} as SellService);
    expect([...types].sort()).toEqual([...SELL_EFFECT_TYPES].sort());
    const routes = signingRoutes({
      service: {} as SellService,
      i18n: loadI18n(),
      logger: { child: () => ({}) } as never,
    });
    expect(routes.map((r) => r.path)).toEqual([SIGNING_PATH]);
    expect(WALLETCONNECT_PATH).toBe(SERVED_WALLETCONNECT_PATH);
  });

  it('starts the dev chain at the first sell, says so, and the sell goes on', async () => {
    const { app, stdin, printed } = await terminalApp();
    try {
      const i18n = loadI18n();
      expect(app.sellDemo?.started).toBe(false);
      stdin.write('/start\n');
      await waitFor('the welcome', () => printed().includes(i18n.t('en', { id: 'terminal-welcome' })));
      // A buy quote and the menu do not start it.
      stdin.write('/quote 500 USDT polygon\n');
      await waitFor('the quote', () => /KES/.test(printed()));
      expect(app.sellDemo?.started).toBe(false);

      stdin.write('/sell\n');
      await waitFor('the dev chain', () => app.sellDemo?.started === true, 30_000);
      expect(printed()).toContain(i18n.t('en', { id: 'terminal-devchain-starting' }));
      // The sell flow asks for the token next, as it did when the chain started with the app.
      const said = printed().indexOf(i18n.t('en', { id: 'terminal-devchain-starting' }));
      await waitFor('the next sell question', () => /USDT/.test(printed().slice(said)));
    } finally {
      stdin.end();
      await app.stop();
    }
  }, 60_000);

  it('the first sale asks its questions while the chain starts; only the link waits for it', async () => {
    const { app, stdin, printed } = await terminalApp();
    try {
      const i18n = loadI18n();
      const summary = i18n.t('en', { id: 'sell-summary-title' });
      stdin.write('/sell 1000 KES USDT polygon 0712345678\n');
      await waitFor('the summary', () => printed().includes(summary), 30_000);
      // Loading hardhat takes seconds: the summary came before the chain was up.
      expect(app.sellDemo?.started).toBe(false);
      stdin.write('1\n');
      await waitFor('the signing link', () => /\/sign\/[A-Za-z0-9_-]{22,}/.test(printed()), 30_000);
      expect(app.sellDemo?.started).toBe(true);
    } finally {
      stdin.end();
      await app.stop();
    }
  }, 60_000);
});
