/**
 * After a buy's final message, the chat no longer says the order is waiting for payment: the
 * tracker tells the conversation the order is over and the buy flow returns to the menu. Typed
 * into the terminal chat of the whole app (sandbox over HTTP, in-memory state).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { loadI18n } from '../../src/i18n/index.js';
import { waitFor } from '../helpers/wait.js';

const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

describe('after the order is done', () => {
  it('a typed "thanks" is not told the order is still waiting for payment', async () => {
    const config = loadConfig({
      HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      SANDBOX_SETTLE_MS: '100',
      POLL_INTERVAL_MS: '100',
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (d) => {
      printed += String(d);
    });
    const app = await startApp(config, { stdin, stdout, terminal: { TERMINAL_LOCALE: 'en' } });
    const i18n = loadI18n();
    const waiting = /is waiting for your M-Pesa payment/;
    expect(i18n.t('en', { id: 'buy-awaiting', args: { orderId: 'X' } })).toMatch(waiting);
    try {
      stdin.write(`/buy 500 KES USDT polygon ${WALLET} 0712345678\n`);
      await waitFor('the summary', () => /Confirm/.test(printed));
      stdin.write('1\n');
      await waitFor('the final message', () => printed.includes('🎉 Done!'), 30_000);
      // Before the tracker's word reaches the flow, the buy still waits; give it its moment.
      await new Promise((r) => setTimeout(r, 300));
      const before = printed.length;
      stdin.write('thanks\n');
      await waitFor('a reply', () => printed.length > before);
      await new Promise((r) => setTimeout(r, 200));
      expect(printed.slice(before)).not.toMatch(waiting);
    } finally {
      stdin.end();
      await app.stop();
    }
  }, 60_000);
});
