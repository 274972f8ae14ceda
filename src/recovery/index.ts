/** Finding orders again when Redis came back empty: the order journal and the recovery pass. */

export { createRecoveryGate, recoveryPending } from './gate.js';
export {
  compactJournal,
  createFileJournal,
  type IntendedOrder,
  type JournalEntry,
  noJournal,
  type OrderJournal,
} from './journal.js';
export { type RecoveryReport, recoverLostOrders, type SaleRecoverySink } from './recover.js';
export { restoreStanding, type StandingRestorer, type StandingSink } from './standing.js';
export { createStandingRecord, type StandingRecord } from './standing-record.js';
export { saleDoneKey, unfiledKey } from './unfiled-sells.js';
