/** `npm start` as a process: settings are checked first, and a piped script ends with exit 0. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function runMain(env: Record<string, string>, stdin: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('src/main.ts', () => {
  it('exits non-zero naming each bad setting', async () => {
    const r = await runMain({ SANDBOX_SETTLE_MS: 'soon', RATE_TOLERANCE_PCT: '200' }, '');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SANDBOX_SETTLE_MS');
    expect(r.stderr).toContain('RATE_TOLERANCE_PCT');
    expect(r.stdout).toBe('');
  });

  it('logs only warnings and worse, to stderr, when LOG_LEVEL is not set: the chat is not interleaved', async () => {
    const r = await runMain(
      { LOG_LEVEL: '', HTTP_PORT: '0', SANDBOX_SETTLE_MS: '50' },
      '/buy 500 USDT polygon\n',
    );
    expect(r.code).toBe(0);
    const logs = r.stderr.split('\n').filter((l) => l.startsWith('{'));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.map((l) => (JSON.parse(l) as { level: number }).level).every((level) => level >= 40)).toBe(
      true,
    );
    expect(r.stdout).not.toContain('"level"');
  });

  it('stops cleanly on SIGTERM: exit 0, saying so', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', HTTP_PORT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    for (let i = 0; i < 200 && !stdout.includes('State:'); i++) await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toContain('SIGTERM received, stopping');
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('runs a piped chat against the in-process sandbox and exits 0 at the end of input', async () => {
    const r = await runMain(
      { SANDBOX_SETTLE_MS: '50', LANG: 'sw_KE.UTF-8' },
      '/buy 500 USDT polygon\n0x52908400098527886e0f7030069857d2e4169ee7\n0712345678\n1\n',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Huduma ya ramp: sandbox ya ndani kwenye http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toMatch(/Oda D-[\w-]+: ombi la malipo la M-Pesa linatumwa kwa \+254 712 345 678\./);
  });
});
