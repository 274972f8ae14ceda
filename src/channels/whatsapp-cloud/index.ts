/** WhatsApp through Meta's official Cloud API (see channel.ts); baileys stays in ../whatsapp. */

export {
  createWhatsAppCloudChannel,
  type WhatsAppCloudChannel,
  type WhatsAppCloudOptions,
} from './channel.js';
export {
  createGraphClient,
  type GraphClient,
  GraphError,
  type Remedy,
  remedyOf,
  type WireMessage,
} from './graph.js';
export { isStaleTap, readMessage, typedChoice } from './inbound.js';
export { type CloudKeys, cloudKeys } from './keys.js';
export type { RetryOptions, UndeliverableEscalation } from './outbound.js';
export { type CloudPacing, createCloudPacing, type PacingOptions, throttleOf } from './pacing.js';
export { clip, LIMITS, type Rendered, renderCloud, type TypedMenu } from './render.js';
export { readWebhook, type WebhookBatch } from './schemas.js';
export { type TemplateSettings, templateMessage, templateParameter } from './template.js';
export { SIGNATURE_HEADER, signatureMatches, signBody } from './webhook.js';
export { createWindowBook, WINDOW_MS, type WindowBook } from './window.js';
