/**
 * `npx tsx bench/desk.ts`: the support desk against fake forum groups that enforce Telegram's group
 * limit (20 calls a minute, counted by the fake; the app paces at 17), through the real app parts
 * (test/support/rig.ts) on Redis (REDIS_URL, default redis://127.0.0.1:6379, under a prefix of its
 * own that is deleted afterwards). Prints: 30 cases escalated at once in one group and in three
 * (when the last had its topic and card, against the floor the limit sets for those calls), and two
 * agents with ten active cases (p50/p95 from a user's line or an agent's command to its post, the
 * button and reply acknowledgements, group calls a minute).
 *
 * DESK_SCALE (1: real time; 10 runs ten times faster, the limit's window and the desk's timings
 * scaled alike), DESK_MINUTES (10: the working desk's length, real time), DESK_CASES (30), DESK_BURST
 * (0: the working desk alone).
 */
process.env.TEST_REDIS_URL ??= process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const { escalationBurst, percentiles, scaledBudget, workingDesk } = await import(
  '../test/support/desk-load.js'
);
const { startRig } = await import('../test/support/rig.js');

const scale = Number(process.env.DESK_SCALE ?? 1);
const minutes = Number(process.env.DESK_MINUTES ?? 10);
const cases = Number(process.env.DESK_CASES ?? 30);
const budget = scaledBudget(scale);
const s = (ms: number) => `${((ms * scale) / 1000).toFixed(1)} s`;

// DESK_BURST=0 measures the working desk alone.
for (const groups of process.env.DESK_BURST === '0' ? [] : [1, 3]) {
  const rig = await startRig({ groupLimitScale: scale, budget, groups });
  try {
    const f = await escalationBurst(rig, cases, scale, groups);
    console.log(
      `${cases} cases escalated at once, ${groups} group(s): every topic and card in ${s(f.ms)}; ` +
        `floor ${s(f.floorMs)} (${2 * Math.ceil(cases / groups)} calls a group at 20 a minute); ` +
        `${(f.ms / f.floorMs).toFixed(2)}x; 429s ${rig.fake.floodRefusals}`,
    );
  } finally {
    await rig.stop();
  }
}

const rig = await startRig({ groupLimitScale: scale, budget });
try {
  const f = await workingDesk(rig, { scale, minutes, userEveryS: 120, agentEveryS: 20 });
  const p = (xs: number[], k = scale) => {
    const q = percentiles(xs.map((x) => x * k));
    return `p50 ${(q.p50 / 1000).toFixed(1)} s, p95 ${(q.p95 / 1000).toFixed(1)} s (n ${q.n})`;
  };
  console.log(`two agents, ten cases, ${minutes} min: a user's line to its post ${p(f.userLines)}`);
  console.log(`an agent's command or button to its post ${p(f.agentPosts)}`);
  console.log(`a button answered ${p(f.buttonAcks, 1)}; a reply's 👍 ${p(f.replyAcks, 1)}`);
  console.log(
    `group calls a minute ${f.callsPerMinute.toFixed(1)} (limit 20); 429s ${rig.fake.floodRefusals}`,
  );
} finally {
  await rig.stop();
}
