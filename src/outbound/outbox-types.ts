/** The outbox's contract: what it is built from and what it offers (./outbox.ts). */

import type { Logger } from '../log/logger.js';
import type { OutboundClass, OutboundLine, PaidRefused, Throttled, Turn } from './line-types.js';
import type { OutboxAlso, OutboxStore } from './outbox-store.js';
import type { Lane, ReserveGuard } from './reserve.js';
import type { SendScope } from './scope.js';

/** The platform refused the message (its error as recorded, when another replica sent it). */
export class RefusedElsewhere extends Error {
  override name = 'RefusedElsewhere';
}

export interface OutboxOptions {
  store: OutboxStore;
  line: OutboundLine;
  /** The message's own lanes (its chat's rate). */
  lanesOf(key: string, body: unknown): Lane[];
  /** Whether this message may go on the paid lanes when it has waited long enough. */
  payable?(key: string, cls: OutboundClass, body: unknown): boolean;
  /** Sends one body at its turn; answers what the platform gave back (serializable). */
  send(body: unknown, turn: Turn, key: string): Promise<unknown | Throttled | PaidRefused>;
  /** An error a refused send leaves on record (for a waiter on another replica). */
  describe?(error: unknown): string;
  /**
   * What of an answer is kept on record for a waiter on another replica (default: all of it). The
   * waiter here gets the whole answer; a record holds what callers read, not what the platform echoes.
   */
  recorded?(value: unknown): unknown;
  logger?: Logger;
  /** A holder silent this long is taken for dead (default 15 s). */
  leaseMs?: number;
  /** How often chats of dead or stopped holders are looked for (default 500 ms). */
  pollMs?: number;
  /**
   * Off: putting does not start working the outbox (only `start` does), for a transport only one
   * instance can send on; what others put is taken up by the one working it.
   */
  autoStart?: boolean;
}

/** What goes in with a message: the writes that belong with it, the slot it replaces within. */
export interface PutOptions {
  also?: OutboxAlso;
  slot?: string;
  /** The work sending it: names the message, makes it strict, carries a mark (./scope.ts). */
  scope?: SendScope;
}

export interface Outbox {
  /** Puts the message in the outbox, then resolves with the platform's answer, whoever sends it. */
  submit(key: string, cls: OutboundClass, body: unknown, put?: PutOptions): Promise<unknown>;
  /** Puts the message in the outbox and resolves at once (nothing waits for the answer). */
  enqueue(key: string, cls: OutboundClass, body: unknown, put?: PutOptions): Promise<void>;
  /**
   * Redis only: what holds while nothing of `key`'s `cls` queue waits in the outbox, for a slot a
   * message going around it books (so it passes none of its chat's).
   */
  quietGuard?(key: string, cls: OutboundClass): ReserveGuard | undefined;
  start(): Promise<void>;
  /** Stops sending and leaves everything unsent to the other replicas, within `graceMs`. */
  handOver(graceMs: number): Promise<void>;
  readonly owner: string;
}
