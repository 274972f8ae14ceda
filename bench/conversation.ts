/**
 * Conversation benchmark: Telegram text and button updates through the real stack (grammY
 * `bot.handleUpdate` → our Telegram adapter → engine → Redis session store → production flows →
 * `sendMessage`), then the floor: a bare grammY bot whose handler makes the same Redis round trips
 * and the same Bot API calls. Each of BENCH_USERS users walks the cycle "/start", [Settings],
 * [Language], "menu" one update at a time (as the runner's `sequentialize` would have it); none of
 * these steps calls the ramp. The Bot API is the fake (test/fakes/telegram-bot-api.ts) in a child
 * process over loopback HTTP, or with BENCH_API=local a grammY transformer answering sendMessage,
 * editMessageText and answerCallbackQuery in-process (in both setups alike). Prints figures;
 * asserts nothing. Env: BENCH_USERS (50), BENCH_SECONDS measured per setup (15), BENCH_ROUNDS (3:
 * the setups take turns, each turn measuring BENCH_SECONDS / BENCH_ROUNDS), BENCH_WARMUP_SECONDS (3),
 * BENCH_API (http | local), REDIS_URL (redis://127.0.0.1:6379).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Bot, type Context, type Transformer } from 'grammy';
import type { InlineKeyboardMarkup, Update, UserFromGetMe } from 'grammy/types';
import { createClient, type RedisClientType } from 'redis';
import { createTelegramChannel } from '../src/channels/telegram/index.js';
import { createEngine } from '../src/engine/index.js';
import { loadI18n } from '../src/i18n/index.js';
import { createLogger } from '../src/log/logger.js';
import { createRampClient } from '../src/ramp/index.js';
import { createRedisStore } from '../src/store/index.js';

const int = (name: string, def: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.round(v) : def;
};

export interface ConversationBenchOptions {
  users: number;
  /** Measured seconds per setup, split over `rounds`. */
  seconds: number;
  warmupSeconds: number;
  /** The two setups take turns this many times, so a passing disturbance hits both alike. */
  rounds: number;
  /** `http`: the fake Bot API over loopback; `local`: answered by a transformer in this process. */
  api: 'http' | 'local';
  redisUrl: string;
}

export const conversationOptionsFromEnv = (): ConversationBenchOptions => ({
  users: int('BENCH_USERS', 50),
  seconds: int('BENCH_SECONDS', 15),
  warmupSeconds: int('BENCH_WARMUP_SECONDS', 3),
  rounds: int('BENCH_ROUNDS', 3),
  api: process.env.BENCH_API === 'local' ? 'local' : 'http',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
});

/** What one measured stretch of one setup saw. */
interface Sample {
  latencies: number[];
  updates: number;
  errors: number;
  seconds: number;
  cpuUs: number;
  apiCpuUs: number;
  redisCpuUs: number;
  commands: Map<string, number>;
}

interface PhaseFigures {
  updates: number;
  errors: number;
  updatesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of this process (the bot) per update. */
  cpuUsPerUpdate: number;
  /** CPU of the fake Bot API's process per update (0 with BENCH_API=local). */
  apiCpuUsPerUpdate: number;
  /** CPU of redis-server per update (INFO cpu; the machine is assumed otherwise idle). */
  redisCpuUsPerUpdate: number;
  /** Redis commands per update by name (INFO commandstats deltas; commands run inside scripts count too). */
  redisCommands: Record<string, number>;
}

export interface ConversationBenchFigures {
  options: ConversationBenchOptions;
  stack: PhaseFigures;
  floor: PhaseFigures;
}

/** One cycle of every user: what a returning user does to look at the settings and go back. */
const CYCLE = [
  { kind: 'text', text: '/start' },
  { kind: 'button', data: 'menu:settings' },
  { kind: 'button', data: 'set:lang' },
  { kind: 'text', text: 'menu' },
] as const;

/** The floor's compare-and-set: the same shape as the store's (src/store/redis.ts). */
const FLOOR_SAVE_IF_REVISION = `
local current = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if current ~= tonumber(ARGV[1]) then return -1 end
local nextRev = current + 1
redis.call('HSET', KEYS[1], 'rev', nextRev, 'base', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'EX', tonumber(ARGV[4]))
return nextRev
`;

/** About the size of a rendered menu/settings message and its keyboard. */
const FLOOR_HTML =
  '<b>Settings</b>\n\nLanguage: English\nM-Pesa number: not saved yet\nSaved wallets: 0\n\nWhat would you like to change?';
