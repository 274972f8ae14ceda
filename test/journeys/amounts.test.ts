/**
 * Amounts as a person types them, through `npm start`'s terminal chat (a real process, the in-process
 * sandbox): out-of-range amounts are refused at the step where they are typed, with the user's own
 * figure and the range, in their language; the ramp's English never reaches the chat; amount words
 * people use ("5k", "500 bob", "ksh2,500") read as shillings.
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

describe('amounts in the terminal chat', () => {
  it('refuses out-of-range amounts where they are typed, quoting the user their own figure (English)', async () => {
    const out = await chat([
      `/sell 6 KES USDT polygon 0712345678`,
      '/cancel',
      'Buy',
      '10001',
      '/cancel',
      `/buy 5k USDT polygon ${WALLET} 0712345678`,
      '/cancel',
      `/buy 500 bob USDT polygon ${WALLET} 0712345678`,
    ]);
    expect(out).toContain(
      'You can receive from KES 9 to KES 29,984 per sale (the fee, KES 16 at the top, comes on top), so KES 6 is not possible.',
    );
    expect(out).toContain('You can buy from KES 1 to KES 10,000, so KES 10,001 is not possible.');
    expect(out).toMatch(/You pay:? KES 5,0\d\d/);
    expect(out).toMatch(/You pay:? KES 50\d/);
    expect(out).not.toMatch(/service refused this:|Amount out of range|got \d/);
  });

  it('says the same in Kiswahili, and a refused token amount is said in Kiswahili too', async () => {
    const out = await chat(
      ['/sell 6 KES USDT polygon 0712345678', '/cancel', '/sell 0.01 USDT polygon 0712345678'],
      { LANG: 'sw_KE.UTF-8' },
    );
    expect(out).toContain('Unaweza kupokea kuanzia KSh 9 hadi KSh 29,984 kwa mauzo moja');
    // Said in the user's unit and in KES against the limit (not the generic range).
    expect(out).toContain(
      '0.01 USDT ni takriban KSh 1.00 kwa bei ya leo, chini ya kiwango cha chini cha KSh 9.00',
    );
    expect(out).not.toMatch(/Amount out of range|Amount must be between/);
  });
});

describe('what the user named', () => {
  it('is used or refused with the reason and asked again, never replaced by another network', async () => {
    const out = await chat(['/sell 1000 KES USDT algorand 0712345678', '/cancel', '/buy 500 cKES polygon']);
    expect(out).toContain('USDT cannot be sold on Algorand.\nOn which network are your USDT?');
    expect(out).toContain('cKES is not available on Polygon.\nOn which network do you want your cKES?');
    expect(out).not.toContain('Please check your sale');
    expect(out).not.toContain('Send the Celo wallet address');
  });
});

describe('wallet addresses', () => {
  it('an Algorand address with a bad checksum gets the Algorand explanation (not the EVM capitals one)', async () => {
    const broken = 'XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOA';
    const out = await chat([`/buy 500 USDC algorand ${broken} 0712345678`]);
    expect(out).toContain(`The Algorand address ${broken} does not check out`);
    expect(out).not.toContain('capital letters');
  });

  it('cancelling a sale: one menu, last ("The sale is cancelled… [1] Main menu"), so a typed 1 opens it', async () => {
    const out = await chat(['/sell 1000 KES USDT polygon 0712345678', '1', '/cancel', '1']);
    const after = out.slice(out.lastIndexOf('Cancelling the sale'));
    expect(after).toMatch(/^Cancelling the sale…\n+The sale is cancelled[^\n]*\n\[1\] 🏠 Main menu/);
    // No main menu between the cancel and its outcome; the "1" then opens the main menu.
    const between = after.slice(0, after.indexOf('The sale is cancelled'));
    expect(between).not.toContain('What would you like to do?');
    expect(after.slice(after.indexOf('[1] 🏠 Main menu'))).toContain('What would you like to do?');
  });
});
