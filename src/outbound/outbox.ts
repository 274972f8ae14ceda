/**
 * The durable outbox in front of a platform's outbound line: `submit` puts a message in the store
 * (Redis) first, and the line decides when it goes. Every replica works the chats it holds, one
 * message at a time per chat, and every `pollMs` takes up chats whose holder died or stopped, so a
 * message is sent by whichever replica is alive. `handOver` (a stop) gives up what still waits for
 * its turn, lets the sends in flight finish, and lets go of its chats for the other replicas.
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { HandedOverError as HandedOver } from '../chat/types.js';
import { markPending, takeMark } from '../store/marks.js';
import { OUTBOUND_CLASSES, type OutboundClass, type Prebooked, type Turn } from './line-types.js';
import { newOutboxId } from './outbox-redis.js';
import { chatOf, type OutboxEntry, type OutboxResult, type Placed, queueOf } from './outbox-store.js';
import { type Outbox, type OutboxOptions, type PutOptions, RefusedElsewhere } from './outbox-types.js';
import { nextSendName, sendIsStrict } from './scope.js';

interface Waiter {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** Why a message left the line: newer, more urgent content for its slot; it waits again as that. */
const UPGRADED = new Error('more urgent content: waits again in its class');
const rank = (cls: OutboundClass) => OUTBOUND_CLASSES.indexOf(cls);

/** The stop every message waiting in line listens to: as many listeners as chats waiting. */
const stopSignal = () => {
  const c = new AbortController();
  setMaxListeners(0, c.signal);
  return c;
};

