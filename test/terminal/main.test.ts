/** `npm start` as a process: settings are checked first, and a piped script ends with exit 0. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function runMain(env: Record<string, string>, stdin: string, args: string[] = []) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
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

  it('prints no JSON log line into the terminal chat when LOG_LEVEL is not set (warnings stay out)', async () => {
    const r = await runMain(
      { LOG_LEVEL: '', HTTP_PORT: '0', SANDBOX_SETTLE_MS: '50' },
      '/buy 500 USDT polygon\n',
    );
    expect(r.code).toBe(0);
    // "REDIS_URL is not set…" is a warning: the banner's "State: in memory" line says it in the chat.
    expect(r.stderr).not.toContain('{');
    expect(r.stderr).not.toContain('REDIS_URL is not set');
    expect(r.stdout).not.toContain('"level"');
    expect(r.stdout).toContain('State: in memory');
  });

  it('LOG_FILE takes the logs (info and up) into a file, out of the terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampchat-log-'));
    const file = join(dir, 'logs', 'rampchat.log');
    const r = await runMain({ LOG_LEVEL: '', LOG_FILE: file, HTTP_PORT: '0' }, '/menu\n');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages.some((m) => m.startsWith('REDIS_URL is not set'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('--help prints the usage and exits 0 without starting the chat', async () => {
    const r = await runMain({}, '/menu\n', ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: npm start');
    for (const command of ['/buy', '/sell', '/support', '/ticket', '/language'])
      expect(r.stdout).toContain(command);
    expect(r.stdout).toContain('.env.example');
    // The chat never started: no banner, no menu.
    expect(r.stdout).not.toContain('State:');
    expect(r.stdout).not.toContain('What would you like to do?');
    const sw = await runMain({ LANG: 'sw_KE.UTF-8' }, '', ['-h']);
    expect(sw.code).toBe(0);
    expect(sw.stdout).toContain('Matumizi: npm start');
    const unknown = await runMain({}, '', ['--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--bogus');
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
    expect(r.stdout).toMatch(/Huduma ya ramp: ya majaribio, ya ndani, kwenye http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toMatch(/Oda D-[\w-]+: ombi la malipo la M-Pesa linatumwa kwa \+254 712 345 678\./);
  });
});
