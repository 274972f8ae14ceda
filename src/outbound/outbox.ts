/**
 * The durable outbox in front of a platform's outbound line: `submit` puts a message in the store
 * (Redis) first, and the line decides when it goes. Every replica works the chats it holds, one
 * message at a time per chat, and every `pollMs` takes up chats whose holder died or stopped, so a
 * message is sent by whichever replica is alive. `handOver` (a stop) gives up what still waits for
 * its turn, lets the sends in flight finish, and lets go of its chats for the other replicas.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../log/logger.js';
import type { OutboundClass, OutboundLine, PaidRefused, Throttled, Turn } from './line.js';
import type { OutboxAlso, OutboxEntry, OutboxResult, OutboxStore } from './outbox-store.js';
import type { Lane } from './reserve.js';

/** The message was left for another replica (this one is stopping): it is in the outbox, not lost. */
export class HandedOver extends Error {
  override name = 'HandedOver';
  constructor() {
    super('handed over to another replica at a stop');
  }
}

/** The platform refused the message (its error as recorded, when another replica sent it). */
export class RefusedElsewhere extends Error {
  override name = 'RefusedElsewhere';
}

export interface OutboxOptions {
  store: OutboxStore;
  line: OutboundLine;
  lanesOf(key: string): Lane[];
  payable?(key: string, cls: OutboundClass): boolean;
  /** Sends one body at its turn; answers what the platform gave back (serializable). */
  send(body: unknown, turn: Turn, key: string): Promise<unknown | Throttled | PaidRefused>;
  /** An error a refused send leaves on record (for a waiter on another replica). */
  describe?(error: unknown): string;
  logger?: Logger;
  /** A holder silent this long is taken for dead (default 15 s). */
  leaseMs?: number;
  /** How often chats of dead or stopped holders are looked for (default 500 ms). */
  pollMs?: number;
}

export interface Outbox {
  /** Puts the message in the outbox, then resolves with the platform's answer, whoever sends it. */
  submit(key: string, cls: OutboundClass, body: unknown, also?: OutboxAlso): Promise<unknown>;
  /** Puts the message in the outbox and resolves at once (nothing waits for the answer). */
  enqueue(key: string, cls: OutboundClass, body: unknown, also?: OutboxAlso): Promise<void>;
  start(): Promise<void>;
  /** Stops sending and leaves everything unsent to the other replicas, within `graceMs`. */
  handOver(graceMs: number): Promise<void>;
  readonly owner: string;
}

interface Waiter {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export function createOutbox(opts: OutboxOptions): Outbox {
  const { store, line, logger: log } = opts;
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const leaseMs = opts.leaseMs ?? 15_000;
  const pollMs = opts.pollMs ?? 500;
  const waiters = new Map<string, Waiter>();
  const working = new Map<string, Promise<void>>();
  let stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let started = false;

  const settle = (id: string, r: OutboxResult, error?: unknown) => {
    const w = waiters.get(id);
    if (!w) return;
    waiters.delete(id);
    if (r.ok) w.resolve(r.value);
    else w.reject(error ?? new RefusedElsewhere(r.error));
  };

  /** One body at its turn in the line. */
  const paced = (key: string, cls: OutboundClass, body: unknown) =>
    line.run(
      { key, cls, own: opts.lanesOf(key), payable: opts.payable?.(key, cls) },
      (turn) => opts.send(body, turn, key),
      stop.signal,
    );

  /** Records a send's end, again while Redis does not answer (a send is never recorded twice). */
  const finish = async (e: OutboxEntry, r: OutboxResult) => {
    for (let n = 0; ; n++) {
      try {
        return await store.finish(e.key, owner, e.id, r);
      } catch (err) {
        if (n >= 50 || stop.signal.aborted) throw err;
        log?.warn({ err: (err as Error).message }, 'outbox: could not record a send; trying again');
        await new Promise((res) => setTimeout(res, Math.min(2000, 100 * 2 ** n)));
      }
    }
  };

