/** The slot book in one process's memory (local mode, or while Redis does not answer). */
import type { Logger } from '../log/logger.js';
import {
  type Booking,
  holds,
  KEY_SLACK_MS,
  type Lane,
  MAX_SLOW,
  newestFirst,
  SLOW_MS,
  SLOW_STEP,
  type SlotBook,
} from './reserve.js';

/** The same book in one process's memory (no Redis, or Redis not answering). */
export function memorySlotBook(now: () => number = Date.now): SlotBook {
  const tats = new Map<string, number>();
  /** A window lane's bookings, oldest first (its last `windowMax`). */
  const windows = new Map<string, number[]>();
  const windowAt = (l: Lane & { windowMax: number }) => {
    const times = windows.get(l.key) ?? [];
    const last = times.at(-1) ?? 0;
    return times.length >= l.windowMax
      ? Math.max(last, (times.at(-l.windowMax) as number) + l.intervalMs)
      : last;
  };
  const book = (l: Lane & { windowMax: number }, at: number) => {
    const before = windows.get(l.key) ?? [];
    const times = [...before, Math.max(at, before.at(-1) ?? 0)].slice(-l.windowMax);
    windows.set(l.key, times);
  };
  let holdUntil = 0;
  let slow = 1;
  let slowUntil = 0;
  return {
    async reserve({ line, own, horizonMs }) {
      const t = now();
      const factor = t < slowUntil ? slow : 1;
      const intervalOf = (l: Lane, i: number) => (i < line.length ? l.intervalMs * factor : l.intervalMs);
      const lanes = [...line, ...own];
      let lineAt = Math.max(t, holdUntil);
      let ownAt = t;
      for (const [i, l] of lanes.entries()) {
        const at = l.windowMax
          ? windowAt(l as Lane & { windowMax: number })
          : (tats.get(l.key) ?? 0) - intervalOf(l, i) * (l.burst - 1);
        if (i < line.length) lineAt = Math.max(lineAt, at);
        else ownAt = Math.max(ownAt, at);
      }
      if (ownAt > lineAt + KEY_SLACK_MS) return { kind: 'key', waitMs: Math.ceil(ownAt - t) };
      const at = Math.max(lineAt, ownAt);
      if (at - t > horizonMs) return { kind: 'line', waitMs: Math.ceil(at - t - horizonMs) };
      const booked: Booking[] = [];
      for (const [i, l] of lanes.entries()) {
        if (l.windowMax) {
          book(l as Lane & { windowMax: number }, at);
          continue;
        }
        const from = tats.get(l.key) ?? 0;
        const to = Math.max(from, at) + intervalOf(l, i);
        tats.set(l.key, to);
        booked.push({ key: l.key, from: Math.ceil(from), to: Math.floor(to) });
      }
      if (tats.size > 20_000) for (const [k, v] of tats) if (v < t) tats.delete(k);
      if (windows.size > 20_000)
        for (const [k, v] of windows) if ((v.at(-1) ?? 0) < t - 3600_000) windows.delete(k);
      return { kind: 'go', waitMs: Math.ceil(at - t), booked };
    },
    async giveBack(bookings) {
      for (const b of newestFirst(bookings)) if (holds(tats.get(b.key) ?? 0, b.to)) tats.set(b.key, b.from);
    },
    async hold(ms, own) {
      const t = now();
      if (!own) {
        const again = t < slowUntil;
        const current = again ? slow : 1;
        slow = !again || holdUntil > t ? current : Math.min(current * SLOW_STEP, MAX_SLOW);
        holdUntil = Math.max(holdUntil, t + ms);
        slowUntil = t + SLOW_MS;
        return;
      }
      for (const l of own)
        if (l.windowMax) book(l as Lane & { windowMax: number }, t + ms);
        else tats.set(l.key, Math.max(tats.get(l.key) ?? 0, t + ms + l.intervalMs * (l.burst - 1)));
    },
  };
}

/** The book, or while it does not answer (Redis down) one in this process: pacing never stops. */
export function withFallback(book: SlotBook, log?: Logger): SlotBook {
  const fallback = memorySlotBook();
  let down = false;
  return {
    async reserve(req) {
      try {
        const r = await book.reserve(req);
        if (down) log?.info('outbound pacing is shared through Redis again');
        down = false;
        return r;
      } catch (err) {
        if (!down) log?.warn({ err: (err as Error).message }, 'outbound pacing falls back to this process');
        down = true;
        return fallback.reserve(req);
      }
    },
    hold: (ms, own) => book.hold(ms, own).catch(() => fallback.hold(ms, own)),
    giveBack: (bookings) => book.giveBack(bookings).catch(() => fallback.giveBack(bookings)),
  };
}
