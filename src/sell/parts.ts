/** The parts of the running app that selling uses; the app's `AppParts` satisfies it. */
import type { RedisClientType } from 'redis';
import type { Config } from '../config/env.js';
import type { Engine } from '../engine/index.js';
import type { HttpServer } from '../http/index.js';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { RampClient } from '../ramp/types.js';
import type { OrderJournal, SaleRecoverySink } from '../recovery/index.js';
import type { Tracker } from '../tracker/index.js';
import type { LocalSellDemo } from './local/local.js';

export interface SellParts {
  config: Config;
  logger: Logger;
  i18n: I18n;
  ramp: RampClient;
  engine: Engine;
  tracker: Tracker;
  /** The app's HTTP server: `/sign/*` is mounted on it. */
  http: HttpServer;
  /** Base URL of that server as wallets reach it: the base of signing links. */
  publicUrl: string;
  /** Prefix of every Redis key the app writes. */
  prefix: string;
  /** A node-redis client when REDIS_URL is set (intents, limits and the watcher use Redis then). */
  redis?: RedisClientType;
  /** The order journal outside Redis (src/recovery). */
  journal?: OrderJournal;
  /** Local mode: the dev chain, started on the first sell. */
  sellDemo?: LazySellDemo;
  /** Where the recovery pass finds the sales Redis lost; the sell wiring fills it. */
  saleRecovery?: SaleRecoverySink;
}

/** The local sell demo, started on the first `get()`. */
export interface LazySellDemo {
  /** Starts the dev chain and stand-in once (later calls share them); rejects when it cannot start. */
  get(): Promise<LocalSellDemo>;
  readonly started: boolean;
  /** Pass to startSandbox: the dev tokens, and a hash check that starts the demo if needed. */
  sandboxOptions: LocalSellDemo['sandboxOptions'];
  stop(): Promise<void>;
}