  /** Sends a chat's messages in order while this replica holds it. */
  const work = (key: string) => {
    if (working.has(key) || stop.signal.aborted) return;
    const run = (async () => {
      let e = await store.head(key, owner);
      while (e && !stop.signal.aborted) {
        const m = e;
        let r: OutboxResult;
        let error: unknown;
        try {
          const value = await paced(key, m.cls, m.body);
          r = { ok: true, value: value ?? null };
        } catch (err) {
          if (stop.signal.aborted && err === stop.signal.reason) break;
          error = err;
          r = { ok: false, error: opts.describe?.(err) ?? (err as Error)?.message ?? String(err) };
        }
        e = await finish(m, r);
        settle(m.id, r, error);
      }
    })()
      .catch((err: unknown) => log?.warn({ err: (err as Error).message }, 'outbox: a chat stopped'))
      .finally(() => {
        working.delete(key);
      });
    working.set(key, run);
  };

  /** Keeps this replica's holds alive and takes up the chats nobody live holds. */
  const tick = async () => {
    try {
      await store.beat(owner, leaseMs);
      for (const key of await store.claim(owner, 200)) work(key);
    } catch (err) {
      log?.warn({ err: (err as Error).message }, 'outbox: could not look for messages to send');
    }
  };

  /** The answer of a message another replica sends: looked for until it is recorded. */
  const awaitElsewhere = async (id: string, first: number) => {
    for (let wait = first; waiters.has(id); wait = Math.min(wait * 2, 2000)) {
      await new Promise((res) => setTimeout(res, wait).unref());
      const r = await store.result(id).catch(() => undefined);
      if (r) settle(id, r);
    }
  };

  const put = async (key: string, cls: OutboundClass, body: unknown, also?: OutboxAlso) => {
    if (!started) await outbox.start();
    const { id, held } = await store.put({ key, cls, body }, owner, also);
    if (held) work(key);
    return { id, held };
  };

  const outbox: Outbox = {
    owner,
    async submit(key, cls, body, also) {
      if (stop.signal.aborted) throw new HandedOver();
      let placed: { id: string; held: boolean };
      try {
        placed = await put(key, cls, body, also);
      } catch (err) {
        if (also) throw err;
        // Redis does not answer: sent from this process as before the outbox, rather than not at all.
        log?.warn({ err: (err as Error).message }, 'outbox unavailable: sending without it');
        return paced(key, cls, body);
      }
      const { id, held } = placed;
      return new Promise<unknown>((resolve, reject) => {
        waiters.set(id, { resolve, reject });
        // This replica's own chats settle as they are sent; the lookup is only a backstop for them.
        void awaitElsewhere(id, held ? 2000 : 100);
      });
    },
    async enqueue(key, cls, body, also) {
      await put(key, cls, body, also);
    },
    async start() {
      if (started) return;
      started = true;
      if (stop.signal.aborted) stop = new AbortController();
      await store.beat(owner, leaseMs).catch(() => {});
      timer = setInterval(() => void tick(), pollMs);
      timer.unref();
      void tick();
    },
    async handOver(graceMs) {
      clearInterval(timer);
      started = false;
      stop.abort(new HandedOver());
      // What waits for its turn leaves the line at once; a send in flight finishes and is recorded.
      let t: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...working.values()]),
        new Promise((res) => {
          t = setTimeout(res, graceMs);
        }),
      ]);
      clearTimeout(t);
      await store.release(owner).catch((err: unknown) => {
        log?.warn(
          { err: (err as Error).message },
          'outbox: could not let go at a stop; others wait out the hold',
        );
      });
      for (const w of waiters.values()) w.reject(new HandedOver());
      waiters.clear();
      log?.info({ owner }, 'outbox handed over to the other replicas');
    },
  };
  return outbox;
}
