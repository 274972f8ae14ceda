/**
 * The shapes of the outbound side (outbound.ts): what it is built from, what it offers, and the
 * context every one of its steps is handed. A leaf: the steps and the factory import it, never
 * each other's types.
 */
import type { RedisClientType } from 'redis';
import type { Locale, OutMessage, UserRef } from '../../../chat/types.js';
import type { Logger } from '../../../log/logger.js';
import type { Outbox, SendScope } from '../../../outbound/index.js';
import type { MediaStore } from '../../../store/media.js';
import type { Translator } from '../../whatsapp/send/menu.js';
import type { GraphClient } from '../graph.js';
import type { MessageStatus } from '../inbound/schemas.js';
import type { CloudKeys } from '../keys.js';
import type { CloudMetrics } from '../metrics.js';
import type { TemplateSettings } from '../render/template.js';
import type { CloudPacing } from './pacing.js';
import type { WindowBook } from './window.js';

/** What support is handed when an order update cannot reach its user (see src/support/case/escalation.ts). */
export interface UndeliverableEscalation {
  reason: 'undeliverable';
  user: UserRef;
  orderId?: string;
  /** Meta's error code, when it gave one. */
  code?: number;
  /** For the agents: what failed and what the user was not told. */
  detail: string;
  at: number;
}

export interface RetryOptions {
  /** Tries per message (default 4). */
  attempts?: number;
  /**
   * First pause after a transient refusal, doubled each time (default 1000 ms); also how long a
   * throughput refusal holds the whole number, on every replica.
   */
  baseMs?: number;
  /** How long a pair-rate refusal holds that user's messages (default 6000 ms). */
  pairMs?: number;
}

export interface OutboundDeps {
  graph: GraphClient;
  /** The number's outbound line (pacing.ts). */
  pacing: CloudPacing;
  book: WindowBook;
  redis: RedisClientType;
  keys: CloudKeys;
  i18n: Translator;
  template: TemplateSettings;
  metrics: CloudMetrics;
  logger: Logger;
  retry?: RetryOptions;
  /** Menus a user can answer by typing live this long (default one day). */
  menuTtlSeconds?: number;
  onUndeliverable?: (e: UndeliverableEscalation) => Promise<void>;
  now?: () => number;
  /** Aborted when the channel stops: messages still waiting for their turn give up (and are handed back). */
  signal?: AbortSignal;
  /** Where pictures are read from at their turn (src/store/media.ts); without it they go as captions. */
  media?: MediaStore;
}

/**
 * The scope of a send (src/outbound/scope.ts), and `posted`: the wire messages Meta took of it (the
 * channel counts them per OutMessage: one given up at a stop is handed back only when none went out).
 */
export type CloudScope = SendScope & { readonly posted?: { n: number } };

export interface Outbound {
  /** The channel adapter's send: one OutMessage to a user who wrote to us before, for the work of `scope`. */
  send(waId: string, message: OutMessage, locale: Locale, scope?: CloudScope): Promise<void>;
  /** A plain text the channel itself says (inside the window: the user just wrote). */
  say(waId: string, text: string): Promise<void>;
  /** A status webhook about one of our messages: a failure is acted on once. */
  onStatus(status: MessageStatus): Promise<void>;
  /** Where every Graph message waits until some replica sent it. */
  outbox: Outbox;
}

/** The deps with their defaults filled in and the channel's logger: what every step is handed. */
export interface OutboundContext
  extends Pick<
    OutboundDeps,
    | 'graph'
    | 'pacing'
    | 'book'
    | 'redis'
    | 'keys'
    | 'i18n'
    | 'template'
    | 'metrics'
    | 'onUndeliverable'
    | 'media'
  > {
  log: Logger;
  now: () => number;
  signal?: AbortSignal;
  /** Every Graph message goes through it (the line decides when). */
  outbox?: Outbox;
  retry: Required<RetryOptions>;
  menuTtlSeconds: number;
}
