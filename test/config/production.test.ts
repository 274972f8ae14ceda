/**
 * Production refuses to start half-configured: with NODE_ENV=production every missing or unsafe
 * part is one line naming its setting, and `npm start` exits 2 before anything starts. Local mode
 * keeps needing nothing. Secrets have minimum lengths; WhatsApp without Redis is refused, not "off".
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app/start.js';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { startIssues } from '../../src/config/production.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { freePort } from '../helpers/redis-server.js';

/** `.env.example` as `cp .env.example .env` gives it (comments and blank lines out). */
const example: Record<string, string> = Object.fromEntries(
  readFileSync('.env.example', 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z_0-9]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

const COMPLETE: Record<string, string> = {
  NODE_ENV: 'production',
  RAMP_BASE_URL: 'https://api.ramp.example',
  RAMP_API_KEY: 'live-key-12345678',
  RAMP_API_SECRET: 'live-secret-0123456789abcdef',
  TELEGRAM_BOT_TOKEN: `123456789:${'A'.repeat(35)}`,
  REDIS_URL: 'redis://redis:6379',
  PUBLIC_URL: 'https://rampchat.example.com',
  METRICS_TOKEN: '3f9c1a7e5b2d8046e1c9a3b7f0d4e6a2',
  JOURNAL_KEY: 'c4e1b8a2f6d03957e8a1c6b4d2f09a73',
};

function issuesOf(env: Record<string, string>): string[] {
  try {
    return startIssues(loadConfig(env));
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
}
const names = (issues: string[]) => issues.map((i) => i.slice(0, i.indexOf(':')));
const without = (env: Record<string, string>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !keys.includes(k)));

describe('production settings', () => {
  it('.env.example copied unchanged names every missing part, one line each', () => {
    const issues = issuesOf({ ...example, NODE_ENV: 'production' });
    expect(names(issues)).toEqual([
      'RAMP_BASE_URL',
      'RAMP_API_KEY',
      'RAMP_API_SECRET',
      'TELEGRAM_BOT_TOKEN',
      'REDIS_URL',
      'PUBLIC_URL',
      'JOURNAL_KEY',
      'METRICS_TOKEN',
    ]);
    expect(issues[0]).toMatch(/RAMP_SANDBOX=1/);
  });

  it('a complete production setting passes; each part taken away is named', () => {
    expect(issuesOf(COMPLETE)).toEqual([]);
    for (const key of ['RAMP_BASE_URL', 'RAMP_API_KEY', 'RAMP_API_SECRET', 'REDIS_URL', 'PUBLIC_URL']) {
      // Without the base URL, its partners are not "required because RAMP_BASE_URL is set".
      const env = without(COMPLETE, key);
      expect(names(issuesOf(env)), key).toContain(key);
    }
    expect(names(issuesOf(without(COMPLETE, 'TELEGRAM_BOT_TOKEN')))).toEqual(['TELEGRAM_BOT_TOKEN']);
    // WhatsApp is a channel too.
    expect(issuesOf({ ...without(COMPLETE, 'TELEGRAM_BOT_TOKEN'), WHATSAPP_ENABLED: '1' })).toEqual([]);
  });

  it('runs the sandbox only when asked for by name, and never beside a real ramp', () => {
    const sandbox = {
      ...without(COMPLETE, 'RAMP_BASE_URL', 'RAMP_API_KEY', 'RAMP_API_SECRET'),
      RAMP_SANDBOX: '1',
    };
    expect(issuesOf(sandbox)).toEqual([]);
    expect(names(issuesOf({ ...COMPLETE, RAMP_SANDBOX: '1' }))).toEqual(['RAMP_SANDBOX']);
    expect(
      names(
        issuesOf({
          RAMP_BASE_URL: 'https://a.example',
          RAMP_API_KEY: 'k',
          RAMP_API_SECRET: 's',
          RAMP_SANDBOX: '1',
        }),
      ),
    ).toEqual(['RAMP_SANDBOX']);
  });

  it('wants https addresses the outside world reaches', () => {
    expect(issuesOf({ ...COMPLETE, PUBLIC_URL: 'http://rampchat.example.com' })).toEqual([
      expect.stringMatching(/^PUBLIC_URL: must be a public https address/),
    ]);
    expect(names(issuesOf({ ...COMPLETE, PUBLIC_URL: 'https://127.0.0.1:8080' }))).toEqual(['PUBLIC_URL']);
    expect(names(issuesOf({ ...COMPLETE, RAMP_BASE_URL: 'http://api.ramp.example' }))).toEqual([
      'RAMP_BASE_URL',
    ]);
    expect(
      names(
        issuesOf({
          ...COMPLETE,
          TELEGRAM_WEBHOOK_URL: 'http://rampchat.example.com/telegram/webhook',
          TELEGRAM_WEBHOOK_SECRET: 'Wq4_hT8-pZ2mK6xN0vB3cR7yL1dF5sGj',
        }),
      ),
    ).toEqual(['TELEGRAM_WEBHOOK_URL']);
  });

  it('wants a metrics token when the server listens beyond loopback, not on loopback', () => {
    expect(issuesOf(without(COMPLETE, 'METRICS_TOKEN'))).toEqual([
      expect.stringMatching(
        /^METRICS_TOKEN: required in production when the HTTP server listens on 0\.0\.0\.0/,
      ),
    ]);
    expect(issuesOf({ ...without(COMPLETE, 'METRICS_TOKEN'), HTTP_HOST: '127.0.0.1' })).toEqual([]);
    expect(names(issuesOf({ ...without(COMPLETE, 'METRICS_TOKEN'), HTTP_HOST: '10.0.0.5' }))).toEqual([
      'METRICS_TOKEN',
    ]);
  });

  it('refuses short secrets: in any mode below a floor, in production below their real length', () => {
    expect(issuesOf({ METRICS_TOKEN: 'x' })).toEqual([
      expect.stringMatching(/^METRICS_TOKEN: at least 32 characters/),
    ]);
    expect(issuesOf({ WHATSAPP_APP_SECRET: 'x' })).toEqual([
      expect.stringMatching(/^WHATSAPP_APP_SECRET: at least 16 characters/),
    ]);
    expect(issuesOf({ RAMP_CHECKOUT_SECRET: 'short' })).toEqual([
      expect.stringMatching(/^RAMP_CHECKOUT_SECRET: at least 16/),
    ]);
    expect(issuesOf({ ...COMPLETE, RAMP_API_SECRET: 'fifteen-chars!!' })).toEqual([
      expect.stringMatching(/^RAMP_API_SECRET: too short for production: at least 16/),
    ]);
    expect(issuesOf({ ...COMPLETE, TELEGRAM_BOT_TOKEN: '1:abc' })).toEqual([
      expect.stringMatching(/^TELEGRAM_BOT_TOKEN: not a bot token/),
    ]);
    const cloud = {
      ...COMPLETE,
      WHATSAPP_ENABLED: '1',
      WHATSAPP_TRANSPORT: 'cloud',
      WHATSAPP_CLOUD_TOKEN: 'EAAGm0PX4ZCpsBAKdZBq8hZC3fTz7yWxLqN1',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_APP_SECRET: '7c3e9a1f5b8d2e6a4c0f9b3d7e1a5c8b',
      WHATSAPP_VERIFY_TOKEN: 'verify-token-0123456789',
    };
    expect(issuesOf(cloud)).toEqual([]);
    expect(issuesOf({ ...cloud, WHATSAPP_APP_SECRET: 'app-secret-0123456789' })).toEqual([
      expect.stringMatching(/^WHATSAPP_APP_SECRET: too short for production: at least 32/),
    ]);
  });

  it('never echoes a secret in a message', () => {
    const production = issuesOf({ ...COMPLETE, RAMP_API_SECRET: 'Zq81-secret' }).join('\n');
    expect(production).toContain('RAMP_API_SECRET');
    expect(production).not.toContain('Zq81');
    const floor = issuesOf({ ...COMPLETE, METRICS_TOKEN: 'tok-Zq81' }).join('\n');
    expect(floor).toContain('METRICS_TOKEN');
    expect(floor).not.toContain('Zq81');
  });

  it('local mode still needs nothing', () => {
    expect(issuesOf({})).toEqual([]);
    expect(issuesOf(example)).toEqual([]);
  });

  it('WhatsApp (baileys) without Redis is refused in any mode, naming REDIS_URL', () => {
    expect(issuesOf({ WHATSAPP_ENABLED: '1' })).toEqual([
      expect.stringMatching(/^REDIS_URL: required because WHATSAPP_ENABLED=1/),
    ]);
    expect(issuesOf({ WHATSAPP_ENABLED: '1', REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([]);
  });
});

interface Run {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
}
function runMain(env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HTTP_PORT: '0', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('close', (code) => resolve({ code, ms: Date.now() - started, stdout, stderr }));
    child.stdin.end('');
  });
}

describe('npm start in production', () => {
  it('with .env.example unchanged exits 2 naming every missing part, before starting anything', async () => {
    const r = await runMain({ ...example, NODE_ENV: 'production' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/will not start in production/);
    for (const name of [
      'RAMP_BASE_URL',
      'RAMP_API_KEY',
      'RAMP_API_SECRET',
      'TELEGRAM_BOT_TOKEN',
      'REDIS_URL',
      'PUBLIC_URL',
      'METRICS_TOKEN',
    ])
      expect(r.stderr).toContain(`  - ${name}: `);
    // Nothing started: no sandbox, no terminal chat, no log line.
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('"level"');
  });

  it('WHATSAPP_ENABLED=1 without Redis exits 2 in local mode too', async () => {
    const r = await runMain({ WHATSAPP_ENABLED: '1' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('REDIS_URL: required because WHATSAPP_ENABLED=1');
    expect(r.stdout).toBe('');
  });
});

describe('outside services at start: named while awaited, given up at START_TIMEOUT_MS', () => {
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    // Takes the connection and never answers (as a Bot API behind a black-holing firewall).
    silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((r) => silent.close(r));
  });

  it('a Bot API that never answers getMe: a log line names it, then exit 1 within the timeout', async () => {
    const r = await runMain({
      TELEGRAM_BOT_TOKEN: '123456789:test-token-start-timeout',
      TELEGRAM_API_ROOT: silentUrl,
      START_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'info',
    });
    const out = r.stdout + r.stderr;
    expect(r.code).toBe(1);
    expect(out).toContain(`waiting for Telegram getMe at ${silentUrl}`);
    expect(out).toContain(`Telegram getMe at ${silentUrl} did not answer within 1500 ms`);
    expect(out).not.toContain('test-token-start-timeout');
    expect(r.ms).toBeLessThan(15_000);
  });

  it('a Redis that refuses connections: named with its address (no password), then exit 1', async () => {
    const port = await freePort();
    const r = await runMain({
      REDIS_URL: `redis://:hunter2-password@127.0.0.1:${port}`,
      START_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'info',
    });
    const out = r.stdout + r.stderr;
    expect(r.code).toBe(1);
    expect(out).toContain(`waiting for Redis (app) at redis://127.0.0.1:${port}`);
    expect(out).toMatch(/did not answer within 1500 ms: check REDIS_URL/);
    expect(out).not.toContain('hunter2');
    expect(r.ms).toBeLessThan(15_000);
  });
});

describe('a start step that may fail without stopping the start', () => {
  it('a command menu Telegram never confirms is given up after START_TIMEOUT_MS, and the bot runs', async () => {
    const token = `123456789:${'M'.repeat(35)}`;
    const fake = await FakeTelegramBotApi.start({ token });
    fake.hold('setMyCommands');
    let logs = '';
    const logDestination = new Writable({
      write(chunk, _enc, done) {
        logs += String(chunk);
        done();
      },
    });
    const started = Date.now();
    const app = await startApp(
      loadConfig({
        HTTP_PORT: '0',
        LOG_LEVEL: 'info',
        TELEGRAM_BOT_TOKEN: token,
        TELEGRAM_API_ROOT: fake.url,
        START_TIMEOUT_MS: '1000',
      }),
      { stdin: new PassThrough(), stdout: new PassThrough(), logDestination },
    );
    try {
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(logs).toContain(`waiting for Telegram setMyCommands at ${fake.url}`);
      expect(logs).toContain('did not answer within 1000 ms');
      expect(logs).toContain('setting the command menu failed; continuing');
      // The bot answers all the same.
      fake.sendText(4242, '/help');
      await fake.waitFor(() => fake.sentMessages(4242).find((m) => m.from === 'bot'), 10_000, 'the reply');
    } finally {
      fake.release('setMyCommands');
      await app.stop();
      await fake.close();
    }
  });
});
