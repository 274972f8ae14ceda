/**
 * The tracker benchmark's floor: plain periodic HTTP GETs at the tracker's rate and concurrency, and
 * the figures both phases report.
 */

export interface PhaseFigures {
  polls: number;
  pollsPerSecond: number;
  lagP50Ms: number;
  lagP99Ms: number;
  cpuUsPerPoll: number;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

/** Fires `count` periodic GETs of `urlOf(i)` every `intervalMs` (jittered start), at most `concurrency` at once. */
export async function floorPhase(
  count: number,
  intervalMs: number,
  concurrency: number,
  seconds: number,
  urlOf: (i: number) => string,
  headers: Record<string, string>,
): Promise<PhaseFigures> {
  const lags: number[] = [];
  let polls = 0;
  let measuring = false;
  let stopped = false;
  let active = 0;
  const ready: { i: number; due: number }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const arm = (i: number, due: number) => {
    if (stopped) return;
    const t = setTimeout(
      () => {
        timers.delete(t);
        ready.push({ i, due });
        pump();
      },
      Math.max(0, due - Date.now()),
    );
    timers.add(t);
  };
  const pump = () => {
    while (!stopped && active < concurrency && ready.length) {
      const { i, due } = ready.shift()!;
      active++;
      const started = Date.now();
      fetch(urlOf(i), { headers })
        .then((r) => r.arrayBuffer())
        .catch(() => undefined)
        .finally(() => {
          active--;
          if (measuring) {
            polls++;
            lags.push(Math.max(0, started - due));
          }
          arm(i, Date.now() + Math.round(intervalMs * (0.8 + 0.4 * Math.random())));
          pump();
        });
    }
  };
  for (let i = 0; i < count; i++) arm(i, Date.now() + Math.random() * intervalMs);
  await new Promise((r) => setTimeout(r, Math.min(intervalMs, 5_000)));
  measuring = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  const elapsed = (performance.now() - t0) / 1000;
  stopped = true;
  for (const t of timers) clearTimeout(t);
  while (active > 0) await new Promise((r) => setTimeout(r, 10));
  lags.sort((a, b) => a - b);
  return {
    polls,
    pollsPerSecond: polls / elapsed,
    lagP50Ms: percentile(lags, 50),
    lagP99Ms: percentile(lags, 99),
    cpuUsPerPoll: polls ? (cpu.user + cpu.system) / polls : 0,
  };
}
