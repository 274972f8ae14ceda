/**
 * The support desk as the app wires it, in-process: real grammY against the fake Bot API (a user's
 * private chat and a forum supergroup as the support chat), the real engine and flows with the
 * Redis store, the real ramp client over HTTP to the sandbox, the real tracker (the sweep on Redis)
 * whose `onEscalate` is the desk's `escalate`, and optionally WhatsApp through the recording socket.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { createEngine } from '../../src/app/flows.js';
import { createTelegramChannel, type TelegramChannel } from '../../src/channels/telegram/index.js';
import { createWhatsAppChannel, type WhatsAppChannel } from '../../src/channels/whatsapp/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { envSchema, parseEnv } from '../../src/config/env.js';
import type { Engine } from '../../src/engine/index.js';
import type { TrackedOrder } from '../../src/flows/types.js';
import { type I18n, loadI18n } from '../../src/i18n/index.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import type { RampClient } from '../../src/ramp/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createRedisStore, type SessionStore } from '../../src/store/index.js';
import type { BudgetTimings } from '../../src/support/desk/budget.js';
import { type Support, wireSupport } from '../../src/support/index.js';
import { createTracker, type Tracker } from '../../src/tracker/index.js';
import { RecordingSocket } from '../channels/whatsapp/helpers.js';
import { FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';
import { connectTestRedis, flushPrefix, testRedisUrl, uniquePrefix } from '../helpers/redis.js';
import { ticketFailingProxy } from './ticket-proxy.js';

export { buttonsOf, lastId, textsAfter, waitForText } from './rig-texts.js';

export const TOKEN = '123456789:SupportDeskTokenForTests_abcdefghij';
export const SUPPORT_CHAT = -1001234500;
export const AGENT = 501;
/** A second agent (both are in SUPPORT_AGENT_IDS). */
export const AGENT2 = 503;
export const NOT_AGENT = 502;
export const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
export const POLYGON_USDT = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';

export interface RigOptions {
  /** Start the WhatsApp channel on a recording socket. */
  whatsapp?: boolean;
  /** Leave SUPPORT_CHAT_ID unset. */
  noDesk?: boolean;
  reopenWindowMs?: number;
  onrampHorizonMs?: number;
  /** Give the desk the tracker's owners (as the app does): tickets and cases check who made an order. */
  ownership?: boolean;
  /** The ramp files tickets but answers 502 (a proxy in front of the sandbox). */
  ticketAnswers502?: boolean;
  /**
   * Telegram's group limit enforced (20 a minute, the app pacing at its 17), run `scale` times
   * faster: the window is 60 s / scale. Without it, groups are not limited.
   */
  groupLimitScale?: number;
  /** Support groups (default 1): SUPPORT_CHAT, then SUPPORT_CHAT - 1, … */
  groups?: number;
  /** The desk's budget timings (default: a test's quick ones). */
  budget?: Partial<BudgetTimings>;
}

/** The support groups' ids for `n` groups. */
export const supportChats = (n = 1) => Array.from({ length: n }, (_, i) => SUPPORT_CHAT - i);

export interface Rig {
  fake: FakeTelegramBotApi;
  sandbox: Sandbox;
  ramp: RampClient;
  redis: RedisClientType;
  store: SessionStore;
  engine: Engine;
  telegram: TelegramChannel;
  whatsapp?: WhatsAppChannel;
  socket?: RecordingSocket;
  tracker: Tracker;
  support: Support;
  i18n: I18n;
  prefix: string;
  /** The desk's clock: tests move it to pass the reopen window. */
  clock: { offsetMs: number };
  /** Creates an on-ramp order at the sandbox for `phone` and lets the tracker follow it for `user`. */
  onrampOrder(phone: string, user: UserRef, track?: boolean, extra?: Partial<TrackedOrder>): Promise<string>;
  /** Files a sale at the sandbox (10 USDT sent on Polygon, paying `phone`) and lets the tracker follow it. */
  offrampOrder(phone: string, user: UserRef, track?: boolean): Promise<{ orderId: string; hash: string }>;
  stop(): Promise<void>;
}

