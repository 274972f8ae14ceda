/**
 * What the Cloud channel's parts share (built once by channel.ts): the clients, the Redis keys, and
 * the queues of each user's incoming messages and of what is sent to them.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../../log/logger.js';
import { OUTBOUND_CLASSES, type OutboundClass } from '../../outbound/index.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import type { Translator } from '../whatsapp/send/menu.js';
import type { GraphClient } from './graph.js';
import type { CloudKeys } from './keys.js';
import type { Outbound } from './outbound/outbound-types.js';
import type { Queues } from './outbound/queues.js';
import type { WindowBook } from './outbound/window.js';

export interface CloudChannelContext {
  conversation: Conversation;
  i18n: Translator;
  redis: RedisClientType;
  keys: CloudKeys;
  log: Logger;
  graph: GraphClient;
  book: WindowBook;
  outbound: Outbound;
  /** The channel's adapter: its `send` goes through `sends`. */
  adapter: ChannelAdapter;
  /** Each user's incoming messages, in order. */
  inbound: Queues;
  /**
   * Each user's outgoing messages, in order within each class (`sendQueue`), so a reply overtakes
   * the user's queued progress and notices in the outbound line; and status webhooks about them.
   */
  sends: Queues;
}

/** The queue of a user's outgoing messages of one class. */
export const sendQueue = (waId: string, cls: OutboundClass): string => `${waId}:${cls}`;

/** Every send queue of a user: a status webhook waits for what is being sent to them. */
export const sendQueues = (waId: string): string[] => OUTBOUND_CLASSES.map((c) => sendQueue(waId, c));
