/**
 * Settings at the boundary: every bad value is refused by name before anything starts, with exit 2
 * from `npm start`; an empty value means "not set" (as in a `.env` with `NAME=`).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('refuses a port out of range, naming it', () => {
    expect(issuesOf({ HTTP_PORT: '99999' })).toEqual([expect.stringMatching(/^HTTP_PORT: /)]);
    expect(issuesOf({ SANDBOX_PORT: '65536' })).toEqual([expect.stringMatching(/^SANDBOX_PORT: /)]);
    expect(loadConfig({ HTTP_PORT: '65535' }).HTTP_PORT).toBe(65535);
  });

  it('reads an empty value as unset: the default, not 0 or an invalid URL', () => {
    const config = loadConfig({
      HTTP_PORT: '',
      REDIS_URL: '',
      PUBLIC_URL: '',
      TELEGRAM_WEBHOOK_SECRET: '',
      POLL_INTERVAL_MS: '',
    });
    expect(config.HTTP_PORT).toBe(8080);
    expect(config.POLL_INTERVAL_MS).toBe(5000);
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.PUBLIC_URL).toBeUndefined();
    expect(config.TELEGRAM_WEBHOOK_SECRET).toBeUndefined();
  });

  it('refuses settings that need a partner, naming the missing one', () => {
    expect(issuesOf({ RAMP_BASE_URL: 'https://ramp.example.com', RAMP_API_KEY: 'k' })).toEqual([
      expect.stringMatching(/^RAMP_API_SECRET: .*RAMP_BASE_URL/),
    ]);
    expect(issuesOf({ RAMP_BASE_URL: 'https://ramp.example.com' })).toHaveLength(2);
    expect(
      issuesOf({ TELEGRAM_BOT_TOKEN: '1:abc', TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/hook' }),
    ).toEqual([expect.stringMatching(/^TELEGRAM_WEBHOOK_SECRET: .*TELEGRAM_WEBHOOK_URL/)]);
    expect(
      issuesOf({
        TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/hook',
        TELEGRAM_WEBHOOK_SECRET: 's'.repeat(32),
      }),
    ).toEqual([expect.stringMatching(/^TELEGRAM_BOT_TOKEN: .*TELEGRAM_WEBHOOK_URL/)]);
    // A guessable secret is refused by name: at least 32 characters.
    expect(
      issuesOf({
        TELEGRAM_BOT_TOKEN: '1:abc',
        TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/hook',
        TELEGRAM_WEBHOOK_SECRET: 'short_secret',
      }),
    ).toEqual([expect.stringMatching(/^TELEGRAM_WEBHOOK_SECRET: 32-256 characters/)]);
  });

  it('never echoes a secret value in its message', () => {
    const err = (() => {
      try {
        loadConfig({ RAMP_BASE_URL: 'https://ramp.example.com', RAMP_API_KEY: 'key-Zq81' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toContain('RAMP_API_SECRET');
    expect(err?.message).not.toContain('key-Zq81');
  });
});

function runMain(env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', HTTP_PORT: '0', ...env },
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
    child.stdin.end('');
  });
}

describe('npm start with wrong settings', () => {
  it.each([
    [{ HTTP_PORT: '99999' }, 'HTTP_PORT'],
    [{ RAMP_BASE_URL: 'https://ramp.example.com' }, 'RAMP_API_KEY'],
    [
      { TELEGRAM_BOT_TOKEN: '1:abc', TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/hook' },
      'TELEGRAM_WEBHOOK_SECRET',
    ],
  ])('%o exits 2 naming %s, before starting anything', async (env, name) => {
    const r = await runMain(env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${name}: `);
    expect(r.stderr).not.toContain('"level"');
    expect(r.stdout).toBe('');
  });
});
