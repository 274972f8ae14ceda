/**
 * `npm run chaos`: the whole app under faults, checked from the outside. N replicas (`npm start`
 * processes in Telegram webhook mode) behind a round-robin balancer share one redis-server of this
 * run's own; the ramp sandbox runs behind a fault proxy (5xx before and after forwarding, hangs past
 * RAMP_TIMEOUT_MS, bodies that are not JSON); the fake Bot API plays Telegram (redelivering what a
 * replica did not acknowledge, and answering some sends with 429). Simulated users buy with a
 * one-line /buy and Confirm, some double-tapping or getting an update redelivered. Replicas are
 * SIGKILLed and restarted; Redis is restarted once (with AOF, or empty with CHAOS_REDIS=empty), or
 * with CHAOS_REDIS=sentinel the app runs on a primary, a replica and three Sentinels and the primary
 * is SIGKILLed once: the Sentinels promote the replica (writes not yet replicated are lost) and a
 * probe user's /menu must be answered again within 10 s of the promotion.
 * Sellers (CHAOS_SELLERS, a share of the users, 0.4 by default) sell beside them on a dev chain whose
 * RPC is behind faults of its own (./chaos-sellers.ts).
 *
 * Checked from outside, printed on one line:
 * - STK pushes per confirmed user (never more than one);
 * - releases per order (never more than one successful);
 * - every on-ramp order the sandbox created ends in a final chat message or a support case;
 * - no replica exited on its own;
 * - every deposit that reached the escrow ends in an off-ramp order or a support case naming it
 *   (none stranded), no sale is filed twice, and every seller who deposited gets a final message.
 * Exit code 0 when the targets hold, 1 otherwise. Settings (env): CHAOS_USERS (150), CHAOS_MODE
 * (webhook | poll: one process in long polling), CHAOS_REPLICAS
 * (3), CHAOS_KILLS (3), CHAOS_REDIS (aof | empty | sentinel), CHAOS_SETTLE_MS (240000), CHAOS_SEED.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '../src/sandbox/index.js';
import { FakeTelegramBotApi } from '../test/fakes/telegram-bot-api.js';
import { freePort, ownRedis } from '../test/helpers/redis-server.js';
import { type SentinelSet, startSentinelSet } from '../test/helpers/sentinel-set.js';
import { type DeskFigures, startDeskTraffic } from './chaos-desk.js';
import {
  algorandRequest,
  depositAndReport,
  linkAnswers,
  linkIn,
  makeSellers,
  payOnAlgorand,
  type RpcFaults,
  type SellChain,
  type Seller,
  type SellerMode,
  sellFinalText,
  startSellChain,
} from './chaos-sellers.js';
import { appEnv, forward, prng, readBody, sleep, spawnApp, startBalancer } from './harness.js';

export interface ChaosOptions {
  users: number;
  /** Webhook replicas behind the balancer, or one process in long polling (default webhook). */
  mode?: 'webhook' | 'poll';
  replicas: number;
  kills: number;
  redisMode: 'aof' | 'empty' | 'sentinel';
  settleMs: number;
  seed: number;
  /** A buy still unfinished this long goes to support (ONRAMP_HORIZON_MS; default 90 s). */
  onrampHorizonMs?: number;
  /**
   * How long work a killed replica left is given before another takes it over: a sale's filing
   * without an outcome (SELL_FILING_STALE_MS), a release or final message (TRACKER_CLAIM_STALE_MS).
   * Default 30 s, 15 times the ramp timeout here (production: 120 s, 8 times its 15 s), so the dead
   * replica's call has ended at the ramp.
   */
  staleMs?: number;
  /** Fault rates of the ramp proxy. */
  faults: { error5xx: number; hang: number; garbage: number };
  /** Share of the users who sell instead of buying (default 0). */
  sellers?: number;
  /** Fault rates of the chain's RPC proxy (default: the ramp's, and 5% of unknown transactions). */
  rpcFaults?: RpcFaults;
  /** Users talking to the support desk meanwhile, each writing `lines` lines an agent answers. */
  desk?: { users: number; lines: number };
  log?: (line: string) => void;
}