export async function startRig(opts: RigOptions = {}): Promise<Rig> {
  const logger = createLogger({ level: 'silent' });
  const prefix = uniquePrefix('support');
  const scale = opts.groupLimitScale;
  const fake = await FakeTelegramBotApi.start({
    token: TOKEN,
    ...(scale
      ? { floodLimits: { groupPerMinute: 20, groupWindowMs: 60_000 / scale, privateBurst: 10 } }
      : {}),
  });
  const chats = supportChats(opts.groups);
  for (const chat of chats) {
    fake.setChat({ id: chat, type: 'supergroup', title: `Support desk ${chat}`, is_forum: true });
    for (const member of [AGENT, AGENT2, NOT_AGENT]) fake.setChatMember(chat, member, 'member');
  }
  const sandbox = await startSandbox({ port: 0, settleMs: 30 });
  const proxy = opts.ticketAnswers502 ? await ticketFailingProxy(sandbox.url) : undefined;
  const ramp = createRampClient({
    baseUrl: proxy?.url ?? sandbox.url,
    apiKey: sandbox.options.apiKey,
    apiSecret: sandbox.options.apiSecret,
    timeoutMs: 5000,
  });
  const redis = await connectTestRedis();
  const store = await createRedisStore({ url: testRedisUrl(), prefix, flowTtlSeconds: 600 });
  const clock = { offsetMs: 0 };
  let support: Support | undefined;
  const tracker = createTracker({
    ramp,
    notifier: { notify: (user, message) => engine.notify(user, message) },
    logger,
    config: {
      pollIntervalMs: 100,
      onrampHorizonMs: opts.onrampHorizonMs ?? 60_000,
      offrampHorizonMs: 60_000,
      concurrency: 4,
      project: 'rampchat-test',
    },
    redisUrl: testRedisUrl(),
    prefix,
    // Late-bound: the tracker exists before support is wired.
    onEscalate: async (c) => {
      if (!support) throw new Error('support is not wired yet');
      await support.escalate(c);
    },
  });
  const engine = createEngine({
    store,
    ramp,
    tracker,
    logger,
    config: { rateTolerancePct: 1, project: 'rampchat-test' },
  });
  const i18n = loadI18n();
  const telegram = createTelegramChannel({
    token: TOKEN,
    apiRoot: fake.url,
    conversation: engine,
    i18n,
    logger,
    redis,
    redisPrefix: prefix,
    pollTimeoutSeconds: 1,
    editIntervalMs: 10,
    // The desk's walks, not Telegram's chat and group limits (test/outbound and the burst test hold
    // those), unless a test asks for the group limit (scaled).
    pacing: {
      ...(scale ? { groupPerMinute: 18, groupWindowMs: 60_000 / scale } : { groupPerMinute: 6000 }),
      privateBurst: 10,
      privateIntervalMs: 20,
    },
  });
  engine.registerChannel(telegram.adapter);

  let whatsapp: WhatsAppChannel | undefined;
  let socket: RecordingSocket | undefined;
  if (opts.whatsapp) {
    whatsapp = createWhatsAppChannel({
      conversation: engine,
      i18n,
      redis,
      logger,
      keyPrefix: prefix,
      numberId: 'bot',
      pacing: { intervalMs: 5, jitterMs: 1 },
      makeSocket: (config) => {
        socket = new RecordingSocket(config);
        return socket;
      },
    });
    engine.registerChannel(whatsapp.adapter);
  }

  const config = parseEnv(envSchema, {
    ...(opts.noDesk ? {} : { SUPPORT_CHAT_ID: chats.join(',') }),
    SUPPORT_AGENT_IDS: `${AGENT},${AGENT2}`,
    SUPPORT_REOPEN_WINDOW_MS: String(opts.reopenWindowMs ?? 2 * 3600_000),
  });
  support = await wireSupport(
    { config, logger, i18n, ramp, engine, redis, telegram, prefix, ...(opts.ownership ? { tracker } : {}) },
    {
      now: () => Date.now() + clock.offsetMs,
      budget: opts.budget ?? {
        gatherMs: 100,
        maxGatherMs: 300,
        cardIntervalMs: 200,
        cardMaxLagMs: 300,
        quietMs: 50,
        // The room rule counts calls in this window: tests with unlimited groups keep it short.
        windowMs: 1000,
      },
    },
  );

  await tracker.start();
  await whatsapp?.start();
  await telegram.start();

  const rig: Rig = {
    fake,
    sandbox,
    ramp,
    redis,
    store,
    engine,
    telegram,
    whatsapp,
    get socket() {
      return socket;
    },
    tracker,
    support,
    i18n,
    prefix,
    clock,
    async onrampOrder(phone, user, track = true, extra = {}) {
      const { orderId } = await ramp.createOnrampOrder({
        phone,
        amountKes: 500,
        userAddress: WALLET,
        tokenAddress: POLYGON_USDT,
      });
      if (track) {
        const order: TrackedOrder = {
          orderId,
          side: 'onramp',
          user,
          network: 'polygon',
          walletAddress: WALLET,
          token: { symbol: 'USDT', address: POLYGON_USDT, decimals: 6 },
          amountKes: 500,
          tokenAmount: '3.86',
          phone,
          createdAt: Date.now(),
          ...extra,
        };
        await tracker.track(order);
      }
      return orderId;
    },
    async offrampOrder(phone, user, track = true) {
      const hash = `0x${randomBytes(32).toString('hex')}`;
      const { orderId } = await ramp.createOfframpOrder({
        chain: 'polygon',
        hash,
        phone,
        tokenAddress: POLYGON_USDT,
        userAddress: WALLET,
        project: 'rampchat-test',
      });
      if (track) {
        const order: TrackedOrder = {
          orderId,
          side: 'offramp',
          user,
          network: 'polygon',
          walletAddress: WALLET,
          token: { symbol: 'USDT', address: POLYGON_USDT, decimals: 6 },
          amountKes: 1268.5,
          tokenAmount: '10',
          phone,
          createdAt: Date.now(),
          txHash: hash,
        };
        await tracker.track(order);
      }
      return { orderId, hash };
    },
    async stop() {
      await telegram.stop();
      await whatsapp?.stop();
      await engine.idle();
      await support?.stop();
      await tracker.stop();
      await store.close();
      await fake.close();
      await sandbox.close();
      await proxy?.close();
      await flushPrefix(redis, prefix);
      await redis.quit();
    },
  };
  return rig;
}