const FLOOR_KEYBOARD: InlineKeyboardMarkup = {
  inline_keyboard: [
    [{ text: 'Language', callback_data: 'set:lang' }],
    [{ text: 'M-Pesa number', callback_data: 'set:phone' }],
    [{ text: 'Wallets', callback_data: 'set:wallets' }],
    [{ text: 'Menu', callback_data: 'menu:main' }],
  ],
};

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ApiChild {
  proc: ChildProcess;
  url: string;
  token: string;
  botInfo: UserFromGetMe;
  /** Sends an IPC request; replies come back in order. */
  request<T>(msg: object): Promise<T>;
}

async function startApiChild(): Promise<ApiChild> {
  const file = fileURLToPath(new URL('./bot-api-child.ts', import.meta.url));
  const proc = spawn(process.execPath, ['--import', 'tsx', file], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const waiting: Array<(v: unknown) => void> = [];
  proc.on('message', (m) => waiting.shift()?.(m));
  const request = <T>(msg: object) =>
    new Promise<T>((resolve) => {
      waiting.push(resolve as (v: unknown) => void);
      proc.send(msg);
    });
  return new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n')[0];
      if (buf.includes('\n') && line) resolve({ proc, request, ...JSON.parse(line) });
    });
    proc.once('exit', (code) => reject(new Error(`Bot API child exited (${code})`)));
  });
}

/** Callback query ids the fake will accept, registered in batches ahead of use. */
function queryIdPool(api: ApiChild) {
  let next = 1;
  let registeredUpTo = 0;
  let refilling: Promise<void> | undefined;
  const refill = () => {
    refilling ??= api
      .request<{ registeredUpTo: number }>({ queries: 20_000 })
      .then((r) => {
        registeredUpTo = r.registeredUpTo;
      })
      .finally(() => {
        refilling = undefined;
      });
    return refilling;
  };
  return {
    refill,
    async take(): Promise<string> {
      while (next > registeredUpTo) await refill();
      if (registeredUpTo - next < 15_000) void refill();
      return String(next++);
    },
  };
}

/** In-process answers for the calls the journey makes (BENCH_API=local), installed on both bots. */
function localApi(): Transformer {
  let messageId = 0;
  return async (prev, method, payload, signal) => {
    const p = payload as { chat_id?: number | string; text?: string; message_id?: number };
    if (method === 'answerCallbackQuery') return { ok: true, result: true } as never;
    if (method === 'sendMessage' || method === 'editMessageText')
      return {
        ok: true,
        result: {
          message_id: p.message_id ?? ++messageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(p.chat_id), type: 'private', first_name: 'Bench' },
          text: p.text ?? '',
        },
      } as never;
    return prev(method, payload, signal);
  };
}

function commandStats(info: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out.set(m[1]!, Number(m[2]));
  return out;
}

async function redisSnapshot(admin: RedisClientType) {
  const [stats, cpu] = await Promise.all([admin.info('commandstats'), admin.info('cpu')]);
  const sec = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? 0);
  return { commands: commandStats(stats), cpuUs: 1e6 * (sec('used_cpu_user') + sec('used_cpu_sys')) };
}

let nextUpdateId = 1;

function buildUpdate(chatId: number, step: (typeof CYCLE)[number], queryId: string | undefined): Update {
  const chat = { id: chatId, type: 'private' as const, first_name: `User ${chatId}` };
  const from = { id: chatId, is_bot: false, first_name: chat.first_name, language_code: 'en' };
  const date = Math.floor(Date.now() / 1000);
  if (step.kind === 'text') {
    const command = step.text.startsWith('/');
    return {
      update_id: nextUpdateId++,
      message: {
        message_id: nextUpdateId,
        date,
        chat,
        from,
        text: step.text,
        ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: step.text.length }] } : {}),
      },
    };
  }
  return {
    update_id: nextUpdateId++,
    callback_query: {
      id: queryId ?? '0',
      from,
      chat_instance: `ci${chatId}`,
      data: step.data,
      message: { message_id: 1, date, chat, text: '…' },
    },
  } as Update;
}

/**
 * Drives `opts.users` users through CYCLE, each one update at a time, for `warmupSeconds` then
 * `seconds`; the sample covers updates completed inside the measured window.
 */
