/**
 * `npm run burst`: many users at once against a fake Bot API that enforces Telegram's flood limits
 * (30 messages a second per bot, about one a second per private chat, 20 a minute per group; 429
 * with `retry_after` beyond them). The whole app runs as it ships (`src/main.ts` processes on a
 * redis-server of this run's own, the ramp sandbox over HTTP): one process in long polling, or
 * replicas in webhook mode behind a round-robin balancer.
 *
 * N users buy at once (one-line /buy, then Confirm as soon as the summary shows); once every STK
 * message is out, their payments settle together and the tracker's messages drain. A probe user
 * asks for the menu about once a second all along. Then, optionally, M users ask for a person at
 * once (the support burst). Printed: drain time against the physical limit for the messages it
 * needed, 429s, messages lost, the probe's p50/p99, and for support when each user was told and
 * how fast the support group was written to.
 *
 * Settings (env): BURST_USERS (300), BURST_MODE (poll | webhook), BURST_REPLICAS (3, webhook),
 * BURST_SUPPORT (0: the number of support cases at once), BURST_PROBES (3), BURST_TIMEOUT_MS (240000), BURST_APP_DIR
 * (another checkout's app, to compare), BURST_APP_<NAME> (the app's setting <NAME>).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { FakeTelegramBotApi, type RecordedCall } from '../test/fakes/telegram-bot-api.js';
import { freePort, ownRedis } from '../test/helpers/redis-server.js';
import { appEnv, sleep, spawnApp, startBalancer } from './harness.js';

export interface BurstOptions {
  users: number;
  mode: 'poll' | 'webhook';
  replicas: number;
  /** Support cases opened at once after the buys (0: none). */
  support: number;
  timeoutMs: number;
  /** Probe users, each asking for the menu about once a second (default 1). */
  probes?: number;
  /** Extra env for the app processes (e.g. settings a test needs). */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface BurstFigures {
  users: number;
  mode: string;
  replicas: number;
  /** Users who never saw the summary, the STK message, or "Done". */
  lostSummaries: number;
  lostStk: number;
  lostDone: number;
  /** Counted sends (went through) and 429s, over the whole run. */
  sends: number;
  refusals: number;
  /** The drain after the payments settled: its messages, first to last send, and the physical limit. */
  drainMessages: number;
  drainSeconds: number;
  drainLimitSeconds: number;
  /** Of the drain's messages, those sent as paid broadcast (0.1 Star each; at up to 1000 a second). */
  drainPaid: number;
  /** From letting the payments settle to the last "Done". */
  settleToLastDoneSeconds: number;
  probeP50Ms: number;
  probeP99Ms: number;
  probeDrainP99Ms: number;
  probeSamples: number;
  /** Probe asks that never got their menu, not even late, by the end of the run. */
  probeUnanswered: number;
  /** Each ask paired with its chat's menus in order: the slowest, and the asks answered after the probe's 30 s. */
  probeSlowestMs: number;
  probeLate: number;
  support?: {
    cases: number;
    toldP50Ms: number;
    toldMaxMs: number;
    toldMissing: number;
    topics: number;
    topicsSeconds: number;
    groupPeakPerMinute: number;
  };
  seconds: number;
}

const TOKEN = '525252525:burst-run-bot-token-not-real';
const SECRET = 'burst_webhook_secret_0123456789_abcdef';
const SUPPORT_CHAT = -1009990002;
const AGENT = 5252;
/** The probe users' chats (BURST_PROBES of them, each asking about once a second, staggered). */
const PROBE = 999_000;
const isProbe = (chat: number) => chat >= PROBE && chat < PROBE + 100;

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};

type Markup = { inline_keyboard?: Array<Array<{ callback_data?: string }>> };

