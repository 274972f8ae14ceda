/** What the channel's inbound and outbound sides share, passed to each explicitly. */

import type { Locale, MessageMedia } from '../../chat/types.js';
import type { Logger } from '../../log/logger.js';
import type { SendScope } from '../../outbound/index.js';
import type { Conversation } from '../types.js';
import type { WhatsAppMetrics } from './metrics.js';
import type { WhatsAppKeys, WhatsAppRedis } from './redis.js';
import type { Translator } from './send/menu.js';
import type { BaileysBody } from './send/outbox.js';
import type { Identities } from './session/identity.js';

export interface WhatsAppDeps {
  conversation: Conversation;
  i18n: Translator;
  redis: WhatsAppRedis;
  keys: WhatsAppKeys;
  identities: Identities;
  metrics: WhatsAppMetrics;
  numberId: string;
  log: Logger;
  /** How long a numbered menu can be answered, in seconds. */
  menuTtlSeconds: number;
  /**
   * Puts a message in the number's outbox for the work of `scope` (its class, its name); resolves
   * once it was sent (the menu saved then).
   */
  deliver(
    jid: string,
    text: string,
    menu?: BaileysBody['menu'],
    media?: MessageMedia,
    scope?: SendScope,
  ): Promise<void>;
}

/** The locale of the last message sent to this phone number (English if none). */
export async function lastLocale(deps: WhatsAppDeps, phone: string): Promise<Locale> {
  const stored: string | null = await deps.redis.hGet(deps.keys.locales, phone);
  return stored === 'sw' ? 'sw' : 'en';
}
