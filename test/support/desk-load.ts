/**
 * Loads for the support desk against the fake forum groups with Telegram's group limit (20 calls a
 * minute, counted by the fake), run `scale` times faster: the escalation burst (many cases at once)
 * and a working desk (two agents, ten active cases, users writing and agents acting). Shared by the
 * tests (test/support/desk-budget.integration.test.ts) and the bench (bench/desk.ts).
 */
import { type BudgetTimings, DEFAULT_BUDGET_TIMINGS } from '../../src/support/desk/budget.js';
import type { RecordedCall } from '../fakes/telegram-bot-api.js';
import { AGENT, AGENT2, type Rig, supportChats } from './rig.js';

/** Telegram's group limit: calls per minute (the fake's window is 60 s / scale). */
export const GROUP_PER_MINUTE = 20;

/** The desk's timings run `scale` times faster (with the group limit's window). */
export function scaledBudget(scale: number): BudgetTimings {
  const t = { ...DEFAULT_BUDGET_TIMINGS };
  for (const k of Object.keys(t) as Array<keyof BudgetTimings>) t[k] /= scale;
  return t;
}

/** The least time Telegram's limit allows for `calls` group calls in one group, at a steady 20 a minute. */
export const floorMs = (calls: number, scale: number) => (calls / GROUP_PER_MINUTE) * (60_000 / scale);

const counted = (c: RecordedCall) => c.response?.ok === true && Number(c.payload.chat_id) < 0;

/** The group calls that went through, oldest first. */
export const groupCalls = (rig: Rig): RecordedCall[] =>
  rig.fake.calls.filter((c) => counted(c) && c.method !== 'setMessageReaction');

export interface BurstFigures {
  cases: number;
  groups: number;
  /** When the last case had its topic and card, from the escalations. */
  ms: number;
  /** The floor for the calls those need (a topic and a card each), in the busiest group. */
  floorMs: number;
  /** Calls in each group before every case had its topic and card. */
  callsBefore: number[];
}

/**
 * `n` orders escalated at once; resolves when every case has its topic and card. `userTold`: the
 * caller told the users (a scaled run does not scale the bot's 30 a second to users, which would
 * otherwise weigh ten times its real share).
 */
export async function escalationBurst(
  rig: Rig,
  n: number,
  scale: number,
  groups = 1,
  userTold = scale > 1,
): Promise<BurstFigures> {
  const start = Date.now();
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      rig.support.desk.escalate({
        reason: 'horizon',
        user: { channel: 'telegram', id: String(880_000 + i) },
        orderId: `D-burst${String(i).padStart(2, '0')}-AB`,
        side: 'onramp',
        phone: `2547000${String(10_000 + i).slice(1)}`,
        detail: 'still pending at the ramp',
        userTold,
      }),
    ),
  );
  const chats = supportChats(groups);
  const withCard = () =>
    chats.reduce(
      (sum, chat) =>
        sum +
        rig.fake.forumTopics(chat).filter((t) => rig.fake.topicMessages(chat, t.message_thread_id).length > 0)
          .length,
      0,
    );
  await rig.fake.waitFor(() => withCard() >= n, (floorMs(2 * n, scale) * 3) / groups + 10_000, 'every card');
  const ms = Date.now() - start;
  const callsBefore = chats.map(
    (chat) => groupCalls(rig).filter((c) => Number(c.payload.chat_id) === chat && c.at <= start + ms).length,
  );
  return { cases: n, groups, ms, floorMs: floorMs(2 * Math.ceil(n / groups), scale), callsBefore };
}

/** p50 and p95 of a list of ms. */
export function percentiles(xs: number[]): { n: number; p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
  return { n: s.length, p50: at(0.5), p95: at(0.95), max: s.at(-1) ?? Number.NaN };
}

