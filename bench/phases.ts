/**
 * BENCH_PHASES: where an update's CPU goes, read without a profiler. A sampling profiler on this
 * machine charges the time a descheduled process waits to whatever was on its stack (a socket
 * write read 27 ms a second for the stack, 19 for the floor, for the same number of writes). Here
 * the process's CPU (all its threads: `process.cpuUsage()`) is read at each wire event of a setup,
 * an update handed to grammY, its end, a write to Redis or the Bot API and data back from either,
 * and summed over each pair of events in a row. Per update, these are its phases: the handling up
 * to its first write, each wait, the work between an answer and the next write, and what the
 * process does between updates (timers, GC threads, the driver). Reading the clock costs each
 * setup alike, about a µs an event.
 */
import { Socket } from 'node:net';

/** µs of CPU and how many times, per pair of events in a row (`from → to`). */
export type PhaseSums = Record<string, { us: number; n: number }>;

export interface PhaseTracer {
  /** An update handed to grammY (`update`) or ended (`done`). */
  mark(event: 'update' | 'done'): void;
  /** From now on the phases are summed. */
  start(): void;
  /** Stops summing, takes the socket hooks away, and returns the sums. */
  stop(): PhaseSums;
}

type WriteGeneric = (this: Socket, ...args: unknown[]) => unknown;
type Emit = (this: Socket, event: string | symbol, ...args: unknown[]) => boolean;

/** Traces this process's sockets to Redis and the Bot API (by their ports). */
export function tracePhases(ports: { redis: number; api: number }): PhaseTracer {
  const proto = Socket.prototype as unknown as { _writeGeneric: WriteGeneric; emit: Emit };
  const write = proto._writeGeneric;
  const emit = proto.emit;
  const sums: PhaseSums = {};
  const cpu = () => {
    const c = process.cpuUsage();
    return c.user + c.system;
  };
  let on = false;
  let last = cpu();
  let prev = 'start';
  const mark = (event: string) => {
    const now = cpu();
    if (on) {
      const key = `${prev} → ${event}`;
      const sum = sums[key] ?? { us: 0, n: 0 };
      sum.us += now - last;
      sum.n++;
      sums[key] = sum;
    }
    last = now;
    prev = event;
  };
  const side = (s: Socket) =>
    s.remotePort === ports.redis ? 'Redis' : s.remotePort === ports.api ? 'API' : undefined;
  proto._writeGeneric = function (this: Socket, ...args: unknown[]) {
    const to = side(this);
    if (to) mark(`${to} write`);
    return write.apply(this, args);
  };
  proto.emit = function (this: Socket, event: string | symbol, ...args: unknown[]) {
    if (event === 'data') {
      const from = side(this);
      if (from) mark(`${from} answer`);
    }
    return emit.call(this, event, ...args);
  };
  return {
    mark,
    start() {
      on = true;
      last = cpu();
    },
    stop() {
      on = false;
      proto._writeGeneric = write;
      proto.emit = emit;
      return sums;
    },
  };
}

/** The phases of both setups per update, the larger first: `from → to`, stack µs, floor µs. */
export function formatPhases(
  stack: { sums: PhaseSums; updates: number },
  floor: { sums: PhaseSums; updates: number },
): string[] {
  const per = (s: { sums: PhaseSums; updates: number }, k: string) =>
    s.updates ? (s.sums[k]?.us ?? 0) / s.updates : 0;
  const times = (s: { sums: PhaseSums; updates: number }, k: string) =>
    s.updates ? (s.sums[k]?.n ?? 0) / s.updates : 0;
  const keys = [...new Set([...Object.keys(stack.sums), ...Object.keys(floor.sums)])]
    .filter((k) => per(stack, k) >= 5 || per(floor, k) >= 5)
    .sort((a, b) => per(stack, b) + per(floor, b) - per(stack, a) - per(floor, a));
  const cell = (s: { sums: PhaseSums; updates: number }, k: string) =>
    `${Math.round(per(s, k)).toLocaleString('en-US').padStart(6)} µs ${times(s, k).toFixed(2)}x`;
  const total = (s: { sums: PhaseSums; updates: number }) =>
    Object.keys(s.sums).reduce((a, k) => a + per(s, k), 0);
  return [
    `  phases (BENCH_PHASES)  CPU per update between a setup's wire events, and how often per update: stack | floor`,
    ...keys.map((k) => `    ${k.padEnd(28)} ${cell(stack, k)} | ${cell(floor, k)}`),
    `    ${'all'.padEnd(28)} ${Math.round(total(stack)).toLocaleString('en-US').padStart(6)} µs       | ${Math.round(total(floor)).toLocaleString('en-US').padStart(6)} µs`,
  ];
}
