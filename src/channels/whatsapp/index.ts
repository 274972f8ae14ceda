/** The WhatsApp channel (baileys): see channel.ts. */

export {
  createWhatsAppChannel,
  type MakeWhatsAppSocket,
  type WhatsAppChannel,
  type WhatsAppChannelEvents,
  type WhatsAppChannelOptions,
  type WhatsAppSocket,
} from './channel.js';
export { CONNECTION_STATES, type ConnectionState, type WhatsAppMetrics } from './metrics.js';
export { type WhatsAppRedis, whatsappKeys } from './redis.js';
export { chooseFromMenu, type Menu, renderMessage, type Translator } from './send/menu.js';
export { createWhatsAppPacing, type PacingOptions, type WhatsAppPacing } from './send/pacer.js';
export { loadRedisAuthState, type RedisAuthState, redisSignalKeyStore } from './session/auth-state.js';
export { createLease, type Lease } from './session/lease.js';