export interface WorkFigures {
  /** A user's line to its post in the topic (ms). */
  userLines: number[];
  /** An agent's command (or button) to its answer in the topic (ms). */
  agentPosts: number[];
  /** An agent's button press to its answer (the button stops spinning) (ms). */
  buttonAcks: number[];
  /** An agent's reply to the user to its 👍 (delivered) on their message (ms). */
  replyAcks: number[];
  /** Group calls per minute of real time (scaled back). */
  callsPerMinute: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const jitter = (ms: number) => ms * (0.5 + Math.random());

/**
 * Two agents and ten active cases for `minutes` (real time; the run takes minutes / scale): each
 * user writes one or two lines (a second apart) about every `userEveryS`; each agent, on its five
 * cases, in turn replies to the user, sends /status, presses 🔎 Status, waiting for each answer and
 * then about `agentEveryS`.
 */
export async function workingDesk(
  rig: Rig,
  opts: { scale: number; minutes: number; userEveryS: number; agentEveryS: number },
): Promise<WorkFigures> {
  const { scale } = opts;
  const chat = supportChats(1)[0] as number;
  const users = Array.from({ length: 10 }, (_, i) => 990_000 + i);
  const threads = new Map<number, { threadId: number; caseId: string }>();
  for (const u of users) rig.fake.sendText(u, '/support');
  await rig.fake.waitFor(() => rig.fake.forumTopics(chat).length >= users.length, 120_000, 'ten topics');
  await rig.support.desk.idle();
  for (const topic of rig.fake.forumTopics(chat)) {
    const c = await rig.support.desk.caseByTopic(String(chat), topic.message_thread_id);
    if (c) threads.set(Number(c.user.id), { threadId: topic.message_thread_id, caseId: c.id });
  }
  const figures: WorkFigures = {
    userLines: [],
    agentPosts: [],
    buttonAcks: [],
    replyAcks: [],
    callsPerMinute: 0,
  };
  const end = Date.now() + (opts.minutes * 60_000) / scale;
  const callsBefore = groupCalls(rig).length;
  const started = Date.now();
  const topicHas = (threadId: number, test: (text: string) => boolean, after: number) =>
    rig.fake.topicMessages(chat, threadId).some((m) => m.message_id > after && test(m.text));
  const lastIn = (threadId: number) => rig.fake.topicMessages(chat, threadId).at(-1)?.message_id ?? 0;
  const timeout = 120_000;
  /**
   * A pause between turns, never past the run's end: a last pause (up to 1.5x userEveryS) held the
   * run on idle, which callsPerMinute counted.
   */
  const pause = (ms: number) => sleep(Math.max(0, Math.min(ms, end - Date.now())));

  const user = async (u: number) => {
    let k = 0;
    await pause(jitter((opts.userEveryS * 1000) / scale));
    while (Date.now() < end) {
      const lines = Math.random() < 0.5 ? 1 : 2;
      const waits: Promise<unknown>[] = [];
      for (let l = 0; l < lines; l++) {
        const token = `line-${u}-${k++}`;
        const sent = Date.now();
        rig.fake.sendText(u, `about my money ${token}`);
        const threadId = threads.get(u)?.threadId ?? 0;
        waits.push(
          rig.fake
            .waitFor(() => topicHas(threadId, (t) => t.includes(token), 0), timeout, token)
            .then(() => figures.userLines.push(Date.now() - sent)),
        );
        if (l + 1 < lines) await sleep(1000 / scale);
      }
      await Promise.all(waits);
      await pause(jitter((opts.userEveryS * 1000) / scale));
    }
  };

  const agent = async (agentId: number, mine: number[]) => {
    let turn = 0;
    await pause(jitter((opts.agentEveryS * 1000) / scale));
    while (Date.now() < end) {
      const u = mine[turn % mine.length] as number;
      const { threadId, caseId } = threads.get(u) ?? { threadId: 0, caseId: '' };
      const after = lastIn(threadId);
      const sent = Date.now();
      const kind = turn++ % 3;
      if (kind === 0) {
        const before = rig.fake.reactionLog.length;
        rig.fake.sendText(chat, `We are on it (${turn})`, { userId: agentId, threadId });
        await rig.fake.waitFor(
          () => rig.fake.reactionLog.slice(before).some((r) => r.emoji === '👍' && r.chatId === chat),
          timeout,
          'delivered',
        );
        figures.replyAcks.push(Date.now() - sent);
      } else {
        if (kind === 1) rig.fake.sendText(chat, '/status', { userId: agentId, threadId });
        else {
          const card = rig.fake.topicMessages(chat, threadId)[0]?.message_id ?? 1;
          rig.fake.pressButton(chat, card, `desk:status:${caseId}`, { userId: agentId });
          const id = rig.fake.lastCallbackQueryId();
          void rig.fake
            .waitFor(() => rig.fake.callbackAnswered(id), timeout, 'answered')
            .then(() => figures.buttonAcks.push(Date.now() - sent));
        }
        await rig.fake.waitFor(
          () => topicHas(threadId, (t) => t.includes('has no order'), after),
          timeout,
          'answer',
        );
        figures.agentPosts.push(Date.now() - sent);
      }
      await pause(jitter((opts.agentEveryS * 1000) / scale));
    }
  };

  await Promise.all([
    ...users.map((u) => user(u)),
    agent(AGENT, users.slice(0, 5)),
    agent(AGENT2, users.slice(5)),
  ]);
  const minutes = ((Date.now() - started) * scale) / 60_000;
  figures.callsPerMinute = (groupCalls(rig).length - callsBefore) / minutes;
  return figures;
}
