/**
 * Standing buys: `wireSavings(parts)` registers the `savings` effect and starts the sweep that
 * sends each run's reminder (through the engine's notifier, so the outbound line paces it and
 * WhatsApp Cloud falls back to its template outside the 24-hour window). On Redis when REDIS_URL is
 * set; otherwise (local mode) in process memory, lost on exit.
 */
import type { RedisClientType } from 'redis';
import type { Config } from '../config/env.js';
import type { Engine } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { StandingSink } from '../recovery/standing.js';
import { connectOnFirstUse, createResilientClient } from '../store/connection/connect.js';
import { registerSavingsEffects } from './effects.js';
import type { Plan } from './plan.js';
import { handleDue } from './remind.js';
import { journaledPlans, planRestorer } from './standing.js';
import { createPlanStore, type PlanStore } from './store.js';
import { createMemoryPlanStore } from './store-memory.js';
import { createDueSweep, type DueSweep } from './sweep.js';
import { createMemoryDueSweep } from './sweep-memory.js';

/** The parts of the app savings uses (the app's `AppParts` satisfies it). */
export interface SavingsParts {
  config: Pick<
    Config,
    'REDIS_URL' | 'SAVINGS_WINDOW_MS' | 'SAVINGS_MAX_PLANS' | 'SAVINGS_CONCURRENCY' | 'SAVINGS_LEASE_MS'
  >;
  logger: Logger;
  ramp: Pick<RampClient, 'listAssets' | 'getQuote'>;
  engine: Pick<Engine, 'registerEffect' | 'notify'>;
  prefix: string;
  /** On Redis: plans are kept in this record outside Redis too, and put back from it by recovery. */
  standing?: StandingSink;
}

export interface Savings {
  store: PlanStore;
  sweep: DueSweep;
  stop(): Promise<void>;
}

/** How long an estimate's rate is reused: reminders due together ask the ramp once per token. */
const RATE_TTL_MS = 60_000;

/** "About 3.86 USDT": one quote per token and network a minute, scaled to each plan's KES. */
export function createEstimator(ramp: SavingsParts['ramp'], now = Date.now) {
  const rates = new Map<string, { at: number; rate: Promise<number> }>();
  return async (plan: Plan): Promise<string | undefined> => {
    const key = `${plan.t}:${plan.n}`;
    let cached = rates.get(key);
    if (!cached || now() - cached.at > RATE_TTL_MS) {
      const rate = ramp
        .getQuote({ type: 'onramp', network: plan.n, token: plan.t, fiatCurrency: 'KES', amount: '1000' })
        .then((q) => Number(q.outputAmount) / 1000);
      cached = { at: now(), rate };
      rates.set(key, cached);
      rate.catch(() => rates.delete(key));
    }
    const tokens = (await cached.rate) * plan.kes;
    return Number.isFinite(tokens) && tokens > 0 ? tokens.toFixed(2) : undefined;
  };
}

/** Wires standing buys into the running app: on Redis, or in memory without REDIS_URL. */
export async function wireSavings(
  parts: SavingsParts,
  opts: { client?: RedisClientType; sweepMs?: number } = {},
): Promise<Savings> {
  const { config, logger } = parts;
  const log = logger.child({ part: 'savings' });
  const bad = (id: string, why: string) =>
    log.error({ planId: id, why }, 'a stored standing buy is unreadable; skipped');
  let store: PlanStore;
  let sweep: DueSweep;
  let close = async () => {};
  if (!config.REDIS_URL && !opts.client) {
    log.info('no REDIS_URL: standing buys live in memory and are lost when the process exits');
    const memory = createMemoryPlanStore(bad);
    store = memory;
    sweep = createMemoryDueSweep({
      due: memory.due,
      concurrency: config.SAVINGS_CONCURRENCY,
      ...(opts.sweepMs ? { sweepMs: opts.sweepMs } : {}),
      logger: log,
    });
  } else {
    // A client of its own that queues while Redis restarts: a run waits for Redis instead of failing.
    const client =
      opts.client ??
      createResilientClient({ url: config.REDIS_URL!, name: 'savings', queueWhileDown: true, logger: log });
    const redis = connectOnFirstUse(client);
    store = createPlanStore(redis, parts.prefix, bad);
    if (parts.standing) {
      const plain = store;
      store = journaledPlans(plain, parts.standing.record);
      parts.standing.restorers.plans = planRestorer({
        store: plain,
        redis,
        prefix: parts.prefix,
        record: parts.standing.record,
        maxPlans: config.SAVINGS_MAX_PLANS,
        windowMs: config.SAVINGS_WINDOW_MS,
      });
    }
    sweep = createDueSweep({
      redis,
      key: store.dueKey,
      concurrency: config.SAVINGS_CONCURRENCY,
      leaseMs: config.SAVINGS_LEASE_MS,
      ...(opts.sweepMs ? { sweepMs: opts.sweepMs } : {}),
      logger: log,
    });
    close = async () => {
      if (!opts.client && client.isOpen) await client.close();
    };
  }
  registerSavingsEffects(parts.engine, {
    store,
    ramp: parts.ramp,
    maxPlans: config.SAVINGS_MAX_PLANS,
    windowMs: config.SAVINGS_WINDOW_MS,
  });
  const estimate = createEstimator(parts.ramp);
  sweep.start((id) =>
    handleDue(
      {
        store,
        notify: (user, message, scope) => parts.engine.notify(user, message, scope),
        estimate,
        windowMs: config.SAVINGS_WINDOW_MS,
        now: Date.now,
        logger: log,
      },
      id,
    ),
  );
  return {
    store,
    sweep,
    async stop() {
      await sweep.stop();
      await close();
    },
  };
}
