/** The WhatsApp channel (baileys): see channel.ts. */

export {
  createWhatsAppChannel,
  type MakeWhatsAppSocket,
  type WhatsAppChannel,
  type WhatsAppChannelOptions,
  type WhatsAppSocket,
} from './channel.js';

export { whatsappKeys } from './redis.js';
export { chooseFromMenu, renderMessage } from './send/menu.js';
export type { PacingOptions } from './send/pacer.js';
export { loadRedisAuthState, redisSignalKeyStore } from './session/auth-state.js';
export { createLease } from './session/lease.js';
