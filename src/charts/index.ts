/**
 * Price charts wired into the app: the `chart` effect, the rate history (Redis, or memory in local
 * mode) and the recorder that quotes charted pairs once a minute. Returns the hook the alert ticker
 * hands its own quotes to, and how to stop. Names the parts it needs instead of importing the app.
 */
import type { RedisClientType } from 'redis';
import type { Engine } from '../engine/index.js';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { MediaStore } from '../store/media.js';
import { MemoryRateHistory, type RateHistory } from './history.js';
import { RedisRateHistory } from './history-redis.js';
import { ChartRecorder, memoryChartedPairs, redisChartedPairs } from './recorder.js';
import { ChartService, registerChartEffects } from './service.js';

export interface ChartsParts {
  logger: Logger;
  engine: Engine;
  ramp: RampClient;
  i18n: I18n;
  media: MediaStore;
  redis?: RedisClientType;
  prefix: string;
}

/** One rate a minute: the history's finest ring is in minutes. */
const INTERVAL_MS = 60_000;

export interface Charts {
  /** For the alert ticker: a rate it quoted (below: buy; above: sell) goes into the history too. */
  onRate(feed: { token: string; network: string; side: 'below' | 'above' }, rate: number): Promise<void>;
  stop(): Promise<void>;
}

export function wireCharts(parts: ChartsParts): Charts {
  const log = parts.logger.child({ component: 'charts' });
  const history: RateHistory = parts.redis
    ? new RedisRateHistory(parts.redis, parts.prefix)
    : new MemoryRateHistory();
  const pairs = parts.redis ? redisChartedPairs(parts.redis, parts.prefix) : memoryChartedPairs();
  const service = new ChartService({
    history,
    pairs,
    media: parts.media,
    i18n: parts.i18n,
    onDrawn: (ms, bytes) => log.debug({ ms: Math.round(ms), bytes }, 'chart drawn'),
  });
  registerChartEffects(parts.engine, service);
  const recorder = new ChartRecorder({ history, pairs, ramp: parts.ramp, log, intervalMs: INTERVAL_MS });
  recorder.start();
  return { onRate: (feed, rate) => recorder.fromAlerts(feed, rate), stop: () => recorder.stop() };
}