export function createOutbox(opts: OutboxOptions): Outbox {
  const { store, line, logger: log } = opts;
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const leaseMs = opts.leaseMs ?? 15_000;
  // Woken by the others' stops, a replica looks on its own only for the chats of dead ones.
  const pollMs = opts.pollMs ?? (store.wakes ? 2000 : 500);
  const waiters = new Map<string, Waiter[]>();
  const working = new Map<string, Promise<void>>();
  /** Messages of slots waiting in the line here: their class, and how to take them out. */
  const inLine = new Map<string, { cls: OutboundClass; leave: AbortController }>();
  let stop = stopSignal();
  let timer: NodeJS.Timeout | undefined;
  let unwatch: (() => Promise<void>) | undefined;
  /** The start, once: a message is put only after this replica's heartbeat is in, or another
   * replica would take its chats for a dead holder's and send them too. */
  let started: Promise<void> | undefined;

  /** The lookup timer of each message waited for (see `awaitElsewhere`). */
  const lookups = new Map<string, NodeJS.Timeout>();

  const settle = (id: string, r: OutboxResult, error?: unknown) => {
    for (const w of waiters.get(id) ?? []) {
      if (r.ok) w.resolve(r.value);
      else w.reject(error ?? new RefusedElsewhere(r.error));
    }
    waiters.delete(id);
    // A settled message's lookup never fires: a timer left to fire woke the process once a message.
    clearTimeout(lookups.get(id));
    lookups.delete(id);
  };

  /** One message at its turn in the line; a slot's newest body is read when the turn comes. */
  const messageOf = (e: Pick<OutboxEntry, 'key' | 'cls' | 'body'>) => {
    const chat = chatOf(e.key);
    return {
      key: chat,
      cls: e.cls,
      own: opts.lanesOf(chat, e.body),
      payable: opts.payable?.(chat, e.cls, e.body),
    };
  };
  const paced = (e: Omit<OutboxEntry, 'id'> & { id?: string }, signal: AbortSignal, pre?: Prebooked) => {
    // A prebooked message keeps the lanes its slot was booked on.
    const m = pre?.m ?? messageOf(e);
    const send = async (turn: Turn) => {
      const body = e.slot !== undefined && e.id ? ((await store.begin(e.key, e.id))?.body ?? e.body) : e.body;
      return opts.send(body, turn, m.key);
    };
    return line.run(m, send, signal, pre);
  };

  /** Records a send's end, again while Redis does not answer (a send is never recorded twice). */
  const finish = async (queue: string, e: OutboxEntry, r: OutboxResult) => {
    for (let n = 0; ; n++) {
      try {
        return await store.finish(queue, owner, e.id, r);
      } catch (err) {
        if (n >= 50 || stop.signal.aborted) throw err;
        log?.warn({ err: (err as Error).message }, 'outbox: could not record a send; trying again');
        await new Promise((res) => setTimeout(res, Math.min(2000, 100 * 2 ** n)));
      }
    }
  };

  /** Sends a queue's messages in order while this replica holds it. */
  const work = (key: string, first?: OutboxEntry, pre?: Prebooked) => {
    if (working.has(key) || stop.signal.aborted) return pre && line.abandon(pre);
    const run = (async () => {
      let e = first ?? (await store.head(key, owner));
      while (e && !stop.signal.aborted) {
        const m = e;
        let r: OutboxResult;
        let error: unknown;
        // Only a slot's message leaves the line for newer content; others only at a stop.
        let signal = stop.signal;
        if (m.slot !== undefined) {
          const leave = new AbortController();
          inLine.set(m.id, { cls: m.cls, leave });
          signal = AbortSignal.any([stop.signal, leave.signal]);
        }
        try {
          // A prebooked slot is for the first message only, and run owns it from here.
          const booked = pre;
          pre = undefined;
          const value = await paced(m, signal, booked);
          r = { ok: true, value: value ?? null };
        } catch (err) {
          if (stop.signal.aborted && err === stop.signal.reason) break;
          if (err === UPGRADED) {
            e = await store.head(key, owner);
            continue;
          }
          error = err;
          r = { ok: false, error: opts.describe?.(err) ?? (err as Error)?.message ?? String(err) };
        } finally {
          inLine.delete(m.id);
        }
        // The sender hears the platform's answer at once, even while Redis cannot record it yet.
        settle(m.id, r, error);
        e = await finish(
          key,
          m,
          r.ok && opts.recorded ? { ok: true, value: opts.recorded(r.value) ?? null } : r,
        );
      }
    })()
      .catch((err: unknown) => log?.warn({ err: (err as Error).message }, 'outbox: a chat stopped'))
      .finally(() => {
        if (pre) line.abandon(pre);
        working.delete(key);
      });
    working.set(key, run);
  };

  /** Keeps this replica's holds alive and takes up the chats nobody live holds. */
  const tick = async () => {
    try {
      // One round trip: the beat goes first on the connection, and what was claimed is worked only
      // if it went in.
      const [beat, claimed] = await Promise.allSettled([store.beat(owner, leaseMs), store.claim(owner, 200)]);
      if (beat.status === 'rejected') throw beat.reason;
      if (claimed.status === 'rejected') throw claimed.reason;
      for (const key of claimed.value) work(key);
    } catch (err) {
      log?.warn({ err: (err as Error).message }, 'outbox: could not look for messages to send');
    }
  };

  /** The answer of a message another replica sends: looked for until it is recorded. */
  const awaitElsewhere = (id: string, wait: number) => {
    const timer = setTimeout(async () => {
      lookups.delete(id);
      if (!waiters.has(id)) return;
      const r = await store.result(id).catch(() => undefined);
      if (r) settle(id, r);
      else if (waiters.has(id)) awaitElsewhere(id, Math.min(wait * 2, 2000));
    }, wait);
    timer.unref();
    lookups.set(id, timer);
  };

  /** The message as stored: its slot, and its name when the work sending it may run again. */
  const entry = (key: string, cls: OutboundClass, body: unknown, more: PutOptions = {}) => {
    const once = nextSendName(more.scope);
    return {
      key: queueOf(key, cls),
      cls,
      body,
      ...(more.slot ? { slot: more.slot } : {}),
      ...(once ? { once } : {}),
    };
  };

  const put = async (key: string, cls: OutboundClass, body: unknown, more: PutOptions = {}) => {
    if (!stop.signal.aborted && opts.autoStart !== false) await outbox.start();
    const m = entry(key, cls, body, more);
    const mark = more.also ? undefined : takeMark(more.scope?.mark, store.writesAlso);
    // Its slot is asked for right behind the put (one round trip) when nothing of its chat is under
    // way here; booked only if the put made it the chat's next message, held by this replica.
    const id = store.guard && started && !working.has(m.key) ? newOutboxId() : undefined;
    const putting = store.put(id ? { ...m, id } : m, owner, more.also ?? mark?.also);
    const pre = id ? line.prebook(messageOf(m), store.guard?.(m.key, owner, id)) : undefined;
    const placed = await putting.catch((err: unknown) => {
      mark?.undo();
      if (pre) line.abandon(pre);
      throw err;
    });
    const waiting = inLine.get(placed.id);
    if (placed.replaced && waiting && rank(cls) < rank(waiting.cls)) waiting.leave.abort(UPGRADED);
    // The chat's next message: worked at once, without reading it back.
    const fresh = placed.first && !placed.replaced && !placed.again;
    if (placed.held && started && fresh) work(m.key, { id: placed.id, ...m }, pre);
    else {
      if (pre) line.abandon(pre);
      if (placed.held && started) work(m.key);
    }
    return placed;
  };

  const outbox: Outbox = {
    owner,
    async submit(key, cls, body, more) {
      if (stop.signal.aborted) {
        // Stopping: kept for the other replicas all the same.
        await store.put(entry(key, cls, body, more), owner, more?.also);
        throw new HandedOver();
      }
      let placed: Placed;
      try {
        placed = await put(key, cls, body, more);
      } catch (err) {
        // A notice with a mark or a name to keep fails instead: its sender tries it again later.
        if (more?.also || markPending(more?.scope?.mark) || sendIsStrict(more?.scope)) throw err;
        // Redis does not answer: sent from this process as before the outbox, rather than not at all.
        log?.warn({ err: (err as Error).message }, 'outbox unavailable: sending without it');
        return paced({ key, cls, body }, stop.signal);
      }
      const { id, held, again } = placed;
      return new Promise<unknown>((resolve, reject) => {
        const list = waiters.get(id);
        if (list) list.push({ resolve, reject });
        else {
          waiters.set(id, [{ resolve, reject }]);
          // This replica's own chats settle as they are sent; the lookup is only a backstop for them.
          awaitElsewhere(id, held && !again && started ? 30_000 : 100);
        }
      });
    },
    quietGuard(key, cls) {
      const g = store.guard?.(queueOf(key, cls), owner, '');
      return g && { list: g.list, head: '', key: '', value: '' };
    },
    async enqueue(key, cls, body, more) {
      await put(key, cls, body, more);
    },
    start() {
      started ??= (async () => {
        if (stop.signal.aborted) stop = stopSignal();
        await store.beat(owner, leaseMs).catch(() => {});
        timer = setInterval(() => void tick(), pollMs);
        timer.unref();
        unwatch = store.wakes?.(() => void tick(), log);
        void tick();
      })();
      return started;
    },
    async handOver(graceMs) {
      clearInterval(timer);
      const watching = unwatch?.();
      unwatch = undefined;
      started = undefined;
      stop.abort(new HandedOver());
      // Sends asleep until their slot are given up with the rest, and their slots given back.
      await line.release().catch((err: unknown) => {
        log?.warn({ err: (err as Error).message }, 'outbox: could not give back the slots booked');
      });
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
      for (const list of waiters.values()) for (const w of list) w.reject(new HandedOver());
      waiters.clear();
      for (const timer of lookups.values()) clearTimeout(timer);
      lookups.clear();
      await watching;
      log?.info({ owner }, 'outbox handed over to the other replicas');
    },
  };
  return outbox;
}