export interface ChaosFigures extends DeskFigures {
  users: number;
  confirmed: number;
  stkPushes: number;
  duplicatePushes: number;
  orders: number;
  releases: number;
  doubleReleases: number;
  ordersWithoutEnding: string[];
  finalMessages: number;
  supportCases: number;
  unplannedExits: number;
  /** Users whose /buy never got any answer (an update lost, e.g. acknowledged before it was handled). */
  unanswered: number;
  kills: number;
  redisRestarts: number;
  proxied: number;
  faultsInjected: number;
  webhookRedeliveries: number;
  sellers: number;
  sellersConfirmed: number;
  /** Deposits that reached the escrow, and how each seller reported it. */
  deposits: number;
  depositsByMode: Record<SellerMode, number>;
  /** Of the deposits, payments on Algorand (found by their note). */
  algorandDeposits: number;
  sellOrders: number;
  /** Deposits with neither an off-ramp order nor a support case naming them. */
  strandedDeposits: string[];
  /** Sales with more than one off-ramp order (a deposit filed twice). */
  doubleFilings: number;
  /** Sellers whose deposit reached the escrow but who got no final message. */
  sellersWithoutFinal: number[];
  /** Answers of 404 to a seller's valid signing link. */
  linksNotFound: number;
  /** Webhook deliveries answered 404 (a replica listening before its routes existed). */
  halfWired: number;
  rpcProxied: number;
  rpcFaults: number;
  /** Replicas stopped with SIGTERM (every other kill), and those that did not exit 0 within the grace. */
  sigterms: number;
  badStops: string[];
  /** CHAOS_REDIS=sentinel: from the primary's SIGKILL to the promotion, and from it to the probe's answer (ms). */
  failover?: { promotionMs: number; answerMs?: number };
  seconds: number;
}

const TOKEN = '424242424:chaos-run-bot-token-not-real';
const SECRET = 'chaos_webhook_secret_0123456789_abcdef';
const SUPPORT_CHAT = -1009990001;
const AGENT = 4242;
const RAMP_TIMEOUT_MS = 2_000;
/** The replicas' SHUTDOWN_TIMEOUT_MS: a SIGTERM must end in exit 0 within it. */
const GRACE_MS = 5_000;

