/**
 * One message per `replaceKey` per chat, edited as the state moves. Edits in a chat are spaced by
 * `intervalMs`; while one waits (for its spacing or its turn in the outbound line), newer content
 * replaces older: the content is read when the turn comes, so only the newest state is sent and the
 * final state is never dropped. Each `submit` resolves once its content, or newer content, is on
 * screen.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { OUTBOUND_CLASSES, type OutboundClass } from '../../outbound/index.js';
import type { ChatState } from './state.js';

/**
 * Puts content on screen: edits `messageId` when given, else sends; returns the id now showing it.
 * A `paid` turn sends a new message (a paid send cannot be an edit) in place of the old one.
 */
export type Deliver<C> = (
  chatId: string,
  messageId: number | undefined,
  content: C,
  paid: boolean,
) => Promise<number>;

/**
 * Runs `work` at its turn in the outbound line (again, after a throttle), told if the turn is paid;
 * `signal` takes it out of the line while it still waits.
 */
export type Paced = (
  chatId: string,
  cls: OutboundClass,
  work: (turn: { paid: boolean }) => Promise<number>,
  signal?: AbortSignal,
) => Promise<number>;

/** Why a waiting delivery left the line: more urgent content came, and it waits again as that. */
const UPGRADED = new Error('more urgent content: waits again in its class');

const moreUrgent = (a: OutboundClass, b: OutboundClass | undefined) =>
  b === undefined || OUTBOUND_CLASSES.indexOf(a) < OUTBOUND_CLASSES.indexOf(b) ? a : b;

interface Slot<C> {
  chatId: string;
  key: string;
  pending: C | undefined;
  /** The most urgent class of the content submitted since the last delivery. */
  cls: OutboundClass | undefined;
  waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }>;
  running: Promise<void> | undefined;
  /** While its delivery waits in the line: its class, and how to take it out. */
  waiting?: { cls: OutboundClass; leave: AbortController };
}

export class ReplaceQueue<C> {
  private readonly slots = new Map<string, Slot<C>>();
  private readonly nextChangeAt = new Map<string, number>();

  constructor(
    private readonly state: ChatState,
    private readonly deliver: Deliver<C>,
    private readonly intervalMs: number,
    private readonly paced: Paced = (_chatId, _cls, work) => work({ paid: false }),
  ) {}

  submit(chatId: string, key: string, content: C, cls: OutboundClass = 'progress'): Promise<void> {
    const id = `${chatId}\n${key}`;
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { chatId, key, pending: undefined, cls: undefined, waiters: [], running: undefined };
      this.slots.set(id, slot);
    }
    slot.pending = content;
    slot.cls = moreUrgent(cls, slot.cls);
    // An outcome replacing progress that waits in the line: it waits again as an outcome (its place
    // and whether it may go paid are the outcome's).
    if (slot.waiting && moreUrgent(cls, slot.waiting.cls) !== slot.waiting.cls)
      slot.waiting.leave.abort(UPGRADED);
    const done = new Promise<void>((resolve, reject) => slot.waiters.push({ resolve, reject }));
    if (!slot.running) {
      const s = slot;
      s.running = this.pump(s).finally(() => {
        s.running = undefined;
        if (this.slots.get(id) === s && s.pending === undefined) this.slots.delete(id);
      });
    }
    return done;
  }

  /** Waits until every submitted content is delivered (or failed). */
  async drain(): Promise<void> {
    while (this.slots.size) {
      await Promise.all([...this.slots.values()].map((s) => s.running));
    }
  }

  private async pump(slot: Slot<C>): Promise<void> {
    let spaced = false;
    while (slot.pending !== undefined) {
      const waiters: Slot<C>['waiters'] = [];
      try {
        const messageId = await this.state.getReplaceMessage(slot.chatId, slot.key);
        if (messageId !== undefined && !spaced) await this.pace(slot.chatId);
        spaced = true;
        const cls = slot.cls ?? 'progress';
        const leave = new AbortController();
        slot.waiting = { cls, leave };
        let content: C | undefined;
        const shown = await this.paced(
          slot.chatId,
          cls,
          (turn) => {
            slot.waiting = undefined;
            // The newest content when the turn comes (or the same again after a throttle).
            if (slot.pending !== undefined) {
              content = slot.pending;
              slot.pending = undefined;
              slot.cls = undefined;
              waiters.push(...slot.waiters.splice(0));
            }
            return this.deliver(slot.chatId, messageId, content as C, turn.paid);
          },
          leave.signal,
        );
        spaced = false;
        if (messageId === undefined) this.reserve(slot.chatId);
        if (shown !== messageId) await this.state.setReplaceMessage(slot.chatId, slot.key, shown);
        for (const w of waiters) w.resolve();
      } catch (error) {
        slot.waiting = undefined;
        if (error === UPGRADED && !waiters.length) continue;
        spaced = false;
        if (waiters.length) {
          // Newer content, if any, still gets its own attempt.
          for (const w of waiters) w.reject(error);
        } else {
          for (const w of slot.waiters.splice(0)) w.reject(error);
          slot.pending = undefined;
        }
      }
    }
  }

  /** Waits for this chat's next edit turn and takes it. */
  private async pace(chatId: string): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextChangeAt.get(chatId) ?? 0);
    this.nextChangeAt.set(chatId, at + this.intervalMs);
    if (at > now) await sleep(at - now);
  }

  /** A fresh message counts as a change: the first edit waits a full interval after it. */
  private reserve(chatId: string): void {
    const now = Date.now();
    this.nextChangeAt.set(chatId, Math.max(now, this.nextChangeAt.get(chatId) ?? 0) + this.intervalMs);
    if (this.nextChangeAt.size > 10_000) {
      for (const [k, t] of this.nextChangeAt) if (t < now) this.nextChangeAt.delete(k);
    }
  }
}
