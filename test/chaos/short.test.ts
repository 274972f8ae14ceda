/**
 * The short chaos run in `npm test` (the long one is `npm run chaos`): 2 replicas on a redis-server of
 * its own, the sandbox behind the fault proxy (10% 5xx, 5% hangs, 2% bad bodies), a few buyers and as
 * many sellers on a dev chain whose RPC is behind faults too, two users talking to the support desk
 * and an agent answering them, one replica killed and one stopped (SIGTERM), and one Redis restart
 * (AOF). Checked from outside: no duplicate STK push, no double release, every order the ramp created
 * ended in a final chat message or a support case, every deposit that reached the escrow was filed or
 * handed to support and its seller told, nothing filed twice, no replica exited on its own, the
 * stopped one exited 0 within its grace, no user's line lost on its way to the desk and no agent's
 * answer on its way to the user.
 */
import { describe, expect, it } from 'vitest';
import { chaosTargetsHold, formatChaosFigures, runChaos } from '../../bench/chaos.js';

describe('chaos, short', () => {
  it('holds the money-safety targets for buyers and sellers under ramp and RPC faults, a replica kill and a Redis restart', async () => {
    const options = {
      users: 16,
      sellers: 0.5,
      replicas: 2,
      // A SIGKILL, then a SIGTERM (as a deploy stops a replica) while the desk is busy.
      kills: 2,
      desk: { users: 2, lines: 3 },
      redisMode: 'aof' as const,
      // Under faults a release can take a minute of retries before its final message.
      settleMs: 150_000,
      // An order that cannot finish goes to support after 30 s instead of 90 s: the run stays short.
      onrampHorizonMs: 30_000,
      // A seed whose users all pay on numbers that settle (no never-settling 0002), so it ends quickly.
      seed: 4242,
      faults: { error5xx: 0.1, hang: 0.05, garbage: 0.02 },
    };
    const figures = await runChaos(options);
    expect(chaosTargetsHold(figures), formatChaosFigures(figures, options)).toBe(true);
    expect(figures.kills).toBe(2);
    expect(figures.sigterms).toBe(1);
    expect(figures.deskLines).toBeGreaterThan(0);
    expect(figures.agentReplies).toBeGreaterThan(0);
    expect(figures.redisRestarts).toBe(1);
    expect(figures.faultsInjected).toBeGreaterThan(0);
    expect(figures.orders).toBeGreaterThan(0);
    expect(figures.deposits).toBeGreaterThan(0);
    expect(figures.sellOrders).toBeGreaterThan(0);
  }, 240_000);
});
