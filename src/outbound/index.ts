export { currentClass, withClass } from './class.js';
export {
  createOutboundLine,
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
} from './line.js';
export { type Lane, memorySlotBook, type Reservation, redisSlotBook, type SlotBook } from './reserve.js';
