/**
 * A second app instance beside a rig's (test/support/rig.ts): its own Telegram channel, engine,
 * Redis client, ramp client and support wiring, on the rig's Redis prefix, the fake Bot API and the
 * ramp sandbox. It does not poll (the fake gives updates to one poller, as Telegram does): a test
 * hands it updates itself (`handle`), as a load balancer in front of webhooks would.
 */
import { createEngine } from '../../src/app/flows.js';
import { createTelegramChannel } from '../../src/channels/telegram/index.js';
import { envSchema, parseEnv } from '../../src/config/env.js';
import { createLogger } from '../../src/log/logger.js';
import { createRampClient } from '../../src/ramp/index.js';
import { wireSupport } from '../../src/support/index.js';
import { connectTestRedis } from '../helpers/redis.js';
import { AGENT, AGENT2, type Rig, supportChats, TOKEN } from './rig.js';

export interface Replica {
  /** Handles one update (from `fake.textUpdate`) as this instance's bot would. */
  handle(update: unknown): Promise<void>;
  /** Resolves once the instance's support work is done. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplica(rig: Rig, groups = 1): Promise<Replica> {
  const logger = createLogger({ level: (process.env.REPLICA_LOG as 'info') ?? 'silent' });
  const redis = await connectTestRedis();
  const ramp = createRampClient({
    baseUrl: rig.sandbox.url,
    apiKey: rig.sandbox.options.apiKey,
    apiSecret: rig.sandbox.options.apiSecret,
    timeoutMs: 5000,
  });
  const engine = createEngine({
    store: rig.store,
    ramp,
    tracker: rig.tracker,
    logger,
    config: { rateTolerancePct: 1, project: 'rampchat-test' },
  });
  const telegram = createTelegramChannel({
    token: TOKEN,
    apiRoot: rig.fake.url,
    conversation: engine,
    i18n: rig.i18n,
    logger,
    redis,
    redisPrefix: rig.prefix,
    pollTimeoutSeconds: 1,
    editIntervalMs: 10,
    pacing: { groupPerMinute: 6000, privateBurst: 10, privateIntervalMs: 20 },
  });
  engine.registerChannel(telegram.adapter);
  const config = parseEnv(envSchema, {
    SUPPORT_CHAT_ID: supportChats(groups).join(','),
    SUPPORT_AGENT_IDS: `${AGENT},${AGENT2}`,
  });
  const support = await wireSupport(
    {
      config,
      logger,
      i18n: rig.i18n,
      ramp,
      engine,
      redis,
      telegram,
      prefix: rig.prefix,
      tracker: rig.tracker,
    },
    {
      now: () => Date.now() + rig.clock.offsetMs,
      budget: { gatherMs: 100, maxGatherMs: 300, cardIntervalMs: 200, cardMaxLagMs: 300, quietMs: 50 },
    },
  );
  await telegram.bot.init();
  return {
    handle: (update) => telegram.bot.handleUpdate(update as Parameters<typeof telegram.bot.handleUpdate>[0]),
    idle: () => support.desk.idle(),
    async stop() {
      await support.stop();
      await engine.idle();
      await redis.quit();
    },
  };
}
