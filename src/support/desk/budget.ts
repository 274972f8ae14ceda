/**
 * The support groups' budget: Telegram lets a bot post about 20 messages a minute into one group,
 * and the outbound line paces every call to it, one at a time. The desk keeps one call per group in
 * that line and chooses, each time, what goes next: an agent's own action first, then a user's
 * words, then new topics, then other routine posts; a card is a view, so its edits are coalesced
 * (only the latest state is sent, one edit per case per `cardIntervalMs`) and go behind posts,
 * unless a card has lagged the truth for `cardMaxLagMs`. A user's lines typed within `gatherMs` of
 * each other (up to `maxGatherMs` from the first) become one post. A case's posts keep their order
 * and its card waits for them; a case with an urgent post behind a routine one is as urgent.
 */

/** What a piece of desk work is, most urgent first. */
export const DESK_PRIORITIES = ['agent', 'user', 'card-late', 'topic', 'routine', 'card'] as const;
export type DeskPriority = (typeof DESK_PRIORITIES)[number];
const rank = (p: DeskPriority) => DESK_PRIORITIES.indexOf(p);

export interface BudgetTimings {
  /** Lines a user types within this of each other go as one post (default 1 s). */
  gatherMs: number;
  /** ... but no longer after the first than this (default 2.5 s). */
  maxGatherMs: number;
  /** One card edit per case at most this often (default 3 s). */
  cardIntervalMs: number;
  /** A card behind the truth this long goes before routine posts (default 4 s). */
  cardMaxLagMs: number;
  /**
   * A card edit goes only once the group has had nothing to send for this long (default 3.5 s, one
   * of its turns at 17 a minute): it spends spare budget, and a post right after it still finds a
   * turn at once.
   */
  quietMs: number;
  /** The group's window: Telegram counts its messages per minute (default 60 s). */
  windowMs: number;
}

/**
 * A card edit (unless late) goes only while this replica made fewer group calls than this in the
 * window: the rest of the group's 18 are kept for posts, which then go at once.
 */
export const CARDS_BELOW = 12;

export const DEFAULT_BUDGET_TIMINGS: BudgetTimings = {
  gatherMs: 1000,
  maxGatherMs: 2500,
  cardIntervalMs: 3000,
  cardMaxLagMs: 4000,
  quietMs: 3500,
  windowMs: 60_000,
};

interface Job {
  prio: DeskPriority;
  seq: number;
  /** Not before (a user's lines gathering). */
  at: number;
  /** Lines gathered into this post (user lines only). */
  lines?: unknown[];
  firstAt: number;
  run: (lines: unknown[]) => Promise<void>;
}

interface Lane {
  group: string;
  jobs: Job[];
  running: boolean;
  card?: { since: number; run: () => Promise<void> };
}

export interface DeskBudget {
  /** Queues work for a case in `group`, after the case's earlier work. */
  add(caseId: string, group: string, prio: DeskPriority, run: () => Promise<void>): void;
  /** A user's line: gathered with the lines typed just before it into one post. */
  addLine<L>(caseId: string, group: string, line: L, run: (lines: L[]) => Promise<void>): void;
  /** The case's card is behind the truth: `run` edits it to the latest state (coalesced). */
  card(caseId: string, group: string, run: () => Promise<void>): void;
  /** Work waiting or running in a group, and its calls in the window (to spread new cases). */
  load(group: string): number;
  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void>;
  /**
   * Stopping: everything waiting goes at once, every case side by side, without waiting for its
   * turn or a card's quiet (its calls go into the outbox, left there for the other replicas).
   */
  flush(): void;
}