async function drive(
  bot: Bot,
  opts: ConversationBenchOptions,
  { seconds, warmupSeconds }: { seconds: number; warmupSeconds: number },
  firstChatId: number,
  queries: ReturnType<typeof queryIdPool>,
  admin: RedisClientType,
  api: ApiChild,
): Promise<Sample> {
  const latencies: number[] = [];
  let updates = 0;
  let errors = 0;
  let measuring = false;
  let stopped = false;
  const user = async (i: number) => {
    for (let k = i; !stopped; k++) {
      const step = CYCLE[k % CYCLE.length]!;
      const update = buildUpdate(
        firstChatId + i,
        step,
        step.kind === 'button' ? await queries.take() : undefined,
      );
      const t0 = performance.now();
      let failed = false;
      try {
        await bot.handleUpdate(update);
      } catch {
        failed = true;
      }
      if (measuring) {
        latencies.push(performance.now() - t0);
        updates++;
        if (failed) errors++;
      }
    }
  };
  const apiCpu = async () =>
    opts.api === 'http' ? (await api.request<{ cpuUs: number }>({ cpu: true })).cpuUs : 0;

  const running = Array.from({ length: opts.users }, (_, i) => user(i));
  await sleep(warmupSeconds * 1000);
  const [redis0, api0] = await Promise.all([redisSnapshot(admin), apiCpu()]);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  measuring = true;
  await sleep(seconds * 1000);
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const [redis1, api1] = await Promise.all([redisSnapshot(admin), apiCpu()]);
  stopped = true;
  await Promise.all(running);

  const commands = new Map<string, number>();
  for (const [name, calls] of redis1.commands) {
    // The snapshots' own INFO calls are not the bot's.
    const delta = calls - (redis0.commands.get(name) ?? 0) - (name === 'info' ? 2 : 0);
    if (delta > 0) commands.set(name, delta);
  }
  return {
    latencies,
    updates,
    errors,
    seconds: elapsed,
    cpuUs: cpu.user + cpu.system,
    apiCpuUs: api1 - api0,
    redisCpuUs: redis1.cpuUs - redis0.cpuUs,
    commands,
  };
}

function summarize(samples: Sample[]): PhaseFigures {
  const sum = (f: (s: Sample) => number) => samples.reduce((a, s) => a + f(s), 0);
  const updates = sum((s) => s.updates);
  const perUpdate = (x: number) => (updates ? x / updates : 0);
  const redisCommands: Record<string, number> = {};
  for (const s of samples)
    for (const [name, calls] of s.commands) redisCommands[name] = (redisCommands[name] ?? 0) + calls;
  for (const name of Object.keys(redisCommands)) redisCommands[name] = perUpdate(redisCommands[name]!);
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  return {
    updates,
    errors: sum((s) => s.errors),
    updatesPerSecond: updates / sum((s) => s.seconds),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuUsPerUpdate: perUpdate(sum((s) => s.cpuUs)),
    apiCpuUsPerUpdate: perUpdate(sum((s) => s.apiCpuUs)),
    redisCpuUsPerUpdate: perUpdate(sum((s) => s.redisCpuUs)),
    redisCommands,
  };
}

/** The bare grammY bot: per update the Redis round trips the stack makes, then one sendMessage. */
function floorBot(api: ApiChild, redis: RedisClientType, prefix: string, local: Transformer | undefined) {
  const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.url } });
  if (local) bot.api.config.use(local);
  const base = JSON.stringify({ v: 1, locale: 'en', profile: { wallets: {} } });
  const flow = JSON.stringify({ name: 'settings', step: 'main' });
  const handle = async (ctx: Context, chatId: number) => {
    const fresh = await redis.set(`${prefix}floor:seen:${ctx.update.update_id}`, '1', {
      condition: 'NX',
      expiration: { type: 'EX', value: 600 },
    });
    if (fresh !== 'OK') return;
    const userKey = `${prefix}floor:user:${chatId}`;
    const flowKey = `${prefix}floor:flow:${chatId}`;
    const [hash] = (await redis.multi().hGetAll(userKey).get(flowKey).exec()) as unknown as [
      Record<string, string>,
    ];
    await redis.eval(FLOOR_SAVE_IF_REVISION, {
      keys: [userKey, flowKey],
      arguments: [String(Number(hash?.rev ?? 0)), base, flow, '3600'],
    });
    await redis.get(`${prefix}floor:kbd:${chatId}`);
    await ctx.api.sendMessage(chatId, FLOOR_HTML, {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      reply_markup: FLOOR_KEYBOARD,
    });
  };
  bot.on('callback_query:data', async (ctx) => {
    await ctx.answerCallbackQuery();
    await handle(ctx, ctx.chat!.id);
  });
  bot.on('message:text', (ctx) => handle(ctx, ctx.chat.id));
  return bot;
}

async function deletePrefix(redis: RedisClientType, prefix: string) {
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    const list = Array.isArray(keys) ? keys : [keys];
    if (list.length) await redis.del(list);
  }
}