/** Runs the burst and returns its figures. */
export async function runBurst(o: BurstOptions): Promise<BurstFigures> {
  const started = Date.now();
  const log = (msg: string) => o.log?.(`+${((Date.now() - started) / 1000).toFixed(1)} s ${msg}`);
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-burst-'));
  const redis = ownRedis({ port: await freePort(), dir, aof: false });
  await redis.start();
  const sandbox = await startSandbox({ port: 0, settleMs: 500 });
  sandbox.holdSettlements(true);
  const fake = await FakeTelegramBotApi.start({ token: TOKEN, floodLimits: true });
  fake.setChat({ id: SUPPORT_CHAT, type: 'supergroup', title: 'Support', is_forum: true });
  fake.setChatMember(SUPPORT_CHAT, AGENT, 'member');

  const replicas = o.mode === 'poll' ? 1 : Math.max(1, o.replicas);
  const ports: number[] = [];
  for (let i = 0; i < replicas; i++) ports.push(await freePort());
  const alive = new Set<number>();
  const balancer = await startBalancer(() => ports.filter((_, i) => alive.has(i)));
  const children: ChildProcess[] = [];
  for (let i = 0; i < replicas; i++) {
    const env = appEnv(
      {
        port: ports[i] as number,
        redisUrl: redis.url,
        token: TOKEN,
        botApi: fake.url,
        ...(o.mode === 'webhook'
          ? { webhook: { url: `${balancer.url}/telegram/webhook`, secret: SECRET } }
          : {}),
        publicUrl: balancer.url,
        ramp: { url: sandbox.url, apiKey: sandbox.options.apiKey, apiSecret: sandbox.options.apiSecret },
        supportChat: SUPPORT_CHAT,
        agent: AGENT,
        dataDir: join(dir, 'journal'),
        logLevel: process.env.BURST_LOG_LEVEL,
      },
      { POLL_INTERVAL_MS: '1000', ...o.env },
    );
    // BURST_APP_DIR runs another checkout's app against the same fakes (e.g. the code before a change).
    const cwd = process.env.BURST_APP_DIR;
    children.push(
      await spawnApp(env, {
        port: ports[i] as number,
        cwd,
        inheritStderr: Boolean(process.env.BURST_LOG_LEVEL),
      }),
    );
    alive.add(i);
  }
  if (o.mode === 'poll') await sleep(1500); // the first long poll
  log(`${replicas} ${o.mode === 'poll' ? 'process in long polling' : 'webhook replicas'} up`);

  // Telegram redelivers a webhook update that was not answered with 2xx.
  const deliver = async (inject: () => number) => {
    const id = inject();
    if (o.mode === 'poll') return;
    for (let attempt = 0, made = 1; attempt < 40; attempt++) {
      await sleep(attempt === 0 ? 100 : Math.min(3_000, 300 * attempt));
      const tries = fake.webhookDeliveries.filter((d) => d.updateId === id);
      if (tries.some((d) => d.status >= 200 && d.status < 300)) return;
      if (tries.length >= made) {
        made += 1;
        fake.redeliver(id);
      }
    }
  };

  // The probes: each asks for the menu about once a second; the answer is the next message to its
  // chat. Several, staggered, so the p99 while the burst drains rests on over a hundred asks.
  const probe: Array<{ at: number; ms: number }> = [];
  const probeAsks = new Map<number, number[]>();
  let probing = true;
  const probeOnce = async (chat: number) => {
    while (probing) {
      const sentAt = Date.now();
      const answered = new Promise<void>((resolve) => {
        const stop = fake.onCall((c: RecordedCall) => {
          if (c.method === 'sendMessage' && Number(c.payload.chat_id) === chat && c.response?.ok) {
            stop();
            resolve();
          }
        });
        setTimeout(() => {
          stop();
          resolve();
        }, 30_000);
      });
      probeAsks.set(chat, [...(probeAsks.get(chat) ?? []), sentAt]);
      void deliver(() => fake.sendText(chat, '/menu'));
      await answered;
      probe.push({ at: sentAt, ms: Date.now() - sentAt });
      await sleep(Math.max(0, 1000 - (Date.now() - sentAt)));
    }
  };
  const probeLoop = Promise.all(
    Array.from({ length: Math.max(1, o.probes ?? 1) }, async (_, i) => {
      await sleep((1000 * i) / Math.max(1, o.probes ?? 1));
      await probeOnce(PROBE + i);
    }),
  );

  // Users: each buys once for their own number.
  const users = Array.from({ length: o.users }, (_, i) => ({
    chat: 700_000 + i,
    // Numbers ending in 5678: the sandbox settles them (0001-0003 fail, hang or cancel).
    phone: `07${String(i).padStart(4, '0')}5678`,
    wallet: `0x${(i + 1).toString(16).padStart(40, '0')}`,
    confirmed: false,
    stk: false,
  }));
  const has = (chat: number, re: RegExp) => fake.peekMessages(chat).some((m) => re.test(m.text));
  const confirmOf = (chat: number) => {
    for (const m of [...fake.peekMessages(chat)].reverse()) {
      const b = (m.reply_markup as Markup | undefined)?.inline_keyboard
        ?.flat()
        .find((x) => x.callback_data?.includes(':confirm:'));
      if (b) return { id: m.message_id, data: b.callback_data as string };
    }
    return undefined;
  };
  const buyEnd = Date.now() + o.timeoutMs;
  log(`${o.users} users buy at once`);
  await Promise.all(
    users.map(async (u) => {
      await deliver(() => fake.sendText(u.chat, `/buy 500 USDT polygon ${u.wallet} ${u.phone}`));
      let confirm = confirmOf(u.chat);
      while (!confirm && Date.now() < buyEnd) {
        await sleep(500);
        confirm = confirmOf(u.chat);
      }
      if (!confirm) return;
      u.confirmed = true;
      await deliver(() => fake.pressButton(u.chat, confirm.id, confirm.data));
      while (!has(u.chat, /Waiting for your M-Pesa payment/) && Date.now() < buyEnd) await sleep(500);
      u.stk = has(u.chat, /Waiting for your M-Pesa payment/);
    }),
  );
  log(
    `${users.filter((u) => u.confirmed).length} confirmed, ${users.filter((u) => u.stk).length} STK messages`,
  );

  // The payments settle together; the drain is every message sent from then on until the last "Done".
  const settledAt = Date.now();
  const callsBefore = fake.calls.length;
  sandbox.holdSettlements(false);
  const doneEnd = Date.now() + o.timeoutMs;
  const done = new Map<number, number>();
  const expecting = users.filter((u) => u.confirmed);
  while (done.size < expecting.length && Date.now() < doneEnd) {
    for (const u of expecting) if (!done.has(u.chat) && has(u.chat, /Done!/)) done.set(u.chat, Date.now());
    await sleep(250);
  }
  const lastDone = Math.max(settledAt, ...done.values());
  const drainCalls = fake.calls
    .slice(callsBefore)
    .filter((c) => c.response?.ok && !isProbe(Number(c.payload.chat_id)) && c.at <= lastDone + 250)
    .filter((c) => ['sendMessage', 'editMessageText', 'editMessageReplyMarkup'].includes(c.method));
  const drainPaid = drainCalls.filter((c) => c.payload.allow_paid_broadcast === true).length;
  const drainFirst = drainCalls[0]?.at ?? settledAt;
  const drainLast = drainCalls.at(-1)?.at ?? settledAt;
  // The probes' answers in the same time share the bot's rate: they count in the physical limit.
  const probeSends = fake.calls.filter(
    (c) =>
      c.response?.ok &&
      c.method === 'sendMessage' &&
      isProbe(Number(c.payload.chat_id)) &&
      c.at >= drainFirst &&
      c.at <= drainLast,
  ).length;
  log(
    `${done.size} of ${expecting.length} told "Done" ${((lastDone - settledAt) / 1000).toFixed(1)} s after settling`,
  );

  // The support burst: M users ask for a person at once.
  let support: BurstFigures['support'];
  if (o.support > 0) {
    const askers = users.slice(0, o.support);
    const asked = Date.now();
    const groupBefore = fake.calls.length;
    const told: number[] = [];
    await Promise.all(
      askers.map(async (u) => {
        const before = fake.peekMessages(u.chat).length;
        const at = Date.now();
        await deliver(() => fake.sendText(u.chat, '/support'));
        const end = Date.now() + o.timeoutMs;
        while (Date.now() < end) {
          if (
            fake
              .peekMessages(u.chat)
              .slice(before)
              .some((m) => /support/i.test(m.text))
          ) {
            told.push(Date.now() - at);
            return;
          }
          await sleep(100);
        }
      }),
    );
    const topicsEnd = Date.now() + o.timeoutMs * 3;
    while (fake.forumTopics(SUPPORT_CHAT).length < askers.length && Date.now() < topicsEnd) await sleep(500);
    const group = fake.calls
      .slice(groupBefore)
      .filter((c) => Number(c.payload.chat_id) === SUPPORT_CHAT && c.response?.ok);
    let peak = 0;
    for (let i = 0, j = 0; i < group.length; i++) {
      while ((group[i] as RecordedCall).at - (group[j] as RecordedCall).at >= 60_000) j++;
      peak = Math.max(peak, i - j + 1);
    }
    support = {
      cases: askers.length,
      toldP50Ms: quantile(told, 0.5),
      toldMaxMs: told.length ? Math.max(...told) : Number.NaN,
      toldMissing: askers.length - told.length,
      topics: fake.forumTopics(SUPPORT_CHAT).length,
      topicsSeconds: (Date.now() - asked) / 1000,
      groupPeakPerMinute: peak,
    };
    log(`support: ${support.topics} topics, users told in ${support.toldP50Ms} ms (p50)`);
  }

  probing = false;
  await probeLoop;
  // An ask past the probe's 30 s is timed as 30 s and the probe asks again; its menu must still come.
  const probeAnswers = (chat: number) =>
    fake.calls.filter(
      (c) => c.method === 'sendMessage' && c.response?.ok && Number(c.payload.chat_id) === chat,
    );
  const unanswered = () =>
    [...probeAsks].reduce((n, [chat, asks]) => n + Math.max(0, asks.length - probeAnswers(chat).length), 0);
  const answersEnd = Date.now() + 60_000;
  while (unanswered() > 0 && Date.now() < answersEnd) await sleep(500);
  // A chat's menus go out in the order asked (the line keeps each chat's order): the k-th answers the k-th ask.
  const answerMs = [...probeAsks].flatMap(([chat, asks]) =>
    probeAnswers(chat)
      .slice(0, asks.length)
      .map((c, k) => c.at - (asks[k] as number)),
  );
  const counted = fake.floodCounted;
  if (process.env.BURST_DEBUG)
    for (const c of fake.calls.filter((x) => x.response?.error_code === 429)) {
      const chat = Number(c.payload.chat_id);
      const around = fake.calls
        .filter((x) => Number(x.payload.chat_id) === chat && Math.abs(x.at - c.at) < 5000)
        .map(
          (x) =>
            `${x.method}${x.response?.ok ? '' : ` ${x.response?.error_code}`} +${((x.at - started) / 1000).toFixed(2)}`,
        );
      log(`429 in chat ${chat}: ${around.join(', ')}`);
      const win = fake.calls.filter(
        (x) =>
          x.response?.ok &&
          x.at > c.at - 1000 &&
          x.at <= c.at &&
          x.method !== 'answerCallbackQuery' &&
          x.method !== 'getUpdates',
      );
      log(
        `  the second before: ${win.length} sends: ${win.map((x) => `${x.method[0]}${x.at - c.at + 1000}`).join(' ')}`,
      );
    }
  const figures: BurstFigures = {
    users: o.users,
    mode: o.mode,
    replicas,
    lostSummaries: users.filter((u) => !u.confirmed).length,
    lostStk: users.filter((u) => u.confirmed && !u.stk).length,
    lostDone: expecting.length - done.size,
    sends: counted,
    refusals: fake.floodRefusals,
    drainMessages: drainCalls.length,
    drainSeconds: (drainLast - drainFirst) / 1000,
    drainLimitSeconds: (drainCalls.length - drainPaid + probeSends) / 30 + drainPaid / 1000,
    drainPaid,
    settleToLastDoneSeconds: (lastDone - settledAt) / 1000,
    probeP50Ms: quantile(
      probe.map((p) => p.ms),
      0.5,
    ),
    probeP99Ms: quantile(
      probe.map((p) => p.ms),
      0.99,
    ),
    probeDrainP99Ms: quantile(
      probe.filter((p) => p.at >= settledAt && p.at <= lastDone).map((p) => p.ms),
      0.99,
    ),
    probeSamples: probe.length,
    probeUnanswered: unanswered(),
    probeSlowestMs: answerMs.length ? Math.max(...answerMs) : Number.NaN,
    probeLate: answerMs.filter((ms) => ms > 30_000).length,
    ...(support ? { support } : {}),
    seconds: Math.round((Date.now() - started) / 1000),
  };

  for (const child of children) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  await balancer.close();
  await fake.close();
  await sandbox.close();
  await redis.kill();
  return figures;
}

