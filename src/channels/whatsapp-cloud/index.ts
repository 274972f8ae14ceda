/** WhatsApp through Meta's official Cloud API (see channel.ts); baileys stays in ../whatsapp. */

export { createWhatsAppCloudChannel, type WhatsAppCloudChannel } from './channel.js';

export { cloudKeys } from './keys.js';
export type { RetryOptions, UndeliverableEscalation } from './outbound/outbound.js';
export { type CloudPacing, createCloudPacing, type PacingOptions } from './outbound/pacing.js';
