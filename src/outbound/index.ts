export { currentClass, nextSendName, withClass, withSendScope } from './class.js';
export { createOutboundLine } from './line.js';
export {
  DEFAULT_HORIZONS,
  OUTBOUND_CLASSES,
  type OutboundClass,
  type OutboundLine,
  type OutboundLineOptions,
  type OutboundMessage,
  type PaidOverflow,
  PaidRefused,
  Throttled,
  type Turn,
} from './line-types.js';
export {
  createOutbox,
  type Outbox,
  type OutboxOptions,
  type PutOptions,
  RefusedElsewhere,
} from './outbox.js';
export { memoryOutboxStore } from './outbox-memory.js';
export { redisOutboxStore } from './outbox-redis.js';
export type { OutboxAlso, OutboxEntry, OutboxResult, OutboxStore } from './outbox-store.js';
export { type Lane, memorySlotBook, type Reservation, redisSlotBook, type SlotBook } from './reserve.js';
