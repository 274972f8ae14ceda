/**
 * The number's one connection: take the lease (or wait for it), open a socket, reconnect with
 * backoff when it closes, and give up on a logout (the session is deleted) or a 403. The lease is
 * renewed while held; losing it closes the socket, so only one instance serves the number.
 */
import type { EventEmitter } from 'node:events';
import { DisconnectReason, type WAMessage } from '@whiskeysockets/baileys';
import type { Logger } from '../../../log/logger.js';
import { CONNECTION_STATES, type ConnectionState, type WhatsAppMetrics } from '../metrics.js';
import type { Lease } from './lease.js';
import { connectOnce, type SocketClosed, type SocketSettings, type WhatsAppSocket } from './socket.js';

/** What the connection reports, on the channel's `events`. */
export interface WhatsAppChannelEvents {
  state: [ConnectionState];
  reconnect: [{ attempt: number; delayMs: number; code: number }];
  loggedOut: [];
  leaseLost: [];
}

export interface ConnectionDeps {
  socket: SocketSettings;
  lease: Lease;
  leaseTtlMs: number;
  leaseRetryMs: number;
  backoff: { baseMs: number; maxMs: number };
  /** How long `whenOpen` waits for a connection before failing. */
  sendTimeoutMs: number;
  numberId: string;
  metrics: WhatsAppMetrics;
  events: EventEmitter<WhatsAppChannelEvents>;
  log: Logger;
  /** Takes a received message (the inbound side). */
  received(msg: WAMessage, s: WhatsAppSocket): void;
  lidMapping: Parameters<typeof connectOnce>[1]['lidMapping'];
}

interface OpenWaiter {
  resolve: (s: WhatsAppSocket) => void;
  reject: (e: Error) => void;
}

export class WhatsAppConnection {
  state: ConnectionState = 'stopped';
  private stopped = true;
  private loop: Promise<void> | undefined;
  private socket: WhatsAppSocket | undefined;
  private openSocket: WhatsAppSocket | undefined;
  private openWaiters: OpenWaiter[] = [];
  private wake: (() => void) | undefined;
  private leaseLost = false;
  private renewTimer: NodeJS.Timeout | undefined;
  private attempt = 0;

  constructor(private readonly deps: ConnectionDeps) {
    this.setState('stopped');
  }

  /** Starts connecting in the background (waiting for the lease if another instance holds it). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run().catch((err) => {
      this.deps.log.error({ err }, 'The WhatsApp connection loop failed');
      this.setState('closed');
    });
  }

  /**
   * Closes the socket (without logging out), fails sends still waiting for a connection, lets
   * `drain` finish the received messages, then releases the lease.
   */
  async stop(drain: () => Promise<unknown>): Promise<void> {
    const wasRunning = !this.stopped;
    this.stopped = true;
    this.wake?.();
    await this.socket?.end(undefined);
    await this.loop;
    for (const waiter of this.openWaiters.splice(0)) waiter.reject(new Error('The WhatsApp channel stopped'));
    this.stopRenewal();
    await drain();
    if (wasRunning) {
      await this.deps.lease.release();
      this.setState('stopped');
    }
  }