/** The ramp behind faults: some before the sandbox sees the call, some after it acted on it. */
async function startFaultProxy(target: number, rate: ChaosOptions['faults'], random: () => number) {
  const counts = { proxied: 0, faults: 0 };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    counts.proxied += 1;
    const body = await readBody(req);
    const roll = random();
    const after = random() < 0.5;
    if (roll < rate.error5xx && !after) {
      counts.faults += 1;
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end('{"error":"Service unavailable"}');
    }
    const answer = await forward(target, req, body);
    if (roll < rate.error5xx) {
      counts.faults += 1;
      res.writeHead(502, { 'content-type': 'text/html' });
      return res.end('<html>502 Bad Gateway</html>');
    }
    if (roll < rate.error5xx + rate.hang) {
      counts.faults += 1;
      await sleep(RAMP_TIMEOUT_MS + 1_000);
      return res.destroy();
    }
    if (roll < rate.error5xx + rate.hang + rate.garbage) {
      counts.faults += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"status":"success","data":');
    }
    if (!answer) {
      res.writeHead(502);
      return res.end();
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Runs the chaos scenario and returns its figures. */
export async function runChaos(o: ChaosOptions): Promise<ChaosFigures> {
  // Separate streams, so who the users are does not depend on how many calls the proxy saw first.
  const random = prng(o.seed);
  const proxyRandom = prng(o.seed ^ 0x5bd1e995);
  const tapRandom = prng(o.seed ^ 0x27d4eb2f);
  const started = Date.now();
  const notFoundBefore = linkAnswers.notFound;
  const log = o.log
    ? (msg: string) => o.log?.(`+${Math.round((Date.now() - started) / 1000)} s ${msg}`)
    : () => {};
  const dir = mkdtempSync(join(tmpdir(), 'rampchat-chaos-'));

  // Redis of this run's own, so it can be killed and restarted; or a primary, a replica and three Sentinels.
  const sentinels: SentinelSet | undefined =
    o.redisMode === 'sentinel' ? await startSentinelSet() : undefined;
  const redis = ownRedis({ port: await freePort(), dir, aof: o.redisMode === 'aof' });
  if (!sentinels) await redis.start();
  const redisUrl = sentinels?.url ?? redis.url;

  const sellRandom = prng(o.seed ^ 0x165667b1);
  const sellerCount = Math.round(o.users * (o.sellers ?? 0));
  const sellChain: SellChain | undefined =
    sellerCount > 0
      ? await startSellChain(o.rpcFaults ?? { ...o.faults, unknownTx: 0.05 }, prng(o.seed ^ 0x3c6ef372))
      : undefined;
  const sandbox: Sandbox = await startSandbox({
    port: 0,
    settleMs: 1_500,
    ...(sellChain?.sandboxOptions ?? {}),
  });
  const sandboxPort = Number(new URL(sandbox.url).port);
  const proxy = await startFaultProxy(sandboxPort, o.faults, proxyRandom);
  const fake = await FakeTelegramBotApi.start({ token: TOKEN });
  fake.setChat({ id: SUPPORT_CHAT, type: 'supergroup', title: 'Support', is_forum: true });
  fake.setChatMember(SUPPORT_CHAT, AGENT, 'member');

  const ports: number[] = [];
  const poll = o.mode === 'poll';
  // Telegram lets one process at a time long-poll a bot: kills then hit that one process.
  const replicaCount = poll ? 1 : o.replicas;
  for (let i = 0; i < replicaCount; i++) ports.push(await freePort());
  const alive = new Set<number>();
  // A replica is in the balancer from the moment it listens (no health check, as the worst proxy):
  // a webhook answered 404 was taken by a replica whose routes did not exist yet.
  let halfWired = 0;
  const balancer = await startBalancer(
    () => ports.filter((_, i) => alive.has(i)),
    (path, status) => {
      if (status === 404 && path.startsWith('/telegram/')) halfWired += 1;
    },
  );
  const children = new Map<number, ChildProcess>();
  const planned = new Set<ChildProcess>();
  let unplannedExits = 0;

  const env = (i: number): NodeJS.ProcessEnv =>
    appEnv(
      {
        port: ports[i] as number,
        redisUrl,
        token: TOKEN,
        botApi: fake.url,
        ...(poll ? {} : { webhook: { url: `${balancer.url}/telegram/webhook`, secret: SECRET } }),
        publicUrl: balancer.url,
        ramp: { url: proxy.url, apiKey: sandbox.options.apiKey, apiSecret: sandbox.options.apiSecret },
        supportChat: SUPPORT_CHAT,
        agent: AGENT,
        dataDir: join(dir, 'journal'),
        logLevel: process.env.CHAOS_LOG_LEVEL,
      },
      {
        RAMP_TIMEOUT_MS: String(RAMP_TIMEOUT_MS),
        POLL_INTERVAL_MS: '700',
        ONRAMP_HORIZON_MS: String(o.onrampHorizonMs ?? 90_000),
        SELL_FILING_STALE_MS: String(o.staleMs ?? 30_000),
        // Likewise a release or final message a killed replica left (production: 120 s for 15 s).
        TRACKER_CLAIM_STALE_MS: String(o.staleMs ?? 30_000),
        SHUTDOWN_TIMEOUT_MS: String(GRACE_MS),
        ...(sellChain?.appEnv ?? {}),
      },
    );
  const startReplica = async (i: number) => {
    const child = await spawnApp(env(i), {
      port: ports[i] as number,
      inheritStderr: Boolean(process.env.CHAOS_LOG_LEVEL),
    });
    children.set(i, child);
    child.once('exit', (code, signal) => {
      alive.delete(i);
      if (!planned.has(child)) {
        unplannedExits += 1;
        log(`replica ${i} exited on its own (code ${code}, signal ${signal})`);
      }
    });
    if (child.exitCode !== null && !planned.has(child)) {
      unplannedExits += 1;
      log(`replica ${i} exited while starting (code ${child.exitCode})`);
      return;
    }
    alive.add(i);
  };
  const badStops: string[] = [];
  const killReplica = async (i: number, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = children.get(i);
    if (!child || child.exitCode !== null) return;
    planned.add(child);
    alive.delete(i);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const at = Date.now();
    child.kill(signal);
    const code = await exited;
    const ms = Date.now() - at;
    if (signal === 'SIGTERM') log(`replica ${i} stopped: exit ${code} after ${ms} ms`);
    if (signal === 'SIGTERM' && (code !== 0 || ms > GRACE_MS + 1_000))
      badStops.push(`replica ${i}: exit ${code} after ${ms} ms`);
  };
  for (let i = 0; i < replicaCount; i++) await startReplica(i);
  log(poll ? '1 process in long polling up' : `${replicaCount} replicas up`);

  // Telegram redelivers what was not acknowledged with 2xx.
  let redeliveries = 0;
  const sendUpdate = async (inject: () => number) => {
    const id = inject();
    if (poll) return id;
    let made = 1;
    for (let attempt = 0; attempt < 40; attempt++) {
      await sleep(attempt === 0 ? 100 : Math.min(3_000, 300 * attempt));
      const tries = fake.webhookDeliveries.filter((d) => d.updateId === id);
      if (tries.some((d) => d.status >= 200 && d.status < 300)) return id;
      // Every delivery so far answered, none with 2xx: Telegram tries again.
      if (tries.length >= made) {
        redeliveries += 1;
        made += 1;
        fake.redeliver(id);
      }
    }
    return id;
  };

  // Users: each buys once for their own number (~4% on numbers the sandbox fails or never settles).
  type User = { chat: number; phone: string; wallet: string; confirmed: boolean };
  const users: User[] = [];
  for (let i = 0; i < o.users - sellerCount; i++) {
    const r = random();
    const suffix = r < 0.02 ? '0001' : r < 0.03 ? '0003' : r < 0.04 ? '0002' : '5678';
    users.push({
      chat: 880_000 + i,
      phone: `07${String(1000 + i).slice(-4)}${suffix}`,
      wallet: `0x${Array.from({ length: 40 }, () => Math.floor(random() * 16).toString(16)).join('')}`,
      confirmed: false,
    });
  }
  type Markup = { inline_keyboard?: Array<Array<{ callback_data?: string }>> };
  const confirmOf = (u: { chat: number }) => {
    for (const m of fake.sentMessages(u.chat).reverse()) {
      const b = (m.reply_markup as Markup | undefined)?.inline_keyboard
        ?.flat()
        .find((x) => x.callback_data?.includes(':confirm:'));
      if (b) return { id: m.message_id, data: b.callback_data! };
    }
    return undefined;
  };
  const buy = async (u: User) => {
    await sendUpdate(() => fake.sendText(u.chat, `/buy 500 USDT polygon ${u.wallet} ${u.phone}`));
    const end = Date.now() + 30_000;
    let confirm = confirmOf(u);
    while (!confirm && Date.now() < end) {
      await sleep(300);
      confirm = confirmOf(u);
    }
    if (!confirm) return;
    u.confirmed = true;
    const tap = () => fake.pressButton(u.chat, confirm.id, confirm.data);
    const id = await sendUpdate(tap);
    if (tapRandom() < 0.1) await sendUpdate(tap);
    if (tapRandom() < 0.1) fake.redeliver(id);
  };

  const sellers: Seller[] = sellChain
    ? await makeSellers(sellChain, { count: sellerCount, firstChat: 890_000, random: sellRandom })
    : [];
  const chatTexts = (chat: number) => fake.sentMessages(chat).map((m) => m.text ?? '');
  const sell = async (s: Seller) => {
    const token = s.chain === 'algorand' ? 'USDC' : 'USDT';
    await sendUpdate(() => fake.sendText(s.chat, `/sell ${s.kes} KES ${token} ${s.chain} ${s.phone}`));
    const end = Date.now() + 30_000;
    let confirm = confirmOf(s);
    while (!confirm && Date.now() < end) {
      await sleep(300);
      confirm = confirmOf(s);
    }
    if (!confirm) return;
    s.confirmed = true;
    const tap = () => fake.pressButton(s.chat, confirm.id, confirm.data);
    await sendUpdate(tap);
    if (tapRandom() < 0.1) await sendUpdate(tap);
    const paste = async (text: string) => {
      await sendUpdate(() => fake.sendText(s.chat, text));
    };
    const linkBy = Date.now() + 60_000;
    if (s.chain === 'algorand' && sellChain) {
      let request = algorandRequest(chatTexts(s.chat));
      while (!request && Date.now() < linkBy) {
        await sleep(500);
        request = algorandRequest(chatTexts(s.chat));
      }
      if (request) await payOnAlgorand(sellChain, s, request, paste);
      return;
    }
    while (!s.link && Date.now() < linkBy) {
      s.link = linkIn(chatTexts(s.chat));
      if (!s.link) await sleep(500);
    }
    if (!s.link || !sellChain) return;
    await depositAndReport(sellChain.chain, s, { random: sellRandom, paste }).catch((err: unknown) =>
      log(`seller ${s.chat} could not deposit: ${(err as Error).message}`),
    );
  };

  const taken = async (inject: () => number) => {
    const id = await sendUpdate(inject);
    return poll || fake.webhookDeliveries.some((d) => d.updateId === id && d.status >= 200 && d.status < 300);
  };
  const desk = o.desk?.users
    ? startDeskTraffic({
        fake,
        send: taken,
        supportChat: SUPPORT_CHAT,
        agent: AGENT,
        users: o.desk.users,
        lines: o.desk.lines,
        firstChat: 870_000,
        random: prng(o.seed ^ 0x1b873593),
        log,
      })
    : undefined;

  // Faults over time: kills spread over the buying phase (every other one a SIGTERM, as a deploy
  // stops a replica), one Redis restart in the middle.
  let kills = 0;
  let sigterms = 0;
  let redisRestarts = 0;
  let failover: ChaosFigures['failover'];
  /** SIGKILLs the primary, waits for the promotion, then sends /menu each second until it is answered. */
  const failOver = async (set: SentinelSet) => {
    const old = (await set.primaryPort()) ?? set.ports.primary;
    const killedAt = Date.now();
    await set.kill(old);
    const promotedAt = await set.promotedFrom(old);
    const probe = 870_000;
    let answerMs: number | undefined;
    while (answerMs === undefined && Date.now() - promotedAt < 30_000) {
      const seen = fake.sentMessages(probe).length;
      fake.sendText(probe, '/menu');
      const by = Date.now() + 1_000;
      while (Date.now() < by && answerMs === undefined) {
        if (
          fake
            .sentMessages(probe)
            .slice(seen)
            .some((m) => /What would you like to do/.test(m.text ?? ''))
        )
          answerMs = Date.now() - promotedAt;
        else await sleep(50);
      }
    }
    return { promotionMs: promotedAt - killedAt, ...(answerMs !== undefined ? { answerMs } : {}) };
  };
  const chaos = (async () => {
    for (let k = 0; k < o.kills; k++) {
      await sleep(4_000 + tapRandom() * 4_000);
      const i = Math.floor(tapRandom() * replicaCount);
      const signal = k % 2 === 1 ? 'SIGTERM' : 'SIGKILL';
      await killReplica(i, signal);
      kills += 1;
      if (signal === 'SIGTERM') sigterms += 1;
      log(`${signal === 'SIGTERM' ? 'stopped' : 'killed'} replica ${i}`);
      await sleep(1_000);
      await startReplica(i);
      if (k === Math.floor(o.kills / 2) && sentinels) {
        failover = await failOver(sentinels);
        redisRestarts += 1;
        log(
          `primary SIGKILLed: promoted after ${failover.promotionMs} ms, /menu answered ${failover.answerMs ?? 'never'} ms after that`,
        );
      } else if (k === Math.floor(o.kills / 2)) {
        await redis.kill();
        await sleep(1_500);
        await redis.start();
        redisRestarts += 1;
        log(`redis restarted (${o.redisMode})`);
      }
    }
  })();

  // Buyers and sellers interleaved, a batch at a time.
  const journeys: Array<() => Promise<void>> = [];
  for (let b = 0, s = 0; b < users.length || s < sellers.length; ) {
    const pickSeller = s < sellers.length && (b >= users.length || sellRandom() < sellerCount / o.users);
    const next = pickSeller ? sellers[s++]! : users[b++]!;
    journeys.push(pickSeller ? () => sell(next as Seller) : () => buy(next as User));
  }
  const batch = 15;
  for (let i = 0; i < journeys.length; i += batch)
    await Promise.all(journeys.slice(i, i + batch).map((j) => j()));
  await chaos;
  await desk?.done;
  log('all users went through Confirm; settling');

  // Settling: until every order ends or the time is up.
  const finalText =
    /Done!|did not go through|was cancelled|taking longer than it should|could not confirm|was not created|support case|Sorry, I could not confirm/;
  const supportTexts = () =>
    fake
      .sentMessages(SUPPORT_CHAT)
      .map((m) => m.text ?? '')
      .join('\n');
  const ending = (orderId: string, phone: string) => {
    const u = users.find((x) => `254${x.phone.slice(1)}` === phone);
    const chat = u ? fake.sentMessages(u.chat).map((m) => m.text ?? '') : [];
    const final = chat.some((t) => finalText.test(t));
    const support = supportTexts().includes(orderId);
    return { final, support };
  };
  const deposited = () => sellers.filter((s) => s.hash);
  const sellOrdersOf = (s: Seller) =>
    sandbox
      .offrampOrders()
      .filter(
        (ord) => ord.hash.toLowerCase() === s.hash?.toLowerCase() || ord.phone === `254${s.phone.slice(1)}`,
      );
  const sellerEnded = (s: Seller) => chatTexts(s.chat).some((t) => sellFinalText.test(t));
  const stranded = () =>
    deposited()
      .filter((s) => sellOrdersOf(s).length === 0 && !supportTexts().includes(s.hash!))
      .map((s) => s.hash!);
  const settleEnd = Date.now() + o.settleMs;
  let missing: string[] = [];
  while (Date.now() < settleEnd) {
    const sellersOpen = deposited().filter((s) => !sellerEnded(s)).length + stranded().length;
    missing = sandbox
      .onrampOrders()
      .filter((ord) => {
        const e = ending(ord.id, ord.phone);
        return !e.final && !e.support;
      })
      .map((ord) => ord.id);
    if (missing.length === 0 && sellersOpen === 0 && (desk?.settled() ?? true)) break;
    await sleep(2_000);
  }
  const strandedDeposits = stranded();
  const sellersWithoutFinal = deposited()
    .filter((s) => !sellerEnded(s))
    .map((s) => s.chat);
  for (const s of sellers.filter(
    (x) => strandedDeposits.includes(x.hash ?? '') || sellersWithoutFinal.includes(x.chat),
  ))
    log(
      `seller ${s.chat} (${s.mode}, ${s.hash}; orders ${JSON.stringify(sellOrdersOf(s).map((ord) => `${ord.id} ${ord.outcome}`))}, support ${supportTexts().includes(s.hash ?? '-')}): ${JSON.stringify(chatTexts(s.chat).map((t) => t.slice(0, 90)))}`,
    );
  const depositsByMode: Record<SellerMode, number> = { page: 0, closed: 0, junk: 0, paste: 0 };
  for (const s of deposited()) depositsByMode[s.mode] += 1;
  const algorandDeposits = deposited().filter((s) => s.chain === 'algorand').length;

  const orders = sandbox.onrampOrders();
  const perPhone = new Map<string, number>();
  for (const ord of orders) perPhone.set(ord.phone, (perPhone.get(ord.phone) ?? 0) + 1);
  const duplicatePushes = [...perPhone.values()].reduce((n, c) => n + Math.max(0, c - 1), 0);
  const releases = orders.filter((ord) => ord.release).length;
  const doubleReleases = orders.filter((ord) => sandbox.depositCallCount(ord.id) > 1 && !ord.release).length;
  let finals = 0;
  let cases = 0;
  for (const ord of orders) {
    const e = ending(ord.id, ord.phone);
    if (e.final) finals += 1;
    if (e.support) cases += 1;
  }

  // What the users without an ending were told, for the log.
  for (const id of missing) {
    const ord = sandbox.order(id) as { phone?: string; release?: { at: number } } | undefined;
    const u = users.find((x) => `254${x.phone.slice(1)}` === ord?.phone);
    const ramp = `ramp: ${ord?.release ? `released at +${Math.round((ord.release.at - started) / 1000)} s` : 'not released'}, ${sandbox.depositCallCount(id)} deposit calls`;
    if (u)
      log(
        `${id} ${u.chat} (${ramp}): ${JSON.stringify(fake.sentMessages(u.chat).map((m) => m.text?.slice(0, 90)))}`,
      );
  }
  for (const i of [...children.keys()]) await killReplica(i, 'SIGTERM');
  await balancer.close();
  await proxy.close();
  await fake.close();
  await sandbox.close();
  await sellChain?.close();
  await redis.kill();
  await sentinels?.stop();

  return {
    users: users.length,
    confirmed: users.filter((u) => u.confirmed).length,
    unanswered: [...users, ...sellers].filter((u) => fake.sentMessages(u.chat).length === 0).length,
    stkPushes: orders.length,
    duplicatePushes,
    orders: orders.length,
    releases,
    doubleReleases,
    ordersWithoutEnding: missing,
    finalMessages: finals,
    supportCases: cases,
    unplannedExits,
    kills,
    redisRestarts,
    proxied: proxy.counts.proxied,
    faultsInjected: proxy.counts.faults,
    webhookRedeliveries: redeliveries,
    sellers: sellers.length,
    sellersConfirmed: sellers.filter((s) => s.confirmed).length,
    deposits: deposited().length,
    depositsByMode,
    algorandDeposits,
    sellOrders: sandbox.offrampOrders().length,
    strandedDeposits,
    doubleFilings: sellers.filter((s) => s.hash && sellOrdersOf(s).length > 1).length,
    sellersWithoutFinal,
    linksNotFound: linkAnswers.notFound - notFoundBefore,
    halfWired,
    rpcProxied: sellChain?.rpc.proxied ?? 0,
    rpcFaults: sellChain?.rpc.faults ?? 0,
    sigterms,
    badStops,
    ...(desk?.figures() ?? {
      deskUsers: 0,
      deskLines: 0,
      deskLinesNotRelayed: 0,
      lostDeskPosts: [],
      agentReplies: 0,
      lostAgentReplies: [],
    }),
    ...(failover ? { failover } : {}),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

export function chaosOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ChaosOptions {
  const n = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(v) && v >= 0 ? v : fallback;
  };
  return {
    users: n('CHAOS_USERS', 150),
    mode: env.CHAOS_MODE === 'poll' ? 'poll' : 'webhook',
    replicas: n('CHAOS_REPLICAS', 3),
    kills: n('CHAOS_KILLS', 3),
    redisMode: env.CHAOS_REDIS === 'empty' ? 'empty' : env.CHAOS_REDIS === 'sentinel' ? 'sentinel' : 'aof',
    settleMs: n('CHAOS_SETTLE_MS', 240_000),
    seed: n('CHAOS_SEED', Date.now() % 100_000),
    sellers: n('CHAOS_SELLERS', 0.4),
    desk: { users: n('CHAOS_DESK_USERS', 6), lines: n('CHAOS_DESK_LINES', 4) },
    faults: {
      error5xx: n('CHAOS_FAULT_5XX', 0.1),
      hang: n('CHAOS_FAULT_HANG', 0.05),
      garbage: n('CHAOS_FAULT_GARBAGE', 0.01),
    },
  };
}

export function formatChaosFigures(f: ChaosFigures, o: ChaosOptions): string {
  const ok = chaosTargetsHold(f);
  return [
    `chaos ${ok ? 'PASS' : 'FAIL'}:`,
    `${f.users} users (${f.confirmed} confirmed, ${f.unanswered} never answered), ${o.mode === 'poll' ? '1 process in long polling' : `${o.replicas} replicas`}, ${f.kills} kills, redis restarted ${f.redisRestarts}x (${o.redisMode}),`,
    `${f.faultsInjected}/${f.proxied} ramp calls faulted, ${f.webhookRedeliveries} webhook redeliveries;`,
    `${f.stkPushes} STK pushes (${f.duplicatePushes} duplicate), ${f.releases} releases (${f.doubleReleases} double),`,
    `${f.orders} orders: ${f.finalMessages} with a final message, ${f.supportCases} with a support case, ${f.ordersWithoutEnding.length} with neither;`,
    `${f.sellers} sellers (${f.sellersConfirmed} confirmed): ${f.deposits} deposits (${Object.entries(
      f.depositsByMode,
    )
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}; ${f.algorandDeposits} on Algorand), ${f.sellOrders} sale orders, ${f.strandedDeposits.length} stranded, ${f.doubleFilings} filed twice, ${f.sellersWithoutFinal.length} sellers without a final message, ${f.linksNotFound} answers of 404 to a valid link;`,
    `${f.rpcFaults}/${f.rpcProxied} RPC calls faulted;`,
    `desk: ${f.deskUsers} users, ${f.deskLines} lines said sent to support (${f.lostDeskPosts.length} never posted; ${f.deskLinesNotRelayed} answered otherwise), ${f.agentReplies} agent answers taken (${f.lostAgentReplies.length} never delivered);`,
    `${f.sigterms} SIGTERMs (${f.badStops.length} not exiting 0 within ${GRACE_MS} ms); ${f.halfWired} updates answered by a half-wired replica;`,
    ...(o.redisMode === 'sentinel'
      ? [
          `failover: promoted ${f.failover ? `${(f.failover.promotionMs / 1000).toFixed(1)} s` : '?'} after the SIGKILL, answering again ${f.failover?.answerMs !== undefined ? `${(f.failover.answerMs / 1000).toFixed(1)} s` : 'never'} after the promotion;`,
        ]
      : []),
    `${f.unplannedExits} unplanned exits; ${f.seconds} s (seed ${o.seed})`,
  ].join(' ');
}

export const chaosTargetsHold = (f: ChaosFigures): boolean =>
  f.duplicatePushes === 0 &&
  f.doubleReleases === 0 &&
  f.ordersWithoutEnding.length === 0 &&
  f.unplannedExits === 0 &&
  f.unanswered === 0 &&
  f.strandedDeposits.length === 0 &&
  f.doubleFilings === 0 &&
  f.sellersWithoutFinal.length === 0 &&
  f.linksNotFound === 0 &&
  f.halfWired === 0 &&
  f.lostDeskPosts.length === 0 &&
  f.lostAgentReplies.length === 0 &&
  f.badStops.length === 0 &&
  f.stkPushes <= f.confirmed &&
  (f.failover === undefined || (f.failover.answerMs !== undefined && f.failover.answerMs < 10_000));

if (process.argv[1]?.endsWith('chaos.ts')) {
  const o = { ...chaosOptionsFromEnv(), log: (l: string) => process.stderr.write(`[chaos] ${l}\n`) };
  const figures = await runChaos(o);
  console.log(formatChaosFigures(figures, o));
  if (figures.ordersWithoutEnding.length)
    console.log(`without an ending: ${figures.ordersWithoutEnding.join(', ')}`);
  process.exit(chaosTargetsHold(figures) ? 0 : 1);
}
