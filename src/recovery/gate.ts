/**
 * Who runs the recovery pass, and until when. Redis found without the deployment's `epoch` marker was
 * emptied (or is new): the marker is set and a `recovery:todo` mark with it, in one script, so the need
 * cannot be lost between the two. While the mark stands, one process at a time (a lease) runs passes;
 * a pass that could not finish (a wallet's history unreadable, an order that could not be tracked or
 * escalated) leaves the mark for the next check. The lease is short and renewed while its pass runs
 * (only by its holder), so one left by a process that died expires within `leaseMs`; a process that
 * finds it held is told how long it has left, to try again then. Only a pass that finished removes
 * the mark.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { runScript } from '../store/script.js';

/** -1: nothing due; 0: the lease is ours; otherwise the held lease's ms left. */
const ENTER = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then redis.call('SET', KEYS[2], ARGV[1]) end
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
if redis.call('SET', KEYS[3], ARGV[2], 'NX', 'PX', ARGV[3]) then return 0 end
local left = redis.call('PTTL', KEYS[3])
if left < 1 then return tonumber(ARGV[3]) end
return left`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const LEAVE = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[2] == '1' then redis.call('DEL', KEYS[1]) end
return redis.call('DEL', KEYS[2])`;

export interface RecoveryGate {
  /**
   * This process's turn to run a pass (recovery is due and the lease is its own); else, when
   * another process holds the lease, how long it has left (`retryInMs`); else nothing is due.
   */
  enter(): Promise<{ turn?: RecoveryTurn; retryInMs?: number }>;
}

export interface RecoveryTurn {
  /** Extends the lease by `leaseMs`; false when it is no longer ours (expired, taken over). */
  renew(): Promise<boolean>;
  /** After the pass: `finished` removes the need; either way the lease is given up. */
  leave(finished: boolean): Promise<void>;
}

/** The gate on a deployment's keys (`<prefix>epoch`, `<prefix>recovery:todo`, `<prefix>recovery:lease`). */
export function createRecoveryGate(
  redis: Pick<RedisClientType, 'eval' | 'evalSha'>,
  prefix: string,
  opts: { leaseMs: number; now?: () => number },
): RecoveryGate {
  const now = opts.now ?? Date.now;
  const todo = `${prefix}recovery:todo`;
  const lease = `${prefix}recovery:lease`;
  return {
    async enter() {
      const token = randomUUID();
      const reply = await runScript(redis, ENTER, {
        keys: [`${prefix}epoch`, todo, lease],
        arguments: [String(now()), token, String(opts.leaseMs)],
      });
      const left = Number(reply);
      if (left < 0) return {};
      if (left > 0) return { retryInMs: left };
      const turn: RecoveryTurn = {
        async renew() {
          const r = await runScript(redis, RENEW, {
            keys: [lease],
            arguments: [token, String(opts.leaseMs)],
          });
          return Number(r) === 1;
        },
        async leave(finished) {
          await runScript(redis, LEAVE, { keys: [todo, lease], arguments: [token, finished ? '1' : '0'] });
        },
      };
      return { turn };
    },
  };
}

/**
 * Whether recovery may still put back what Redis lost: Redis has no `epoch` marker (emptied, not yet
 * noticed) or a pass has not finished (`recovery:todo`). A sale unknown meanwhile may be restored.
 */
export async function recoveryPending(
  redis: Pick<RedisClientType, 'exists'>,
  prefix: string,
): Promise<boolean> {
  const [epoch, todo] = await Promise.all([
    redis.exists(`${prefix}epoch`),
    redis.exists(`${prefix}recovery:todo`),
  ]);
  return epoch === 0 || todo === 1;
}