  /** The open socket, once there is one (fails after `sendTimeoutMs`). */
  whenOpen(): Promise<WhatsAppSocket> {
    if (this.openSocket) return Promise.resolve(this.openSocket);
    // Stopped: no socket will open in this process; waiting `sendTimeoutMs` per message held stop up.
    if (this.stopped) return Promise.reject(new Error('The WhatsApp channel stopped'));
    const { sendTimeoutMs } = this.deps;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.openWaiters = this.openWaiters.filter((w) => w !== waiter);
        reject(new Error(`WhatsApp is not connected (waited ${sendTimeoutMs} ms)`));
      }, sendTimeoutMs);
      const waiter: OpenWaiter = {
        resolve: (s) => {
          clearTimeout(timer);
          resolve(s);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.openWaiters.push(waiter);
    });
  }

  private setState(next: ConnectionState): void {
    this.state = next;
    for (const s of CONNECTION_STATES)
      this.deps.metrics.connectionState.set({ number: this.deps.numberId, state: s }, s === next ? 1 : 0);
    this.deps.events.emit('state', next);
  }

  /** Waits `ms`, or less when woken (stop, lease lost). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** Takes the lease, then connects and reconnects while it is held. */
  private async run(): Promise<void> {
    while (!this.stopped) {
      let held = false;
      try {
        held = await this.deps.lease.acquire();
      } catch (err) {
        this.deps.log.error({ err }, 'Could not take the WhatsApp lease');
      }
      if (!held) {
        this.setState('waiting_lease');
        await this.pause(this.deps.leaseRetryMs);
        continue;
      }
      this.leaseLost = false;
      this.attempt = 0;
      this.startRenewal();
      while (!this.stopped && !this.leaseLost) {
        this.setState('connecting');
        const closed = await connectOnce(this.deps.socket, this.socketHooks());
        if (this.stopped || this.leaseLost) break;
        if (await this.isFinal(closed)) return;
        await this.waitToReconnect(closed.code);
      }
      this.stopRenewal();
    }
  }

  private socketHooks(): Parameters<typeof connectOnce>[1] {
    return {
      created: (s) => {
        this.socket = s;
      },
      opened: (s) => {
        this.attempt = 0;
        this.openSocket = s;
        for (const waiter of this.openWaiters.splice(0)) waiter.resolve(s);
        this.setState('open');
        this.deps.log.info('WhatsApp connected');
      },
      closed: (s) => {
        if (this.socket === s) this.socket = undefined;
        if (this.openSocket === s) this.openSocket = undefined;
      },
      received: this.deps.received,
      lidMapping: this.deps.lidMapping,
      unwanted: () => this.stopped || this.leaseLost,
    };
  }

  /** A logout (the session is deleted) or a 403 ends the loop for good: true then. */
  private async isFinal({ code, auth, saving }: SocketClosed): Promise<boolean> {
    const { log } = this.deps;
    if (code === DisconnectReason.loggedOut) {
      this.deps.metrics.loggedOut.inc({ number: this.deps.numberId });
      log.error(
        'WhatsApp logged this number out (unlinked on the phone or banned). Its session was deleted; restart to pair it again.',
      );
      await saving;
      await auth.clear();
      await this.giveUp('logged_out');
      this.deps.events.emit('loggedOut');
      return true;
    }
    if (code === DisconnectReason.forbidden) {
      log.error('WhatsApp refused this number (403 forbidden): not reconnecting');
      await this.giveUp('closed');
      return true;
    }
    return false;
  }

  private async giveUp(state: ConnectionState): Promise<void> {
    this.stopRenewal();
    await this.deps.lease.release();
    this.stopped = true;
    this.setState(state);
  }

  private async waitToReconnect(code: number): Promise<void> {
    const delayMs = this.backoff(this.attempt++);
    const attempt = this.attempt;
    this.deps.metrics.reconnects.inc({ number: this.deps.numberId, code: String(code) });
    this.deps.log.warn({ code, attempt, delayMs }, 'WhatsApp connection closed; reconnecting');
    this.setState('closed');
    this.deps.events.emit('reconnect', { attempt, delayMs, code });
    await this.pause(delayMs);
  }

  /** `baseMs * 2^n`, capped at `maxMs`, with jitter over its upper half. */
  private backoff(n: number): number {
    const capped = Math.min(this.deps.backoff.maxMs, this.deps.backoff.baseMs * 2 ** n);
    return Math.round(capped / 2 + (Math.random() * capped) / 2);
  }

  private startRenewal(): void {
    this.stopRenewal();
    this.renewTimer = setInterval(
      () => {
        this.deps.lease
          .renew()
          .catch((err) => {
            this.deps.log.error({ err }, 'Could not renew the WhatsApp lease');
            return false;
          })
          .then((held) => this.onRenewed(held));
      },
      Math.max(50, Math.floor(this.deps.leaseTtlMs / 3)),
    );
  }

  private onRenewed(held: boolean): void {
    if (held || this.leaseLost || this.stopped) return;
    this.leaseLost = true;
    this.stopRenewal();
    this.deps.log.error(
      'Lost the WhatsApp lease: closing this connection so only one instance serves the number',
    );
    this.deps.events.emit('leaseLost');
    this.socket?.end(new Error('WhatsApp lease lost'));
    this.wake?.();
  }

  private stopRenewal(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = undefined;
  }
}
