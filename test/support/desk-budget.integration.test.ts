/**
 * The support groups' budget, end to end against fake forum groups that enforce Telegram's group
 * limit (20 counted calls in any window) run SCALE times faster, the app keeping to 18 in any window
 * and the desk's timings scaled alike, so the ratios are Telegram's. Real-scale figures: bench/desk.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { escalationBurst, groupCalls, percentiles, scaledBudget, workingDesk } from './desk-load.js';
import { type Rig, startRig, supportChats } from './rig.js';

const SCALE = 10;
const scaled = scaledBudget(SCALE);

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

describe('cases escalated at once', () => {
  it('one group, 20 cases: every topic and card go first, before any other call', async () => {
    rig = await startRig({ groupLimitScale: SCALE, budget: scaled });
    // 20, not the bench's 30: the order is the same, in two thirds of the time.
    const f = await escalationBurst(rig, 20, SCALE);
    // The first 40 calls are the 20 topics and their cards; posts and pins wait behind them.
    const first = groupCalls(rig)
      .slice(0, 40)
      .map((c) => c.method);
    expect(first.filter((m) => m === 'createForumTopic')).toHaveLength(20);
    expect(first.filter((m) => m === 'sendMessage')).toHaveLength(20);
    // Nothing else went first, so the time is the pacing's (18 of Telegram's 20 in any minute):
    // bench/desk.ts prints it; a timed assertion here would measure the machine's load.
    expect(f.callsBefore[0]).toBeLessThanOrEqual(41);
    expect(rig.fake.floodRefusals).toBe(0);
  }, 120_000);

  it("three groups, 30 cases: cases spread evenly, each group's topics and cards first", async () => {
    rig = await startRig({ groupLimitScale: SCALE, budget: scaled, groups: 3 });
    const f = await escalationBurst(rig, 30, SCALE, 3);
    // Ten cases a group. (Groups move on independently: one done first makes its routine calls while
    // another posts its last card, so calls before the last card are not counted across groups.)
    expect(supportChats(3).map((chat) => rig?.fake.forumTopics(chat).length)).toEqual([10, 10, 10]);
    expect(f.callsBefore.every((n) => n >= 20)).toBe(true);
    for (const chat of supportChats(3)) {
      const first = groupCalls(rig)
        .filter((c) => Number(c.payload.chat_id) === chat)
        .slice(0, 20)
        .map((c) => c.method);
      expect(first.filter((m) => m === 'createForumTopic')).toHaveLength(10);
    }
    expect(rig.fake.floodRefusals).toBe(0);
  }, 120_000);
});

/**
 * Slower than SCALE: the app's own work per line (tens of ms) is not sped up, and would weigh 10x;
 * at 8x it weighs more in the latencies, which only the bench reports.
 */
const WORK_SCALE = 8;

describe('two agents, ten active cases', () => {
  // Timings are the bench's to print (bench/desk.ts, figures in the README): here, that every line
  // and command reaches the topic within the group limit and every button is answered.
  it('every line and command reaches the topic, every button is answered, no 429s', async () => {
    rig = await startRig({ groupLimitScale: WORK_SCALE, budget: scaledBudget(WORK_SCALE) });
    const f = await workingDesk(rig, { scale: WORK_SCALE, minutes: 3, userEveryS: 120, agentEveryS: 20 });
    const lines = percentiles(f.userLines.map((ms) => ms * WORK_SCALE));
    const agents = percentiles(f.agentPosts.map((ms) => ms * WORK_SCALE));
    // Enough of each to have meant something (about 19 lines, 11 commands, 5 buttons a run).
    const counts = `${lines.n} lines, ${agents.n} commands, ${f.buttonAcks.length} buttons`;
    expect(lines.n, counts).toBeGreaterThan(8);
    expect(agents.n, counts).toBeGreaterThan(5);
    expect(f.buttonAcks.length, counts).toBeGreaterThan(1);
    const answers = rig.fake.callsTo('answerCallbackQuery');
    expect(answers.every((c) => c.response?.ok === true)).toBe(true);
    expect(rig.fake.floodRefusals).toBe(0);
  }, 180_000);
});