/** The targets of issue #21: nothing lost (the probes' menus included), under 1 % 429s, drain within 1.2x, probe p99 under 1.5 s. */
export function burstTargetsHold(f: BurstFigures): boolean {
  return (
    f.lostSummaries + f.lostStk + f.lostDone + f.probeUnanswered === 0 &&
    f.refusals < 0.01 * (f.sends + f.refusals) &&
    f.drainSeconds <= 1.2 * f.drainLimitSeconds + 1 &&
    f.probeDrainP99Ms < 1500 &&
    (!f.support ||
      (f.support.toldMissing === 0 &&
        f.support.topics === f.support.cases &&
        f.support.groupPeakPerMinute <= 20))
  );
}

export function formatBurstFigures(f: BurstFigures): string {
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(2)} %`;
  const lines = [
    `burst ${burstTargetsHold(f) ? 'PASS' : 'FAIL'}: ${f.users} users, ${f.mode === 'poll' ? '1 process in long polling' : `${f.replicas} webhook replicas`}, ${f.seconds} s`,
    `  messages lost: ${f.lostSummaries} summaries, ${f.lostStk} STK messages, ${f.lostDone} "Done", ${f.probeUnanswered} probe menus`,
    `  sends ${f.sends}, 429s ${f.refusals} (${pct(f.refusals, f.sends + f.refusals)} of tries)`,
    `  drain: ${f.drainMessages} messages${f.drainPaid ? ` (${f.drainPaid} paid, ${(f.drainPaid / 10).toFixed(1)} Stars)` : ''} in ${f.drainSeconds.toFixed(1)} s, physical limit ${f.drainLimitSeconds.toFixed(1)} s (${(f.drainSeconds / Math.max(0.001, f.drainLimitSeconds)).toFixed(2)}x); last "Done" ${f.settleToLastDoneSeconds.toFixed(1)} s after the payments settled`,
    `  probe (/menu, ${f.probeSamples} asks): p50 ${f.probeP50Ms} ms, p99 ${f.probeP99Ms} ms over the run, p99 ${f.probeDrainP99Ms} ms while the burst drained; slowest menu ${(f.probeSlowestMs / 1000).toFixed(1)} s (${f.probeLate} after the probe's 30 s, counted as 30 s above)`,
  ];
  if (f.support)
    lines.push(
      `  support: ${f.support.cases} cases at once, users told p50 ${f.support.toldP50Ms} ms, max ${f.support.toldMaxMs} ms, ${f.support.toldMissing} not told; ${f.support.topics} topics in ${f.support.topicsSeconds.toFixed(0)} s, group peak ${f.support.groupPeakPerMinute} a minute`,
    );
  return lines.join('\n');
}

export function burstOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): BurstOptions {
  const n = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(v) && v >= 0 ? v : fallback;
  };
  return {
    users: n('BURST_USERS', 300),
    mode: env.BURST_MODE === 'webhook' ? 'webhook' : 'poll',
    replicas: n('BURST_REPLICAS', 3),
    support: n('BURST_SUPPORT', 0),
    probes: n('BURST_PROBES', 3),
    timeoutMs: n('BURST_TIMEOUT_MS', 240_000),
    // BURST_APP_<NAME>=v sets the app's <NAME>=v (e.g. BURST_APP_TRACKER_CONCURRENCY=1000).
    env: Object.fromEntries(
      Object.entries(env)
        .filter(([k, v]) => k.startsWith('BURST_APP_') && v !== undefined)
        .map(([k, v]) => [k.slice('BURST_APP_'.length), v as string]),
    ),
  };
}

if (process.argv[1]?.endsWith('burst.ts')) {
  const o = { ...burstOptionsFromEnv(), log: (l: string) => process.stderr.write(`[burst] ${l}\n`) };
  const figures = await runBurst(o);
  console.log(formatBurstFigures(figures));
  process.exit(burstTargetsHold(figures) ? 0 : 1);
}
