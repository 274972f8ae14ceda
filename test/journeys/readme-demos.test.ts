/**
 * The README's demos, in sequence, as a person tries them on a fresh clone: `npm start` (a real
 * process, no settings), the `/buy` example with Confirm, then the sell demo with Confirm and the dev
 * wallet. Both must end with their final messages: the buy's transaction hash, the sale's receipt.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function npmStart(lines: string[]) {
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HTTP_PORT: '0',
        SANDBOX_SETTLE_MS: '300',
        TERMINAL_EOF_GRACE_MS: '5000',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

describe("the README's demos", () => {
  it('the /buy example then the sell demo both complete, in one session', async () => {
    const buy = /\n\s+(\/buy [^\n]+)\n/.exec(README)?.[1];
    const sell = /A whole sell runs offline:\s*`([^`]+)`/.exec(README)?.[1];
    expect(buy, 'the README shows a /buy example').toBeDefined();
    expect(sell, 'the README shows the sell demo').toBeDefined();

    const { code, stdout } = await npmStart([buy!, '1', sell!, '1', '1']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/🎉 Done! .*sent [\d.]+ USDT/);
    expect(stdout).toMatch(/Transaction: 0x[0-9a-f]{64}/);
    expect(stdout).toMatch(/Order WD-[\w-]+ is filed/);
    expect(stdout).toMatch(/✅ KES 1,000\.00 sent to .*M-Pesa receipt: \w{10}/);
    expect(stdout).not.toContain('another wallet');
  }, 60_000);

  it('the Algorand sale completes offline too, on the local stand-in', async () => {
    const algorand = /Algorand works offline[\s\S]*?`(\/sell [^`]+algorand[^`]*)`/.exec(README)?.[1];
    expect(algorand, 'the README shows the Algorand demo').toBeDefined();
    const { code, stdout } = await npmStart([algorand!, '1', '1']);
    expect(code).toBe(0);
    expect(stdout).toContain('Send exactly');
    expect(stdout).toMatch(/Order WD-[\w-]+ is filed/);
    expect(stdout).toMatch(/✅ KES 1,000\.00 sent to .*M-Pesa receipt: \w{10}/);
    expect(stdout).not.toContain('cannot be sold on Algorand');
  }, 60_000);
});
