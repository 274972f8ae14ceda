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
export { isStaleTap, readMessage, typedChoice } from './inbound/inbound.js';
export { readWebhook, type WebhookBatch } from './inbound/schemas.js';
export { SIGNATURE_HEADER, signatureMatches, signBody } from './inbound/webhook.js';
export { type CloudKeys, cloudKeys } from './keys.js';
export type { RetryOptions, UndeliverableEscalation } from './outbound/outbound.js';
export { type CloudPacing, createCloudPacing, type PacingOptions, throttleOf } from './outbound/pacing.js';
export { createWindowBook, WINDOW_MS, type WindowBook } from './outbound/window.js';
export { clip, LIMITS, type Rendered, renderCloud, type TypedMenu } from './render/render.js';
export { type TemplateSettings, templateMessage, templateParameter } from './render/template.js';