export function createDeskBudget(opts: {
  timings?: Partial<BudgetTimings>;
  now?: () => number;
  onError: (caseId: string, err: unknown) => void;
}): DeskBudget {
  const t = { ...DEFAULT_BUDGET_TIMINGS, ...opts.timings };
  const now = opts.now ?? Date.now;
  const lanes = new Map<string, Lane>();
  const busyGroups = new Set<string>();
  /** When each case's card, and each group's, was last edited. */
  const cardAt = new Map<string, number>();
  /** When this replica's calls to each group began, within the window. */
  const calls = new Map<string, number[]>();
  const recent = (group: string, at: number) => {
    const times = (calls.get(group) ?? []).filter((x) => x > at - t.windowMs);
    calls.set(group, times);
    return times;
  };
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushing = false;
  const idlers: Array<() => void> = [];

  const lane = (caseId: string, group: string): Lane => {
    let l = lanes.get(caseId);
    if (!l) {
      l = { group, jobs: [], running: false };
      lanes.set(caseId, l);
    }
    return l;
  };

  /** The case's next step now (its head post, else its card when due), with its rank; or when to look again. */
  const nextOf = (
    caseId: string,
    l: Lane,
    at: number,
  ): { rank: number; seq: number; go: () => Promise<void> } | number => {
    const head = l.jobs[0];
    if (head) {
      if (head.at > at && !flushing) return head.at;
      const best = Math.min(...l.jobs.map((j) => rank(j.prio)));
      return {
        rank: best,
        seq: head.seq,
        go: async () => {
          l.jobs.shift();
          await head.run(head.lines ?? []);
        },
      };
    }
    const card = l.card;
    if (!card) return Number.POSITIVE_INFINITY;
    const due = Math.max(
      card.since,
      (cardAt.get(caseId) ?? 0) + t.cardIntervalMs,
      (cardAt.get(`group:${l.group}`) ?? 0) + t.quietMs,
    );
    if (due > at && !flushing) return due;
    const late = at - card.since >= t.cardMaxLagMs;
    const times = recent(l.group, at);
    // The window's room is kept for posts: a card that is not late waits for a call to leave it.
    if (!late && !flushing && times.length >= CARDS_BELOW)
      return Math.min(
        (times[times.length - CARDS_BELOW] as number) + t.windowMs,
        card.since + t.cardMaxLagMs,
      );
    return {
      rank: rank(late ? 'card-late' : 'card'),
      seq: card.since,
      go: async () => {
        l.card = undefined;
        cardAt.set(caseId, now());
        if (cardAt.size > 10_000) cardAt.delete(cardAt.keys().next().value as string);
        await card.run();
      },
    };
  };

  const pump = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const at = now();
    let wake = Number.POSITIVE_INFINITY;
    const best = new Map<
      string,
      { caseId: string; l: Lane; rank: number; seq: number; go: () => Promise<void> }
    >();
    for (const [caseId, l] of lanes) {
      if (l.running || (busyGroups.has(l.group) && !flushing)) continue;
      const n = nextOf(caseId, l, at);
      if (typeof n === 'number') {
        wake = Math.min(wake, n);
        continue;
      }
      if (flushing) {
        best.set(caseId, { caseId, l, ...n });
        continue;
      }
      const b = best.get(l.group);
      if (!b || n.rank < b.rank || (n.rank === b.rank && n.seq < b.seq))
        best.set(l.group, { caseId, l, ...n });
    }
    for (const { caseId, l, go } of best.values()) {
      cardAt.set(`group:${l.group}`, at);
      recent(l.group, at).push(at);
      l.running = true;
      busyGroups.add(l.group);
      void go()
        .catch((err: unknown) => opts.onError(caseId, err))
        .finally(() => {
          l.running = false;
          busyGroups.delete(l.group);
          if (!l.jobs.length && !l.card) lanes.delete(caseId);
          pump();
        });
    }
    if (Number.isFinite(wake)) {
      timer = setTimeout(pump, Math.max(1, wake - at));
      timer.unref?.();
    }
    if (!lanes.size) for (const done of idlers.splice(0)) done();
  };

  return {
    add(caseId, group, prio, run) {
      const at = now();
      lane(caseId, group).jobs.push({ prio, seq: seq++, at, firstAt: at, run: () => run() });
      pump();
    },
    addLine(caseId, group, line, run) {
      const at = now();
      const l = lane(caseId, group);
      const last = l.jobs.at(-1);
      // A post of lines not sent yet takes this one too.
      if (last?.lines) {
        last.lines.push(line);
        last.at = Math.max(last.at, Math.min(at + t.gatherMs, last.firstAt + t.maxGatherMs));
      } else
        l.jobs.push({
          prio: 'user',
          seq: seq++,
          at: at + t.gatherMs,
          firstAt: at,
          lines: [line],
          run: run as (lines: unknown[]) => Promise<void>,
        });
      pump();
    },
    card(caseId, group, run) {
      const l = lane(caseId, group);
      l.card = { since: l.card?.since ?? now(), run };
      pump();
    },
    load(group) {
      // What waits, and what the group's window already holds (a group whose window is full is busy).
      let n = recent(group, now()).length;
      for (const l of lanes.values()) if (l.group === group) n += l.jobs.length + (l.running ? 1 : 0);
      return n;
    },
    flush() {
      flushing = true;
      pump();
    },
    idle() {
      if (!lanes.size) return Promise.resolve();
      return new Promise<void>((resolve) => idlers.push(resolve));
    },
  };
}
