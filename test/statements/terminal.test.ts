/**
 * A statement in the terminal chat (the whole app, sandbox over HTTP, in-memory state): a terminal
 * cannot show a file, so both are written to a temp folder and their paths printed, PDF first.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { loadConfig } from '../../src/config/env.js';
import { waitFor } from '../helpers/wait.js';
import { csvRows } from './read.js';

const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

describe('/statement in the terminal', () => {
  it('writes the PDF and the CSV to files and prints where they are', async () => {
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
    try {
      stdin.write(`/buy 500 KES USDT polygon ${WALLET} 0712345678\n`);
      await waitFor('the summary', () => /Confirm/.test(printed));
      stdin.write('1\n');
      await waitFor('the final message', () => printed.includes('🎉 Done!'), 30_000);
      stdin.write('/statement\n');
      await waitFor('two files', () => [...printed.matchAll(/File saved: (\S+)/g)].length >= 2, 15_000);
      const [pdf, csv] = [...printed.matchAll(/File saved: (\S+)/g)].map((m) => m[1]!);
      expect(pdf).toMatch(/statement-\d{4}-\d\d\.pdf$/);
      expect(readFileSync(pdf!).subarray(0, 5).toString()).toBe('%PDF-');
      expect(csv).toMatch(/statement-\d{4}-\d\d\.csv$/);
      expect(csvRows(readFileSync(csv!))[0]![1]).toBe('Order ID');
    } finally {
      stdin.end();
      await app.stop();
    }
  }, 60_000);
});
