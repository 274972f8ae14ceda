/** The WhatsApp channel (baileys): see channel.ts. */

export { loadRedisAuthState, type RedisAuthState, redisSignalKeyStore } from './auth-state.js';
export {
  createWhatsAppChannel,
  type MakeWhatsAppSocket,
  type WhatsAppChannel,
  type WhatsAppChannelEvents,
  type WhatsAppChannelOptions,
  type WhatsAppSocket,
} from './channel.js';
export { createLease, type Lease } from './lease.js';
export { chooseFromMenu, type Menu, renderMessage, type Translator } from './menu.js';
export { CONNECTION_STATES, type ConnectionState, type WhatsAppMetrics } from './metrics.js';
export { createWhatsAppPacing, type PacingOptions, type WhatsAppPacing } from './pacer.js';
export { type WhatsAppRedis, whatsappKeys } from './redis.js';
