/**
 * What the Cloud channel's parts share (built once by channel.ts): the clients, the Redis keys, and
 * the two queues, one for each user's incoming messages and one for what is sent to them.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../../log/logger.js';
import type { ChannelAdapter, Conversation } from '../types.js';
import type { Translator } from '../whatsapp/menu.js';
import type { GraphClient } from './graph.js';
import type { CloudKeys } from './keys.js';
import type { Outbound } from './outbound-types.js';
import type { Queues } from './queues.js';
import type { WindowBook } from './window.js';

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
  /** Each user's outgoing messages (and status webhooks about them), in order. */
  sends: Queues;
}
