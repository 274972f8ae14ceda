/**
 * Start benchmark: time from spawning the process to the first menu a user sees, and the process's
 * resident memory at rest (2 s after that menu) and at its peak (VmHWM), each over BENCH_START_RUNS
 * runs (default 5), median printed.
 *
 * - local (built): `node dist/main.js` with no settings: the terminal chat, the in-process sandbox,
 *   state in memory. `/start` is typed at once; the menu is the first numbered choice printed.
 * - local (source): the same through tsx (`npm start` before `npm run build`).
 * - production (built): `node dist/main.js` with the Docker image's Node flags, Redis, Telegram
 *   long polling against the fake Bot API, and a remote ramp (the sandbox in another process). A
 *   `/start` update waits in the fake; the menu is the bot's first sendMessage.
 *
 * Needs `npm run build` first (`npm run bench` does it when dist/ is missing or stale).
 * `BENCH_START_MODES=production` (comma-separated: local, source, production) runs only those;
 * `BENCH_START_PROFILE=<dir>` writes a `--cpu-prof` profile of each production run there, and
 * `BENCH_START_NODE_FLAGS` replaces the Node flags it runs with (default: the Dockerfile's CMD), and
 * `BENCH_START_LOG_LEVEL=debug` shows a production run's log lines after a `spawn at <epoch ms>`
 * line, to see where its time goes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeTelegramBotApi } from '../test/fakes/telegram-bot-api.js';
import { freePort, ownRedis } from '../test/helpers/redis-server.js';

export interface StartFigures {
  mode: string;
  runs: number;
  firstMenuMs: number;
  restRssMb: number;
  peakRssMb: number;
  /** Each run's time to the first menu, to show the spread. */
  allMs: number[];
}

const ROOT = join(import.meta.dirname, '..');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}

/** One local-mode run: spawn, type /start, wait for a numbered choice on stdout. */
async function localRun(args: string[]): Promise<{ ms: number; rss: number; peak: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rampchat-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LANG: 'en_US.UTF-8',
      DATA_DIR: dataDir,
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  try {
    child.stdin?.write('/start\n');
    const ms = await new Promise<number>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no menu within 60 s: ${out.slice(-500)}`)), 60_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (/^\s*\[?1[.)\]] /m.test(out)) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      });
      child.once('exit', (code) =>
        reject(new Error(`exited with ${code} before the menu: ${out.slice(-500)}`)),
      );
    });
    await sleep(2000);
    const mem = memoryOf(child.pid as number);
    return { ms, ...mem };
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface ProductionRig {
  redisUrl: string;
  /** Empties Redis (a restart without persistence): every fake Bot API numbers its updates alike. */
  resetRedis(): Promise<void>;
  ramp: { url: string; apiKey: string; apiSecret: string };
  close(): Promise<void>;
}

async function productionRig(): Promise<ProductionRig> {
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-start-redis-'));
  const redis = ownRedis({ port: await freePort(), dir, aof: false });
  await redis.start();
  const sandbox = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/sandbox-child.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ramp = await new Promise<ProductionRig['ramp']>((resolve, reject) => {
    let out = '';
    sandbox.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line));
    });
    sandbox.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return {
    redisUrl: redis.url,
    ramp,
    async resetRedis() {
      await redis.kill();
      await redis.start();
    },
    async close() {
      await stop(sandbox);
      await redis.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Node flags the Docker image runs the app with (its CMD), so the bench measures what ships. */
export function imageNodeFlags(): string[] {
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
  const args = cmd ? (JSON.parse(cmd) as string[]) : [];
  return args.slice(1, -1);
}

/** One production-mode run: a fresh fake Bot API holding a /start update; wait for the reply. */
async function productionRun(rig: ProductionRig): Promise<{ ms: number; rss: number; peak: number }> {
  await rig.resetRedis();
  const fake = await FakeTelegramBotApi.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'rampchat-start-'));
  const chatId = 4242;
  fake.sendText(chatId, '/start');
  const started = performance.now();
  if (process.env.BENCH_START_LOG_LEVEL) console.error(`spawn at ${Date.now()}`);
  const profile = process.env.BENCH_START_PROFILE;
  const flags = (process.env.BENCH_START_NODE_FLAGS ?? imageNodeFlags().join(' ')).split(' ').filter(Boolean);
  const args = [...flags, ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []), 'dist/main.js'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      // Not NODE_ENV=production: that refuses the fake Bot API and the http ramp at start.
      NODE_ENV: 'test',
      TELEGRAM_BOT_TOKEN: '1000:start-bench',
      TELEGRAM_API_ROOT: fake.url,
      REDIS_URL: rig.redisUrl,
      JOURNAL_KEY: 'bench-journal-key-0123456789abcdef0123456789',
      RAMP_BASE_URL: rig.ramp.url,
      RAMP_API_KEY: rig.ramp.apiKey,
      RAMP_API_SECRET: rig.ramp.apiSecret,
      HTTP_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.BENCH_START_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', process.env.BENCH_START_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit'],
  });
  try {
    const ms = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        if (fake.sentMessages(chatId).some((m) => m.from === 'bot')) {
          clearInterval(timer);
          resolve(performance.now() - started);
        }
      }, 2);
      child.once('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`exited with ${code} before the menu`));
      });
    });
    await sleep(2000);
    return { ms, ...memoryOf(child.pid as number) };
  } finally {
    await stop(child);
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(
  mode: string,
  runs: number,
  once: () => Promise<{ ms: number; rss: number; peak: number }>,
): Promise<StartFigures> {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once());
  return {
    mode,
    runs,
    firstMenuMs: median(results.map((r) => r.ms)),
    restRssMb: median(results.map((r) => r.rss)),
    peakRssMb: median(results.map((r) => r.peak)),
    allMs: results.map((r) => Math.round(r.ms)),
  };
}

export async function runStartBench(
  runs = Number(process.env.BENCH_START_RUNS ?? 5),
): Promise<StartFigures[]> {
  const modes = (process.env.BENCH_START_MODES ?? 'local,source,production').split(',');
  const out: StartFigures[] = [];
  if (modes.includes('local'))
    out.push(await measure('local (built)', runs, () => localRun(['dist/main.js'])));
  if (modes.includes('source'))
    out.push(await measure('local (source, tsx)', runs, () => localRun(['--import', 'tsx', 'src/main.ts'])));
  if (!modes.includes('production')) return out;
  const rig = await productionRig();
  try {
    out.push(await measure('production (built)', runs, () => productionRun(rig)));
  } finally {
    await rig.close();
  }
  return out;
}

export function formatStartFigures(figures: StartFigures[]): string {
  const lines = [
    'Start: time to the first menu and resident memory (median of runs)',
    '| mode | first menu | RSS at rest | peak RSS | runs (ms) |',
    '|---|---|---|---|---|',
  ];
  for (const f of figures)
    lines.push(
      `| ${f.mode} | ${(f.firstMenuMs / 1000).toFixed(2)} s | ${f.restRssMb.toFixed(0)} MB | ${f.peakRssMb.toFixed(0)} MB | ${f.allMs.join(', ')} |`,
    );
  lines.push('Targets: production (built) at most 0.6 s and 100 MB; local (built) at most 0.4 s.');
  return lines.join('\n');
}
