/**
 * Through `npm start`'s terminal chat (a real process, the in-process sandbox), as a user would type
 * it (#25): a second STK push to a number whose first order never settles (ending 0002) says why no
 * prompt may appear; "menu" while a sale's link is live mentions the sale with its link and a way to
 * cancel it; Sell started again while it is live offers to continue or cancel it.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const WALLET = '0x52908400098527886e0f7030069857d2e4169ee7';

function chat(lines: string[], env: Record<string, string> = {}) {
  return new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', HTTP_PORT: '0', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.on('close', () => resolve(stdout));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

describe('a live sale and a waiting number, in the terminal chat', () => {
  it('says so, in English', async () => {
    const out = await chat([
      `/buy 500 USDT polygon ${WALLET} 0712340002`,
      '1',
      `/buy 600 USDT polygon ${WALLET} 0712340002`,
      '1',
      '/sell 1000 KES USDT polygon 0712345678',
      '1',
      'menu',
      '/sell',
    ]);
    const [, first] = /Order (D-[\w-]+): an M-Pesa prompt/.exec(out) ?? [];
    expect(first).toBeDefined();
    // Only the second push hears of the first order, by its number.
    expect(out.match(/You already have an order waiting for payment on this number/g)).toHaveLength(1);
    expect(out).toContain(`You already have an order waiting for payment on this number (order ${first})`);
    const link = /sign: (http:\/\/\S+\/sign\/\S+)/.exec(out)?.[1];
    expect(link).toBeDefined();
    // "menu": the live sale, its link, Continue and Cancel first.
    expect(out).toContain(
      `💸 Your sale of 7.76834 USDT is still open: send the tokens with the link ${link}`,
    );
    expect(out).toMatch(
      /still open[^\n]*\nWhat would you like to do\?\n\[1\] ▶️ Continue the sale\n\[2\] ✖️ Cancel the sale\n\[3\] 🛒 Buy crypto/,
    );
    // "/sell" again: not a second sale without a word.
    expect(out).toContain('You already have a sale waiting for your tokens (7.76834 USDT, link:');
    expect(out.match(/Please check your sale:/g)).toHaveLength(1);
  });

  it('says so, in Kiswahili', async () => {
    const out = await chat(
      [
        `/nunua 500 USDT polygon ${WALLET} 0712340002`,
        '1',
        `/nunua 600 USDT polygon ${WALLET} 0712340002`,
        '1',
        '/uza 1000 KES USDT polygon 0712345678',
        '1',
        'menyu',
        '/uza',
      ],
      { LANG: 'sw_KE.UTF-8' },
    );
    expect(out.match(/Tayari una oda inayosubiri malipo kwenye nambari hii \(oda D-/g)).toHaveLength(1);
    expect(out).toMatch(/💸 Mauzo yako ya 7\.76834 USDT bado yako wazi: tuma tokeni kwa kiungo http/);
    expect(out).toContain('▶️ Endelea na mauzo');
    expect(out).toContain('Tayari una mauzo yanayosubiri tokeni zako (7.76834 USDT, kiungo:');
  });
});
