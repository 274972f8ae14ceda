export { createOutboundLine } from './line.js';
export {
  OUTBOUND_CLASSES,
  type OutboundClass,
  type OutboundLine,
  PaidRefused,
  type Prebooked,
  Throttled,
  type Turn,
} from './line-types.js';
export { createOutbox } from './outbox.js';
export { memoryOutboxStore } from './outbox-memory.js';
export { redisOutboxStore } from './outbox-redis.js';
export type { OutboxStore } from './outbox-store.js';
export type { Outbox } from './outbox-types.js';
export { type Lane, redisSlotBook } from './reserve.js';
export {
  type Delivery,
  NO_SCOPE,
  noteDelivery,
  type SendScope,
  type StraightSlot,
  sendScope,
  withClass,
} from './scope.js';