export async function runConversationBench(
  opts: ConversationBenchOptions,
): Promise<ConversationBenchFigures> {
  const api = await startApiChild();
  const prefix = `bench:conv:${randomBytes(3).toString('hex')}:`;
  const connect = async () => {
    const c = createClient({ url: opts.redisUrl }) as RedisClientType;
    await c.connect();
    return c;
  };
  // As in src/app/start.ts: the store has its own client, the Telegram channel another.
  const [admin, storeRedis, channelRedis, floorRedis] = await Promise.all([
    connect(),
    connect(),
    connect(),
    connect(),
  ]);
  const local = opts.api === 'local' ? localApi() : undefined;
  try {
    const queries = queryIdPool(api);
    await queries.refill();
    const logger = createLogger({ level: 'warn' });
    const store = await createRedisStore({ client: storeRedis, prefix, flowTtlSeconds: 86_400 });
    // No step of the cycle calls the ramp; a call would fail here and show as a logged error.
    const ramp = createRampClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'bench',
      apiSecret: 'bench',
      timeoutMs: 1_000,
    });
    const engine = createEngine({ store, ramp, logger, config: { rateTolerancePct: 1, project: 'bench' } });
    const telegram = createTelegramChannel({
      token: api.token,
      conversation: engine,
      i18n: loadI18n(),
      logger,
      apiRoot: api.url,
      redis: channelRedis,
      redisPrefix: prefix,
      botInfo: api.botInfo,
    });
    engine.registerChannel(telegram.adapter);
    if (local) telegram.bot.api.config.use(local);
    const floorBotInstance = floorBot(api, floorRedis, prefix, local);
    const stackSamples: Sample[] = [];
    const floorSamples: Sample[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const timing = {
        seconds: opts.seconds / opts.rounds,
        // Later rounds only wait for the users to get going again.
        warmupSeconds: round === 0 ? opts.warmupSeconds : 1,
      };
      stackSamples.push(await drive(telegram.bot, opts, timing, 500_000_000, queries, admin, api));
      floorSamples.push(await drive(floorBotInstance, opts, timing, 600_000_000, queries, admin, api));
    }
    await telegram.stop();
    await engine.idle();
    return { options: opts, stack: summarize(stackSamples), floor: summarize(floorSamples) };
  } finally {
    await deletePrefix(admin, prefix);
    await Promise.all([admin, storeRedis, channelRedis, floorRedis].map((c) => c.quit()));
    api.proc.kill('SIGTERM');
  }
}

export function formatConversationFigures(f: ConversationBenchFigures): string {
  const n = (x: number, d = 0) =>
    x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
  const row = (name: string, p: PhaseFigures) =>
    `  ${name.padEnd(22)} ${n(p.updatesPerSecond, 1).padStart(8)} /s  p50 ${n(p.p50Ms, 1).padStart(6)} ms  p99 ${n(p.p99Ms, 1).padStart(6)} ms  CPU bot ${n(p.cpuUsPerUpdate).padStart(5)} µs, Bot API ${n(p.apiCpuUsPerUpdate).padStart(4)} µs, Redis ${n(p.redisCpuUsPerUpdate).padStart(4)} µs per update  Redis ${n(total(p.redisCommands), 2)} cmds/update  (${n(p.updates)} updates, ${p.errors} errors)`;
  // Commands below 0.05 per update are not the bot's (another Redis client, a reconnect): summed as "other".
  const breakdown = (c: Record<string, number>) => {
    const entries = Object.entries(c).sort((a, b) => b[1] - a[1]);
    const other = entries.filter(([, v]) => v < 0.05).reduce((a, [, v]) => a + v, 0);
    return [
      ...entries.filter(([, v]) => v >= 0.05).map(([k, v]) => `${k} ${n(v, 2)}`),
      ...(other ? [`other ${n(other, 2)}`] : []),
    ].join(', ');
  };
  const o = f.options;
  const ratio = (a: number, b: number, d = 2) => `${n(a / Math.max(b, 1e-9), d)}x`;
  return [
    `Conversation benchmark: ${o.users} users, each cycling "/start", [Settings], [Language], "menu" one update at a time; ${o.seconds} s measured per setup, in ${o.rounds} alternating rounds after ${o.warmupSeconds} s warm-up`,
    `  Bot API: ${o.api === 'http' ? 'the fake Bot API in a child process over loopback HTTP' : 'answered in-process by a grammY transformer (both setups)'}; no ramp calls`,
    row('stack (grammY+engine)', f.stack),
    row('floor (bare grammY)', f.floor),
    `  stack / floor          rate ${ratio(f.stack.updatesPerSecond, f.floor.updatesPerSecond)}, p50 ${ratio(f.stack.p50Ms, f.floor.p50Ms)}, p99 ${ratio(f.stack.p99Ms, f.floor.p99Ms)}, bot CPU per update ${ratio(f.stack.cpuUsPerUpdate, f.floor.cpuUsPerUpdate, 1)}`,
    `  Redis per update       stack: ${breakdown(f.stack.redisCommands)}`,
    `                         floor: ${breakdown(f.floor.redisCommands)}`,
    '                         (commandstats counts the commands a Lua script runs, and MULTI/EXEC around a pipelined pair)',
  ].join('\n');
}
