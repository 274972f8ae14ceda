/**
 * Conversation benchmark: what one update costs with the outbound line in place. Telegram text and
 * button updates go through the real stack (grammY `bot.handleUpdate` → our Telegram adapter →
 * engine → Redis session store → production flows → the outbound line → `sendMessage`), then the
 * floor: the least any stateful bot does, a bare grammY handler doing one GET, one SET and one
 * sendMessage per update (and answering taps). Both get the same steady load: BENCH_RATE updates a
 * second spread over as many chats as that takes when each chat taps every BENCH_PACE_MS (2 s, a
 * person's pace), so neither Telegram's per-chat pace (about 1 a second) nor the bot's (27 a
 * second, kept by the line) binds. Each user walks the cycle "/start", [Settings], [Language],
 * "menu", one update at a time. The two setups run at the same time, each in a process of its own
 * (./conversation-child.ts) with its own redis-server and fake Bot API, so that what else the
 * machine does weighs on both alike; with REDIS_URL they share that server and take turns. Latency
 * is from handing the update to grammY to the reply's send (the first message into that chat)
 * returning from the Bot API: what the person waits. CPU per update is the setup's process's CPU
 * over the measured stretch divided by the updates (idle timers included: that is what an update
 * costs at this load); the stretch is also read in BENCH_WINDOWS parts, whose ratios show how far
 * the figure moves. Redis round trips per update are counted by the server
 * (`total_reads_processed`: one read per batch a client sends) at a light load (BENCH_PROBE_CHATS
 * chats at the same pace, so no two chats' commands share a batch). The Bot API is the fake
 * (test/fakes/telegram-bot-api.ts) in a child process over loopback HTTP, or with BENCH_API=local a
 * grammY transformer answering in-process (in both setups alike). Prints figures; asserts nothing.
 * Both setups run with the Node flags of the Dockerfile's CMD (BENCH_NODE_FLAGS replaces them).
 * Env: BENCH_RATE (20), BENCH_PACE_MS (2000), BENCH_SECONDS measured (60), BENCH_WINDOWS (6),
 * BENCH_WARMUP_SECONDS (60: V8's compiling first), BENCH_PROBE_CHATS (4), BENCH_API (http | local), REDIS_URL (default: a
 * redis-server of each setup's own), BENCH_CONTROL=1 (the floor in the stack's place too: the ratio
 * this machine reads for no difference), BENCH_PHASES=1 (each setup's CPU between its wire events:
 * where an update's CPU goes, ./phases.ts), BENCH_LINE=memory (the stack's outbound line and outbox kept
 * in its process, not shared through Redis: what the shared line and the durable outbox cost),
 * BENCH_COUNTS=1 (promises and timers made per update: steadier than CPU, see `counts`), BENCH_RUNS (1: runs in fresh processes, the median run
 * printed in full), BENCH_CPU_PROF (a folder: each setup's threads write their
 * `.cpuprofile`s under `stack/` and `floor/` there, for Chrome DevTools), BENCH_HEAP_PROF (a folder:
 * each setup's allocations over the measured stretch, collected ones included, as `measured.heapprofile`
 * under `stack/` and `floor/`), BENCH_SITES=N (promises per update by the N frames where they are made,
 * into rampchat-promise-sites-<setup>.txt in the temp folder). The last two slow what they watch.
 */
import { createHook } from 'node:async_hooks';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bot, type Context, type Transformer } from 'grammy';
import type { InlineKeyboardMarkup, Update, UserFromGetMe } from 'grammy/types';
import { createClient, type RedisClientType } from 'redis';
import { createEngine } from '../src/app/flows.js';
import { createTelegramChannel } from '../src/channels/telegram/index.js';
import { ownCall } from '../src/channels/telegram/send/call.js';
import { loadI18n } from '../src/i18n/index.js';
import { createLogger } from '../src/log/logger.js';
import { createRampClient } from '../src/ramp/index.js';
import { connectRedis } from '../src/store/connection/connect.js';
import { createRedisStore } from '../src/store/index.js';
import { freePort, ownRedis } from '../test/helpers/redis-server.js';
import { heapSampling, promiseSites } from './diagnose.js';
import { formatPhases, type PhaseSums, type PhaseTracer, tracePhases } from './phases.js';
import { imageNodeFlags } from './start.js';
import { type ThreadCpu, threadCpu, threadCpuSince } from './threads.js';

