/** Finding orders again when Redis came back empty: the order journal and the recovery pass. */

export { createRecoveryGate, type RecoveryGate, type RecoveryTurn, recoveryPending } from './gate.js';
export {
  compactJournal,
  createFileJournal,
  type IntendedOrder,
  type JournalEntry,
  noJournal,
  type OrderJournal,
} from './journal.js';
export {
  type RecoveryDeps,
  type RecoveryReport,
  recoverLostOrders,
  type SaleRecovery,
  type SaleRecoverySink,
} from './recover.js';
export {
  restoreStanding,
  type StandingOutcome,
  type StandingReport,
  type StandingRestorer,
  type StandingSink,
} from './standing.js';
export {
  createStandingRecord,
  noStandingRecord,
  type StandingKind,
  type StandingRecord,
} from './standing-record.js';
export { saleDoneKey, unfiledKey } from './unfiled-sells.js';
