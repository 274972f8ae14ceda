/**
 * One outbound line for a platform: every message waits here for its turn within the platform's
 * limits, taken in order of what matters to the user (a direct answer first, then an order's
 * outcome, then progress, then the support desk), each chat's messages one at a time. The slots
 * live in a `SlotBook` (Redis for replicas), so every process paces against the same limits, and
 * one `retry_after` holds them all. A message the platform throttled keeps its place and is sent
 * again; only the platform saying the chat is gone, the line stopping, or `maxWaitMs` end it.
 */
import { LineQueues, type Waiting } from './line-queue.js';
import {
  DEFAULT_HORIZONS,
  OUTBOUND_CLASSES,
  type OutboundClass,
  type OutboundLine,
  type OutboundLineOptions,
  type OutboundMessage,
  PaidRefused,
  type Prebooked,
  Throttled,
  type Turn,
} from './line-types.js';
import type { Booking, Reservation, ReserveGuard } from './reserve.js';
import { memorySlotBook, withFallback } from './reserve-memory.js';

/** A send woken this much after its slot books a new one instead. */
const LATE_MS = 50;

/** Creates a line; with no `book`, slots are kept in this process only. */
export function createOutboundLine(opts: OutboundLineOptions): OutboundLine {
  const book = opts.book ? withFallback(opts.book, opts.logger) : memorySlotBook();
  const horizons = { ...DEFAULT_HORIZONS, ...opts.horizons };
  const maxWaitMs = opts.maxWaitMs ?? 15 * 60_000;
  const log = opts.logger;
  const queue = new LineQueues();
  const busy = new Set<string>();
  /** Sends waiting for the slot they booked: given back if their message is given up first. */
  const sleeping = new Map<Waiting, { timer: NodeJS.Timeout; booked: Booking[] }>();
  const keyNotBefore = new Map<string, number>();
  const classNotBefore = new Map<OutboundClass, number>();
  let seq = 0;
  let pumping = false;
  let kick: (() => void) | undefined;
  const paid = opts.paid;
  let paidOffUntil = 0;
  let dirty = false;
  const wake = () => {
    dirty = true;
    if (pumping) kick?.();
    else if (queue.size > 0) void pump();
  };
  /** Settles a message for good: its abort listener goes with it. */
  const settle = (w: Waiting, fail: unknown, value?: unknown) => {
    if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
    if (fail !== undefined) w.reject(fail);
    else w.resolve(value);
  };

  /** Queued, an abort fails it; one on its way or asleep (most replies) meets it in `go` or `release`. */
  const insert = (w: Waiting) => {
    const { signal } = w;
    if (signal && !w.onAbort) {
      w.onAbort = () => queue.remove(w) && w.reject(signal.reason);
      signal.addEventListener('abort', w.onAbort, { once: true });
    }
    queue.insert(w);
  };

  /** Asks the book; while Redis does not answer, paces within this process rather than stop. */
  const reserve = (m: OutboundMessage, line = opts.line, guard?: ReserveGuard, horizonMs = horizons[m.cls]) =>
    book.reserve({ line, own: m.own, horizonMs, ...(guard ? { guard } : {}) });
  const hold = (w: Waiting, t: Throttled) =>
    book.hold(t.retryAfterMs, t.scope === 'own' ? w.m.own : undefined);

  const launch = (w: Waiting, r: Reservation, isPaid = false) => {
    busy.add(w.m.key);
    const { waitMs, booked = [] } = r;
    const go = async () => {
      try {
        // Given up (the channel stopping) while it slept until its slot: not sent after all.
        if (w.signal?.aborted) throw w.signal.reason;
        const result = await w.send({ paid: isPaid });
        if (result instanceof PaidRefused) {
          paidOffUntil = Date.now() + (paid?.offAfterRefusalMs ?? 10 * 60_000);
          log?.warn({ reason: result.reason }, 'paid sending was refused; messages wait their free turn');
          insert(w);
          return;
        }
        if (isPaid) paid?.onPaid?.();
        if (result instanceof Throttled) {
          await hold(w, result);
          if (Date.now() - w.since > maxWaitMs)
            throw new Error(`gave up after ${maxWaitMs} ms of throttling`);
          if (w.signal?.aborted) throw w.signal.reason;
          insert(w);
          return;
        }
        settle(w, undefined, result);
      } catch (err) {
        settle(w, err ?? new Error('send failed'));
      } finally {
        busy.delete(w.m.key);
        wake();
      }
    };
    if (waitMs <= 0) {
      void go();
      return;
    }
    const due = Date.now() + waitMs;
    const timer = setTimeout(() => {
      sleeping.delete(w);
      if (Date.now() - due <= LATE_MS) {
        void go();
        return;
      }
      // Woken late (a busy event loop), it would crowd the slots booked after it: it gives its slot
      // back and books again, keeping its place among the waiting.
      void book.giveBack(booked);
      busy.delete(w.m.key);
      if (w.signal?.aborted) settle(w, w.signal.reason);
      else insert(w);
      wake();
    }, waitMs);
    sleeping.set(w, { timer, booked });
  };

  /** A slot booked and not to be used: given back, or the chat's next message would wait for it. */
  const unused = async (r: Reservation) => r.kind === 'go' && r.booked && book.giveBack(r.booked);
  const unbook = (pre: Prebooked) => void pre.booked.then(unused).catch(() => undefined);
  /** Whether `w` left `q` while its slot was asked for (given up at a stop): its slot goes back. */
  const left = (q: Waiting[], w: Waiting, r: Reservation) => {
    if (q.includes(w)) return false;
    unused(r).catch(() => undefined);
    return true;
  };
  /** A prebooked slot given back (its message did not go this way): the chat may send again. */
  function abandon(pre: Prebooked) {
    unbook(pre);
    if (!pre.loose) busy.delete(pre.m.key);
    wake();
  }
  /** A prebooked message: sent at its slot, or put in line when it got none. */
  const startBooked = (w: Waiting, pre: Prebooked, r?: Reservation) => {
    // Its wait counts from Redis's answer, as in a pass (else a slow round trip sends it early).
    // A loose slot (its chat not kept from sending meanwhile) goes only while its chat sends nothing.
    const free = !pre.loose || !busy.has(pre.m.key);
    if (r?.kind === 'go' && !w.signal?.aborted && free) return launch(w, r);
    if (!pre.loose) busy.delete(pre.m.key);
    if (w.signal?.aborted || r?.kind === 'go') unbook(pre);
    if (w.signal?.aborted) settle(w, w.signal.reason);
    else {
      if (r?.kind === 'key') keyNotBefore.set(pre.m.key, Date.now() + Math.max(1, r.waitMs - 20));
      insert(w);
    }
    wake();
  };

  const payableNow = (w: Waiting) =>
    paid !== undefined &&
    w.m.payable === true &&
    paid.classes.includes(w.m.cls) &&
    Date.now() - w.since >= paid.afterMs &&
    Date.now() >= paidOffUntil;

  /** One pass over the waiting messages, most urgent first; returns when to look again. */
  const pass = async (): Promise<number> => {
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const cls of OUTBOUND_CLASSES) {
      const blockedUntil = classNotBefore.get(cls) ?? 0;
      if (blockedUntil > now) {
        // A class further down books less far ahead: it cannot get in either.
        next = Math.min(next, blockedUntil);
        return next;
      }
      const q = queue.of(cls);
      const tried = new Set<string>();
      for (const w of [...q]) {
        const key = w.m.key;
        if (busy.has(key) || tried.has(key)) continue;
        tried.add(key);
        const nb = keyNotBefore.get(key) ?? 0;
        if (nb > now) {
          next = Math.min(next, nb);
          continue;
        }
        if (Date.now() - w.since > maxWaitMs) {
          queue.remove(w);
          settle(w, new Error(`waited over ${maxWaitMs} ms for a turn`));
          continue;
        }
        let r = await reserve(w.m);
        if (left(q, w, r)) continue;
        let isPaid = false;
        if (r.kind === 'line' && payableNow(w)) {
          // The free line is deep and this one has waited long enough: the paid lanes instead.
          r = await reserve(w.m, paid!.line);
          if (left(q, w, r)) continue;
          isPaid = true;
        }
        if (r.kind === 'go') {
          queue.remove(w);
          keyNotBefore.delete(key);
          launch(w, r, isPaid);
          return 0;
        }
        if (r.kind === 'key') {
          const at = Date.now() + Math.max(1, r.waitMs - 20);
          keyNotBefore.set(key, at);
          next = Math.min(next, at);
          continue;
        }
        let at = Date.now() + Math.max(1, r.waitMs);
        // Looked at again no later than when its paid turn may come.
        if (!isPaid && paid?.classes.includes(cls) && w.m.payable && Date.now() >= paidOffUntil)
          at = Math.min(at, Math.max(Date.now() + 1, w.since + paid.afterMs));
        for (const c of OUTBOUND_CLASSES.slice(OUTBOUND_CLASSES.indexOf(cls))) classNotBefore.set(c, at);
        return Math.min(next, at);
      }
    }
    if (keyNotBefore.size > 10_000) for (const [k, t] of keyNotBefore) if (t < now) keyNotBefore.delete(k);
    return next;
  };

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.size > 0) {
        dirty = false;
        const next = await pass();
        if (next === 0 || dirty) continue;
        const delay = Number.isFinite(next) ? Math.max(1, next - Date.now()) : 60_000;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          kick = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        kick = undefined;
      }
    } finally {
      pumping = false;
    }
  };

  return {
    run<T>(
      m: OutboundMessage,
      send: (turn: Turn) => Promise<T | Throttled | PaidRefused>,
      signal?: AbortSignal,
      pre?: Prebooked,
    ): Promise<T> {
      if (signal?.aborted) {
        if (pre) abandon(pre);
        return Promise.reject(signal.reason);
      }
      return new Promise<T>((resolve, reject) => {
        const w: Waiting = {
          m,
          seq: seq++,
          since: Date.now(),
          send,
          resolve: resolve as (v: unknown) => void,
          reject,
          signal,
        };
        if (pre) void pre.booked.catch(() => undefined).then((r) => startBooked(w, pre, r));
        else {
          insert(w);
          wake();
        }
      });
    },
    prebook(m, guard, loose) {
      const now = Date.now();
      // In this process only, nothing would be saved: no round trip to share.
      if (!opts.book || queue.size > 0 || busy.has(m.key)) return undefined;
      if ((classNotBefore.get(m.cls) ?? 0) > now || (keyNotBefore.get(m.key) ?? 0) > now) return undefined;
      if (loose) return { m, booked: reserve(m, opts.line, guard, loose.horizonMs), loose: true };
      busy.add(m.key);
      return { m, booked: reserve(m, opts.line, guard) };
    },
    abandon,
    release() {
      const unused: Booking[] = [];
      for (const [w, s] of sleeping) {
        if (!w.signal?.aborted) continue;
        clearTimeout(s.timer);
        sleeping.delete(w);
        busy.delete(w.m.key);
        settle(w, w.signal.reason);
        unused.push(...s.booked);
      }
      wake();
      return unused.length ? book.giveBack(unused) : Promise.resolve();
    },
  };
}