/** A redis-server for this run only, so its round-trip and command counts are the bench's alone. */
async function startOwnRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-bench-redis-'));
  const server = ownRedis({ port: await freePort(), dir, aof: false });
  await server.start();
  return {
    url: server.url,
    async stop() {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const int = (name: string, def: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.round(v) : def;
};

export interface ConversationBenchOptions {
  /** Updates a second offered to each setup, steady. */
  rate: number;
  /** Each chat's update every this many ms: a person's pace. The chats are rate × pace / 1000. */
  paceMs: number;
  /** Chats at that pace while Redis round trips are counted (a light load). */
  probeChats: number;
  /** Measured seconds, the two setups at the same time (each in its own process). */
  seconds: number;
  warmupSeconds: number;
  /** The measured stretch is also read in this many equal parts, to show how far the ratio moves. */
  windows: number;
  /** `http`: the fake Bot API over loopback; `local`: answered by a transformer in this process. */
  api: 'http' | 'local';
  /** Undefined: a redis-server of the benchmark's own (nothing else counts on it). */
  redisUrl?: string;
  /** A control run: the floor in both processes, so the ratio shows what this machine's noise reads. */
  control?: boolean;
  /** Runs, each in fresh processes (see `runConversationRuns`). */
  runs?: number;
  /** The stack's line and outbox in its process (BENCH_LINE=memory): what sharing them through Redis costs. */
  memoryLine?: boolean;
  /** Each setup's CPU between its wire events over the measured stretch (BENCH_PHASES=1; ./phases.ts). */
  phases?: boolean;
  /**
   * Promises and timers made per update over the measured stretch (BENCH_COUNTS=1): steadier than
   * CPU from one run to the next. The counting hook costs CPU of its own, so the CPU read in such a
   * run is not comparable with other runs'.
   */
  counts?: boolean;
}

export const conversationOptionsFromEnv = (): ConversationBenchOptions => ({
  rate: int('BENCH_RATE', 20),
  paceMs: int('BENCH_PACE_MS', 2000),
  probeChats: int('BENCH_PROBE_CHATS', 4),
  seconds: int('BENCH_SECONDS', 60),
  // At 20 updates a second V8 goes on compiling hot code for about two minutes (both setups: 439,
  // 235, 139, 53, then about 30 optimizations a 30 s part), and each setup's CPU per update falls by
  // about 40 % meanwhile: a running replica's cost is read after that.
  warmupSeconds: int('BENCH_WARMUP_SECONDS', 150),
  windows: int('BENCH_WINDOWS', 6),
  api: process.env.BENCH_API === 'local' ? 'local' : 'http',
  redisUrl: process.env.REDIS_URL,
  control: process.env.BENCH_CONTROL === '1',
  runs: int('BENCH_RUNS', 1),
  memoryLine: process.env.BENCH_LINE === 'memory',
  phases: process.env.BENCH_PHASES === '1',
  counts: process.env.BENCH_COUNTS === '1',
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
  /** Socket reads Redis processed: one per batch of commands a client sent (a round trip). */
  reads: number;
  /** The measured stretch in equal parts: the CPU spent and the updates begun in each. */
  windows: Array<{ cpuUs: number; updates: number }>;
  /** With a tracer: the CPU between wire events over the measured stretch. */
  phases?: PhaseSums;
  /** The same CPU split by thread (Linux only). */
  threads?: ThreadCpu;
  /** With BENCH_COUNTS: promises and timers made over the measured stretch. */
  made?: { promises: number; timers: number };
}

interface PhaseFigures {
  updates: number;
  errors: number;
  updatesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of this process (the bot) per update. */
  cpuUsPerUpdate: number;
  /** The same less what the process spends idle (both bots built, the benchmark's timers, no update). */
  netCpuUsPerUpdate: number;
  /** The same split: the main thread and the others (V8's compiler and GC helpers, libuv's pool). */
  threadsUsPerUpdate?: ThreadCpu;
  /** With BENCH_COUNTS: promises and timers made per update. */
  madePerUpdate?: { promises: number; timers: number };
  /** CPU of the fake Bot API's process per update (0 with BENCH_API=local). */
  apiCpuUsPerUpdate: number;
  /** CPU of redis-server per update (INFO cpu; the machine is assumed otherwise idle). */
  redisCpuUsPerUpdate: number;
  /** Redis commands per update by name (INFO commandstats deltas; commands run inside scripts count too). */
  redisCommands: Record<string, number>;
  /** Redis round trips per update (reads the server processed, less the background), at the light load. */
  redisRoundTrips: number;
  /** Bot API calls per update by method. */
  apiCalls: Record<string, number>;
  /** Latency at the light load (BENCH_PROBE_CHATS chats): a person's pace on a quiet bot. */
  lightP50Ms: number;
  lightP99Ms: number;
}

export interface ConversationBenchFigures {
  options: ConversationBenchOptions;
  stack: PhaseFigures;
  floor: PhaseFigures;
  /** Each setup's process's CPU per second with no update. */
  stackIdleUsPerSecond: number;
  floorIdleUsPerSecond: number;
  /** Stack over floor CPU per update in each part of the measured stretch, in order. */
  windowRatios: number[];
  /** Each setup's CPU per update (µs) in each part of the measured stretch, in order. */
  windowCpu: { stack: number[]; floor: number[] };
  /** Redis round trips a second with no update (the outbox's polling), taken off the per-update count. */
  backgroundReadsPerSecond: number;
  /** BENCH_PHASES: each setup's CPU between its wire events, and the updates it covers. */
  phases?: { stack: { sums: PhaseSums; updates: number }; floor: { sums: PhaseSums; updates: number } };
}

/** One cycle of every user: what a returning user does to look at the settings and go back. */
const CYCLE = [
  { kind: 'text', text: '/start' },
  { kind: 'button', data: 'menu:settings' },
  { kind: 'button', data: 'set:lang' },
  { kind: 'text', text: 'menu' },
] as const;

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
const median = (xs: number[]) =>
  percentile(
    [...xs].filter(Number.isFinite).sort((a, b) => a - b),
    50,
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ApiChild {
  proc: ChildProcess;
  url: string;
  token: string;
  botInfo: UserFromGetMe;
  /** Sends an IPC request; replies come back in order. */
  request<T>(msg: { cpu?: boolean; queries?: number }): Promise<T>;
}

async function startApiChild(): Promise<ApiChild> {
  const file = fileURLToPath(new URL('./bot-api-child.ts', import.meta.url));
  const proc = spawn(process.execPath, ['--import', 'tsx', file], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // Replies of each kind come back in order, but a CPU reading may overtake a batch of query ids.
  const waiting = { cpu: [] as Array<(v: unknown) => void>, queries: [] as Array<(v: unknown) => void> };
  proc.on('message', (m: { cpuUs?: number }) =>
    (m.cpuUs !== undefined ? waiting.cpu : waiting.queries).shift()?.(m),
  );
  const request = <T>(msg: { cpu?: boolean; queries?: number }) =>
    new Promise<T>((resolve) => {
      (msg.cpu ? waiting.cpu : waiting.queries).push(resolve as (v: unknown) => void);
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

/** One INFO (one command, one read) with the command counts, the reads and the CPU. */
async function redisSnapshot(admin: RedisClientType) {
  const info = await admin.info('everything');
  const num = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return {
    commands: commandStats(info),
    reads: num('total_reads_processed'),
    cpuUs: 1e6 * (num('used_cpu_user') + num('used_cpu_sys')),
  };
}

let nextUpdateId = 1;

function buildUpdate(
  chatId: number,
  step: (typeof CYCLE)[number],
  queryId: string | undefined,
  messageId = 1,
): Update {
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
      message: { message_id: messageId, date, chat, text: '…' },
    },
  } as Update;
}

/** Methods whose call is a reply the person sees (the first one after an update ends its wait). */
const REPLIES = new Set(['sendMessage', 'editMessageText']);

/**
 * Times replies: installed outermost on a bot, so a reply's call returns once the line let it go
 * and the Bot API answered. `expect(chat, t0)` opens a wait; the chat's first reply closes it.
 */
function replyClock(counts: (signal: unknown) => boolean = () => true) {
  const waiting = new Map<number, { t0: number; done: (ms: number) => void }>();
  /** Bot API calls by method (all of the setup's updates). */
  const calls = new Map<string, number>();
  /** The last message the bot put in each chat: the one a person taps a button under. */
  const shown = new Map<number, number>();
  const transformer: Transformer = async (prev, method, payload, signal) => {
    if (counts(signal)) calls.set(method, (calls.get(method) ?? 0) + 1);
    const res = await prev(method, payload, signal);
    const chat = Number((payload as { chat_id?: number | string }).chat_id);
    const id = (res as { result?: { message_id?: number } }).result?.message_id;
    if (REPLIES.has(method) && id) shown.set(chat, id);
    const w = REPLIES.has(method) ? waiting.get(chat) : undefined;
    if (w) {
      waiting.delete(chat);
      w.done(performance.now() - w.t0);
    }
    return res;
  };
  let updates = 0;
  const expect = (chat: number, t0: number) => {
    updates++;
    return new Promise<number | undefined>((done) => waiting.set(chat, { t0, done }));
  };
  /** Bot API calls per update by method, over every update the setup was given. */
  const callsPerUpdate = () =>
    Object.fromEntries([...calls].map(([m, c]) => [m, c / Math.max(updates, 1)])) as Record<string, number>;
  /** Ends a wait no reply closed (the update failed or sent nothing). */
  const cancel = (chat: number) => waiting.get(chat)?.done(Number.NaN);
  return { transformer, expect, cancel, callsPerUpdate, shownIn: (chat: number) => shown.get(chat) ?? 1 };
}
export type ReplyClock = ReturnType<typeof replyClock>;

/**
 * Offers `rate` updates a second for `warmupSeconds` then `seconds`: `rate × paceMs / 1000` chats,
 * their first taps spread evenly over one pace, each then tapping `paceMs` after its previous tap
 * (at once if its reply came later: a person waits for the answer). The sample covers the updates
 * begun inside the measured window; at its edges no update starts until those in flight have ended,
 * so the Redis reads and CPU counted are those updates' own (a read of an update begun before the
 * window, or after it, once made round trips look like 3.06 to 3.13 when each update made 3).
 */
async function drive(
  bot: Bot,
  clock: ReplyClock,
  load: { rate: number; paceMs: number; api: 'http' | 'local' },
  { seconds, warmupSeconds, windows = 1 }: { seconds: number; warmupSeconds: number; windows?: number },
  firstChatId: number,
  queries: ReturnType<typeof queryIdPool>,
  admin: RedisClientType,
  api: ApiChild,
  tracer?: PhaseTracer,
  counts = false,
): Promise<Sample> {
  const chats = Math.max(1, Math.round((load.rate * load.paceMs) / 1000));
  const latencies: number[] = [];
  let updates = 0;
  let begun = 0;
  let errors = 0;
  let measuring = false;
  let stopped = false;
  // The window's edges: no update is started (`held`) until those in flight have ended, so the
  // window's Redis reads and CPU are those of the updates counted in it, and of no other.
  let inFlight = 0;
  let held: { released: Promise<void>; release(): void } | undefined;
  let drained: (() => void) | undefined;
  const hold = async () => {
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    held = { released, release };
    if (inFlight > 0) await new Promise<void>((r) => (drained = r));
  };
  const unhold = () => {
    held?.release();
    held = undefined;
  };
  const user = async (i: number) => {
    const chatId = firstChatId + i;
    let next = performance.now() + (i * load.paceMs) / chats;
    for (let k = 0; !stopped; k++) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      while (held) await held.released;
      if (stopped) break;
      next += load.paceMs;
      inFlight++;
      const counted = measuring;
      if (counted) begun++;
      const step = CYCLE[k % CYCLE.length]!;
      const query = step.kind === 'button' ? await queries.take() : undefined;
      const update = buildUpdate(chatId, step, query, clock.shownIn(chatId));
      const t0 = performance.now();
      const replied = clock.expect(chatId, t0);
      let failed = false;
      tracer?.mark('update');
      try {
        await bot.handleUpdate(update);
      } catch {
        failed = true;
      }
      tracer?.mark('done');
      // A reply still on its way is waited for; an update that sent nothing has no latency.
      const timeout = setTimeout(() => clock.cancel(chatId), 30_000);
      const ms = await replied;
      clearTimeout(timeout);
      if (counted) {
        updates++;
        if (failed || ms === undefined || Number.isNaN(ms)) errors++;
        else latencies.push(ms);
      }
      if (--inFlight === 0) {
        drained?.();
        drained = undefined;
      }
    }
  };
  const apiCpu = async () =>
    load.api === 'http' ? (await api.request<{ cpuUs: number }>({ cpu: true })).cpuUs : 0;

  const running = Array.from({ length: chats }, (_, i) => user(i));
  await sleep(warmupSeconds * 1000);
  await hold();
  const [redis0, api0] = await Promise.all([redisSnapshot(admin), apiCpu()]);
  tracer?.start();
  const sites = process.env.BENCH_SITES ? promiseSites(int('BENCH_SITES', 6)) : undefined;
  const heap = process.env.BENCH_HEAP_PROF ? await heapSampling() : undefined;
  const made = { promises: 0, timers: 0 };
  const counter = counts
    ? createHook({
        init(_id, type) {
          if (type === 'PROMISE') made.promises++;
          else if (type === 'Timeout') made.timers++;
        },
      }).enable()
    : undefined;
  const threads0 = threadCpu();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  measuring = true;
  unhold();
  const parts: Sample['windows'] = [];
  for (let w = 0, cpuAt = cpu0, begunAt = 0; w < windows; w++) {
    await sleep((seconds * 1000) / windows);
    const c = process.cpuUsage(cpuAt);
    parts.push({ cpuUs: c.user + c.system, updates: begun - begunAt });
    cpuAt = process.cpuUsage();
    begunAt = begun;
  }
  measuring = false;
  await hold();
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const threads = threadCpuSince(threads0);
  counter?.disable();
  const kind = process.argv[2] ?? 'setup';
  if (sites) writeFileSync(join(tmpdir(), `rampchat-promise-sites-${kind}.txt`), sites.stop(begun));
  await heap?.stop(join(process.env.BENCH_HEAP_PROF!, kind), 'measured');
  const phases = tracer?.stop();
  const [redis1, api1] = await Promise.all([redisSnapshot(admin), apiCpu()]);
  stopped = true;
  unhold();
  await Promise.all(running);

  const commands = new Map<string, number>();
  for (const [name, calls] of redis1.commands) {
    // The first snapshot's INFO is counted once it has run; it is not the bot's.
    const delta = calls - (redis0.commands.get(name) ?? 0) - (name === 'info' ? 1 : 0);
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
    // The second snapshot's own read is counted before it answers.
    reads: redis1.reads - redis0.reads - 1,
    windows: parts,
    ...(phases ? { phases } : {}),
    ...(threads ? { threads } : {}),
    ...(counter ? { made } : {}),
  };
}

function summarize(
  samples: Sample[],
  probe: Sample,
  idleUsPerSecond: number,
  backgroundReadsPerSecond: number,
  apiCalls: Record<string, number>,
): PhaseFigures {
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
    netCpuUsPerUpdate: perUpdate(
      Math.max(
        0,
        sum((s) => s.cpuUs - idleUsPerSecond * s.seconds),
      ),
    ),
    ...(samples.every((s) => s.threads)
      ? {
          threadsUsPerUpdate: {
            mainUs: perUpdate(sum((s) => s.threads?.mainUs ?? 0)),
            helpersUs: perUpdate(sum((s) => s.threads?.helpersUs ?? 0)),
          },
        }
      : {}),
    ...(samples.every((s) => s.made)
      ? {
          madePerUpdate: {
            promises: perUpdate(sum((s) => s.made?.promises ?? 0)),
            timers: perUpdate(sum((s) => s.made?.timers ?? 0)),
          },
        }
      : {}),
    apiCpuUsPerUpdate: perUpdate(sum((s) => s.apiCpuUs)),
    redisCpuUsPerUpdate: perUpdate(sum((s) => s.redisCpuUs)),
    redisCommands,
    redisRoundTrips: probe.updates
      ? Math.max(0, probe.reads - backgroundReadsPerSecond * probe.seconds) / probe.updates
      : 0,
    apiCalls,
    lightP50Ms: percentile(
      [...probe.latencies].sort((a, b) => a - b),
      50,
    ),
    lightP99Ms: percentile(
      [...probe.latencies].sort((a, b) => a - b),
      99,
    ),
  };
}

/**
 * The floor: the least any stateful bot does per update, a bare grammY handler reading its state
 * (one GET), writing it back (one SET) and replying (one sendMessage), answering taps as any bot must.
 */
function floorBot(api: ApiChild, redis: RedisClientType, prefix: string, local: Transformer | undefined) {
  const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.url } });
  if (local) bot.api.config.use(local);
  const handle = async (ctx: Context, chatId: number) => {
    const key = `${prefix}floor:${chatId}`;
    const state = JSON.parse((await redis.get(key)) ?? '{"v":1,"n":0}') as { v: number; n: number };
    await redis.set(key, JSON.stringify({ ...state, n: state.n + 1, at: ctx.update.update_id }));
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

/** `control`: the floor again, in the stack's place (BENCH_CONTROL). */
type SetupKind = 'stack' | 'floor' | 'control';

/** What one setup's process reports: its figures, its idle CPU and its background round trips. */
export interface SetupResult {
  figures: PhaseFigures;
  idleUsPerSecond: number;
  backgroundReadsPerSecond: number;
  windows: Sample['windows'];
  phases?: PhaseSums;
}

/**
 * One setup, alone in this process with a Redis and a fake Bot API of its own (or REDIS_URL's):
 * built, its idle CPU read, then `go()` is awaited, so that the other setup's process can run its
 * load over the same seconds of the machine's.
 */
export async function runSetup(
  kind: SetupKind,
  opts: ConversationBenchOptions,
  go: () => Promise<void>,
): Promise<SetupResult> {
  const own = opts.redisUrl ? undefined : await startOwnRedis();
  const redisUrl = opts.redisUrl ?? (own?.url as string);
  const api = await startApiChild();
  const prefix = `bench:conv:${randomBytes(3).toString('hex')}:`;
  const admin = createClient({ url: redisUrl }) as RedisClientType;
  // As in src/app/core.ts: the store and the Telegram channel (its line and outbox) share one
  // client, made as production makes it; the floor's is made the same way, so that the two differ
  // only in what they do with it.
  const [redis] = await Promise.all([connectRedis({ url: redisUrl, name: kind }), admin.connect()]);
  const local = opts.api === 'local' ? localApi() : undefined;
  let stop = async () => {};
  try {
    const queries = queryIdPool(api);
    await queries.refill();
    let bot: Bot;
    let clock: ReplyClock;
    if (kind === 'stack') {
      const logger = createLogger({ level: 'warn' });
      const store = await createRedisStore({ client: redis, prefix, flowTtlSeconds: 86_400 });
      // No step of the cycle calls the ramp; a call would fail here and show as a logged error.
      const ramp = createRampClient({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'bench',
        apiSecret: 'bench',
        timeoutMs: 1_000,
      });
      const engine = createEngine({
        store,
        ramp,
        logger,
        config: { rateTolerancePct: 1, project: 'bench' },
      });
      const telegram = createTelegramChannel({
        token: api.token,
        conversation: engine,
        i18n: loadI18n(),
        logger,
        apiRoot: api.url,
        redis,
        redisPrefix: prefix,
        botInfo: api.botInfo,
        // As in production (src/app/channels.ts): the line's slots and the outbox in Redis
        // (BENCH_LINE=memory: in this process).
        ...(opts.memoryLine ? {} : { pacing: { redis } }),
      });
      engine.registerChannel(telegram.adapter);
      // As the channel's start does in production: the outbox's heartbeat and its look for chats
      // of dead replicas run from the start (a reply that goes straight never starts it).
      await telegram.pacing.outbox?.start();
      if (local) telegram.bot.api.config.use(local);
      // Installed last, so outermost: a reply is timed once the line let it go and the API answered.
      // A paced call passes the transformers twice, into the outbox and again out of it at its turn
      // (the pass that reaches the Bot API); each call is counted once, on its way in.
      clock = replyClock((signal) => ownCall(signal)?.scope.inTurn !== true);
      telegram.bot.api.config.use(clock.transformer);
      bot = telegram.bot;
      stop = async () => {
        await telegram.stop();
        await engine.idle();
      };
    } else {
      bot = floorBot(api, redis, prefix, local);
      clock = replyClock();
      bot.api.config.use(clock.transformer);
    }
    const load = { rate: opts.rate, paceMs: opts.paceMs, api: opts.api };
    // What the process spends with no update at all (the line's and clients' timers), per second.
    const idle0 = process.cpuUsage();
    const idleT0 = performance.now();
    await sleep(3000);
    const idleCpu = process.cpuUsage(idle0);
    const idleUsPerSecond = (idleCpu.user + idleCpu.system) / ((performance.now() - idleT0) / 1000);
    await go();
    const timing = { seconds: opts.seconds, warmupSeconds: opts.warmupSeconds, windows: opts.windows };
    const tracer = opts.phases
      ? tracePhases({ redis: Number(new URL(redisUrl).port || 6379), api: Number(new URL(api.url).port) })
      : undefined;
    const sample = await drive(
      bot,
      clock,
      load,
      timing,
      500_000_000,
      queries,
      admin,
      api,
      tracer,
      opts.counts,
    );
    // Round trips and a quiet bot's latency: a few chats at the same pace, their updates apart.
    const light = { ...load, rate: (opts.probeChats * 1000) / opts.paceMs };
    const probeTiming = { seconds: Math.max(8, opts.paceMs / 250), warmupSeconds: opts.paceMs / 1000 };
    // What Redis reads with no update at all (the outbox's look for chats left by other replicas,
    // every 2 s): not an update's, taken off the probe's count. Read over as long as the probe, a
    // whole number of those looks, so that neither count catches one look more than the other.
    const bg0 = await redisSnapshot(admin);
    const bgT0 = performance.now();
    await sleep(probeTiming.seconds * 1000);
    const bg1 = await redisSnapshot(admin);
    const backgroundReadsPerSecond =
      Math.max(0, bg1.reads - bg0.reads - 1) / ((performance.now() - bgT0) / 1000);
    const probe = await drive(bot, clock, light, probeTiming, 700_000_000, queries, admin, api);
    await stop();
    return {
      figures: summarize([sample], probe, idleUsPerSecond, backgroundReadsPerSecond, clock.callsPerUpdate()),
      idleUsPerSecond,
      backgroundReadsPerSecond,
      windows: sample.windows,
      ...(sample.phases ? { phases: sample.phases } : {}),
    };
  } finally {
    await deletePrefix(admin, prefix);
    await Promise.all([admin, redis].map((c) => c.quit()));
    api.proc.kill('SIGTERM');
    await own?.stop();
  }
}

/** A setup in a child process (./conversation-child.ts): `ready` once built, `go` to run. */
/** Both setups run with the flags the image runs the app with (its CMD), unless BENCH_NODE_FLAGS says. */
function setupNodeFlags(): string[] {
  const asked = process.env.BENCH_NODE_FLAGS;
  return asked === undefined ? imageNodeFlags() : asked.split(' ').filter(Boolean);
}

function setupChild(kind: SetupKind, opts: ConversationBenchOptions) {
  const file = fileURLToPath(new URL('./conversation-child.ts', import.meta.url));
  const prof = process.env.BENCH_CPU_PROF;
  // A folder each: the loader's thread writes a profile of its own.
  const profile = prof ? ['--cpu-prof', `--cpu-prof-dir=${join(prof, kind)}`] : [];
  const flags = setupNodeFlags();
  const proc = spawn(
    process.execPath,
    [...flags, ...profile, '--import', 'tsx', file, kind, JSON.stringify(opts)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = new Promise<void>((resolve, reject) => {
    proc.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    proc.once('exit', (code) => reject(new Error(`${kind} setup exited (${code}) before it was ready`)));
  });
  const result = new Promise<SetupResult>((resolve, reject) => {
    proc.on('message', (m: { result?: SetupResult }) => m.result && resolve(m.result));
    proc.once('exit', (code) => reject(new Error(`${kind} setup exited (${code}) without figures`)));
  });
  result.catch(() => {});
  return { ready, result, go: () => proc.send({ go: true }), kill: () => proc.kill('SIGTERM') };
}

/**
 * Both setups under the same load over the same seconds, each in a process of its own, so that
 * whatever else the machine does at the time weighs on both alike (taken in turns in one process,
 * two runs of the same code gave 1.31x and 1.71x). With REDIS_URL they share a server, and so take
 * turns: the server's counts would mix.
 */
export async function runConversationBench(
  opts: ConversationBenchOptions,
): Promise<ConversationBenchFigures> {
  const kinds: SetupKind[] = [opts.control ? 'control' : 'stack', 'floor'];
  const results: SetupResult[] = [];
  if (opts.redisUrl) {
    for (const kind of kinds) {
      const child = setupChild(kind, opts);
      await child.ready;
      child.go();
      results.push(await child.result);
    }
  } else {
    const children = kinds.map((kind) => setupChild(kind, opts));
    try {
      await Promise.all(children.map((c) => c.ready));
      for (const c of children) c.go();
      results.push(...(await Promise.all(children.map((c) => c.result))));
    } catch (err) {
      // One setup failed: the other is not left running on its own.
      for (const c of children) c.kill();
      throw err;
    }
  }
  const [stack, floor] = results as [SetupResult, SetupResult];
  return {
    options: opts,
    stack: stack.figures,
    floor: floor.figures,
    stackIdleUsPerSecond: stack.idleUsPerSecond,
    floorIdleUsPerSecond: floor.idleUsPerSecond,
    backgroundReadsPerSecond: stack.backgroundReadsPerSecond,
    windowRatios: stack.windows.map((w, i) => {
      const f = floor.windows[i];
      return f && w.updates && f.updates ? w.cpuUs / w.updates / (f.cpuUs / f.updates) : Number.NaN;
    }),
    windowCpu: {
      stack: stack.windows.map((w) => (w.updates ? w.cpuUs / w.updates : Number.NaN)),
      floor: floor.windows.map((w) => (w.updates ? w.cpuUs / w.updates : Number.NaN)),
    },
    ...(stack.phases && floor.phases
      ? {
          phases: {
            stack: { sums: stack.phases, updates: stack.figures.updates },
            floor: { sums: floor.phases, updates: floor.figures.updates },
          },
        }
      : {}),
  };
}

/** Bot CPU per update, stack over floor. */
const cpuRatio = (f: ConversationBenchFigures) =>
  f.stack.cpuUsPerUpdate / Math.max(f.floor.cpuUsPerUpdate, 1e-9);

/**
 * `runs` runs, each in fresh processes: the ratio moves more from one pair of processes to the next
 * (where the scheduler puts them on two cores) than within one run, and more for the heavier stack
 * (with BENCH_LINE=memory it read from 1.00x to 1.77x in nine runs on 2026-11-29).
 */
export async function runConversationRuns(
  opts: ConversationBenchOptions,
): Promise<ConversationBenchFigures[]> {
  const all: ConversationBenchFigures[] = [];
  for (let i = 0; i < Math.max(1, opts.runs ?? 1); i++) all.push(await runConversationBench(opts));
  return all;
}

/** The median run in full, after it each run's ratio. */
export function formatConversationRuns(all: ConversationBenchFigures[]): string {
  const byRatio = [...all].sort((a, b) => cpuRatio(a) - cpuRatio(b));
  const mid = byRatio[Math.floor((byRatio.length - 1) / 2)]!;
  const text = formatConversationFigures(mid);
  if (all.length < 2) return text;
  const ratios = all.map((f) => `${cpuRatio(f).toFixed(2)}x`).join(', ');
  return `${text}\n  CPU ratio by run       ${ratios}, each in fresh processes; the figures above are the median run's (${cpuRatio(mid).toFixed(2)}x)`;
}

export function formatConversationFigures(f: ConversationBenchFigures): string {
  const n = (x: number, d = 0) =>
    x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
  const row = (name: string, p: PhaseFigures) =>
    `  ${name.padEnd(22)} ${n(p.updatesPerSecond, 1).padStart(6)} /s  reply p50 ${n(p.p50Ms, 1).padStart(6)} ms  p99 ${n(p.p99Ms, 1).padStart(6)} ms  (quiet bot: p50 ${n(p.lightP50Ms, 1)} ms, p99 ${n(p.lightP99Ms, 1)} ms)  CPU bot ${n(p.cpuUsPerUpdate).padStart(5)} µs (${n(p.netCpuUsPerUpdate).padStart(5)} µs over idle${p.threadsUsPerUpdate ? `; main thread ${n(p.threadsUsPerUpdate.mainUs)}, other threads ${n(p.threadsUsPerUpdate.helpersUs)}` : ''}), Bot API ${n(p.apiCpuUsPerUpdate).padStart(4)} µs, Redis ${n(p.redisCpuUsPerUpdate).padStart(4)} µs per update  Redis ${n(p.redisRoundTrips, 2)} round trips, ${n(total(p.redisCommands), 2)} cmds/update  (${n(p.updates)} updates, ${p.errors} errors)`;
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
    `Conversation benchmark: ${n(o.rate)} updates/s offered to each setup, ${n((o.rate * o.paceMs) / 1000)} chats each tapping every ${n(o.paceMs / 1000, 1)} s through "/start", [Settings], [Language], "menu"; ${o.seconds} s measured after ${o.warmupSeconds} s warm-up, ${o.redisUrl ? 'the setups in turn (REDIS_URL: one server)' : 'the setups at the same time, each in its own process with its own Redis and Bot API'}; round trips and the quiet bot's latency with ${o.probeChats} chats`,
    `  Bot API: ${o.api === 'http' ? 'the fake Bot API in a child process over loopback HTTP' : 'answered in-process by a grammY transformer (both setups)'}; no ramp calls; Node flags of both setups: ${setupNodeFlags().join(' ') || 'none'}`,
    row(
      o.control ? 'control (the floor)' : o.memoryLine ? 'stack, line in memory' : 'stack (grammY+engine)',
      f.stack,
    ),
    row('floor (GET+SET+send)', f.floor),
    `  ${o.control ? 'control / floor' : 'stack / floor  '}        rate ${ratio(f.stack.updatesPerSecond, f.floor.updatesPerSecond)}, p50 ${ratio(f.stack.p50Ms, f.floor.p50Ms)}, p99 ${ratio(f.stack.p99Ms, f.floor.p99Ms)}, bot CPU per update ${ratio(f.stack.cpuUsPerUpdate, f.floor.cpuUsPerUpdate, 2)} (over idle ${ratio(f.stack.netCpuUsPerUpdate, f.floor.netCpuUsPerUpdate, 2)}; idle ${n(f.stackIdleUsPerSecond / 1000, 1)} and ${n(f.floorIdleUsPerSecond / 1000, 1)} ms of CPU a second), Redis round trips ${ratio(f.stack.redisRoundTrips, f.floor.redisRoundTrips, 2)}`,
    `  CPU ratio by ${n(o.seconds / o.windows, 1)} s part  ${f.windowRatios.map((r) => `${n(r, 2)}x`).join(', ')} (median ${n(median(f.windowRatios), 2)}x): how far one stretch of the machine's time moves it`,
    `  CPU µs per update by part  stack ${f.windowCpu.stack.map((v) => n(v)).join(', ')}; floor ${f.windowCpu.floor.map((v) => n(v)).join(', ')}`,
    `  background             ${n(f.backgroundReadsPerSecond, 2)} Redis round trips a second with no update (the outbox's heartbeat and look for orphaned chats), not counted per update`,
    "  targets                bot CPU per update at most 1.3x the floor; reply p99 at a person's pace at most 300 ms; at most 3 Redis round trips",
    `  Redis per update       stack: ${breakdown(f.stack.redisCommands)}`,
    `                         floor: ${breakdown(f.floor.redisCommands)}`,
    '                         (commandstats counts the commands a Lua script runs, and MULTI/EXEC around a pipelined pair)',
    ...(f.stack.madePerUpdate && f.floor.madePerUpdate
      ? [
          `  made per update        stack: ${n(f.stack.madePerUpdate.promises, 1)} promises, ${n(f.stack.madePerUpdate.timers, 1)} timers; floor: ${n(f.floor.madePerUpdate.promises, 1)} promises, ${n(f.floor.madePerUpdate.timers, 1)} timers (BENCH_COUNTS: its hook's CPU is in this run's figures)`,
        ]
      : []),
    `  Bot API per update     stack: ${breakdown(f.stack.apiCalls)}`,
    `                         floor: ${breakdown(f.floor.apiCalls)}`,
    ...(f.phases ? formatPhases(f.phases.stack, f.phases.floor) : []),
  ].join('\n');
}
