/**
 * A process's CPU split by thread, from Linux's /proc: its main thread (the event loop, our code)
 * against the rest (V8's compiler and GC helpers, libuv's pool). Counted at the kernel's tick
 * (10 ms), so read over seconds, not per update. Undefined where /proc is not there.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  mainUs: number;
  helpersUs: number;
}

const TICK_US = 10_000;

export function threadCpu(): ThreadCpu | undefined {
  try {
    const out = { mainUs: 0, helpersUs: 0 };
    for (const tid of readdirSync('/proc/self/task')) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      } catch {
        continue; // the thread ended meanwhile
      }
      // After the name in parentheses: state, then utime and stime are the 12th and 13th fields.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const us = (Number(fields[11]) + Number(fields[12])) * TICK_US;
      if (Number(tid) === process.pid) out.mainUs += us;
      else out.helpersUs += us;
    }
    return out;
  } catch {
    return undefined;
  }
}

/** What `threadCpu` read between two readings. */
export function threadCpuSince(before: ThreadCpu | undefined): ThreadCpu | undefined {
  const now = threadCpu();
  return before && now
    ? { mainUs: now.mainUs - before.mainUs, helpersUs: now.helpersUs - before.helpersUs }
    : undefined;
}
