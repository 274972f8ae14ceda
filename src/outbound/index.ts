export { currentClass, withClass } from './class.js';
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
export { type Lane, memorySlotBook, type Reservation, redisSlotBook, type SlotBook } from './reserve.js';
