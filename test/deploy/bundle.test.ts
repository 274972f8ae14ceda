/**
 * The build (`npm run build`: esbuild's bundle, what the Docker image runs) works as the sources do:
 * the terminal chat's buy and sale with the files the app finds beside it (locales, the contracts),
 * a statement (pdfkit, left in node_modules), the doctor, and a Telegram replica on Redis (node-redis,
 * loaded by the first connection). Built into node_modules/.cache so packages resolve as from dist/.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { type AppProcess, startAppProcess } from '../helpers/app-process.js';
import { freePort, type OwnRedis, ownRedis } from '../helpers/redis-server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'node_modules', '.cache', `rampchat-bundle-${process.pid}`);
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const TOKEN = '123456789:test-token-bundle-not-real';

function run(entry: string, lines: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, [join(OUT, entry)], {
      env: {
        PATH: process.env.PATH ?? '',
        HTTP_PORT: '0',
        SANDBOX_SETTLE_MS: '300',
        TERMINAL_EOF_GRACE_MS: '5000',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stdout += String(d)));
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(lines.length ? `${lines.join('\n')}\n` : '');
  });
}

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', OUT], { cwd: ROOT, stdio: 'pipe' });
}, 60_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('the bundle', () => {
  it('is a few files, not one per module', () => {
    expect(existsSync(join(OUT, 'main.js'))).toBe(true);
    expect(existsSync(join(OUT, 'doctor', 'main.js'))).toBe(true);
  });

  it('holds only the zod the sources use: they import it as a namespace, which the bundler can trim', () => {
    // `import { z } from 'zod'` is one object to a bundler: all of zod (450 KB, every locale) ships.
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    const named = files.filter((f) =>
      /import (type )?\{ z \} from 'zod'/.test(readFileSync(join(ROOT, 'src', f), 'utf8')),
    );
    expect(named).toEqual([]);
    const chunks = readdirSync(join(OUT, 'chunks')).map((f) => readFileSync(join(OUT, 'chunks', f), 'utf8'));
    // "string" in Hebrew, one of the error-message locales zod ships when taken whole.
    const hebrew = 'מחרוזת';
    const escaped = [...hebrew]
      .map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
      .join('');
    expect(chunks.filter((c) => c.includes(hebrew) || c.includes(escaped))).toEqual([]);
  });

  it("runs the README's buy and sale in the terminal, then a statement", async () => {
    const buy = /\n\s+(\/buy [^\n]+)\n/.exec(README)?.[1];
    const sell = /A whole sell runs offline:\s*`([^`]+)`/.exec(README)?.[1];
    expect(buy && sell, 'the README shows both demos').toBeTruthy();
    const { code, stdout } = await run('main.js', [buy!, '1', sell!, '1', '1', '/statement']);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/Transaction: 0x[0-9a-f]{64}/);
    expect(stdout).toMatch(/✅ KES 1,000\.00 sent to .*M-Pesa receipt: \w{10}/);
    const pdf = /File saved: (\S+\.pdf)/.exec(stdout)?.[1];
    expect(pdf, stdout.slice(-2000)).toBeDefined();
    expect(readFileSync(pdf!).subarray(0, 5).toString()).toBe('%PDF-');
  }, 90_000);

  it('answers --help in Kiswahili and runs the doctor', async () => {
    const usage = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [join(OUT, 'main.js'), '--help'], {
        env: { PATH: process.env.PATH ?? '', LANG: 'sw_KE.UTF-8' },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += String(d)));
      child.on('close', () => resolve(out));
    });
    expect(usage).toMatch(/^Matumizi: npm start/);
    const doctor = await run('doctor/main.js', []);
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/redis\s+skipped/);
  }, 60_000);

  describe('as a Telegram replica on Redis', () => {
    let fake: FakeTelegramBotApi;
    let redis: OwnRedis;
    let app: AppProcess | undefined;
    const dir = mkdtempSync(join(tmpdir(), 'bundle-replica-'));
    beforeAll(async () => {
      redis = ownRedis({ port: await freePort(), dir, aof: false });
      await redis.start();
      fake = await FakeTelegramBotApi.start({ token: TOKEN });
    });
    afterAll(async () => {
      await app?.kill('SIGKILL');
      await fake?.close();
      await redis?.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers /start', async () => {
      app = await startAppProcess(
        {
          TELEGRAM_BOT_TOKEN: TOKEN,
          TELEGRAM_API_ROOT: fake.url,
          REDIS_URL: redis.url,
          DATA_DIR: join(dir, 'data'),
          SANDBOX_SETTLE_MS: '300',
        },
        { entry: join(OUT, 'main.js') },
      );
      fake.sendText(4242, '/start');
      const reply = await fake
        .waitFor(() => fake.sentMessages(4242).find((m) => m.from === 'bot'), 20_000, 'the menu')
        .catch((e: Error) => {
          throw new Error(`${e.message}\n${app?.output().slice(-3000)}`);
        });
      expect(reply.text).toMatch(/Buy/);
    }, 60_000);

    // node-redis's commands load on first use in the bundle (scripts/build-shims): a whole buy on
    // Redis (sessions, outbox, tracker, release claims) runs through the bundled client.
    it('takes a buy from the command to the released tokens, then stops cleanly on SIGTERM', async () => {
      const chat = 4243;
      fake.sendText(chat, '/buy 500 KES USDT polygon 0x742d35Cc6634C0532925a3b844Bc454e4438f44e 0712345678');
      const confirm = await fake.waitFor(
        () => {
          for (const m of fake.sentMessages(chat).reverse()) {
            const data = (m.reply_markup?.inline_keyboard ?? [])
              .flat()
              .map((b: { callback_data?: string }) => b.callback_data ?? '')
              .find((d: string) => d.startsWith('buy:confirm:'));
            if (data) return { id: m.message_id, data };
          }
          return undefined;
        },
        20_000,
        'the Confirm button',
      );
      fake.pressButton(chat, confirm.id, confirm.data);
      const released = await fake
        .waitFor(
          () => fake.sentMessages(chat).find((m) => /0x[0-9a-f]{64}/.test(m.text ?? '')),
          30_000,
          'the released tokens',
        )
        .catch((e: Error) => {
          throw new Error(`${e.message}\n${app?.output().slice(-3000)}`);
        });
      expect(released.text).toMatch(/USDT/);
      expect(await app!.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    }, 60_000);
  });
});
