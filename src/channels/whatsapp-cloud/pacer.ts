/**
 * Pacing within Meta's throughput, shared by every process through Redis: the number's messages
 * per second (Meta allows 80, inbound included) and each user's pair rate (about one message per
 * 6 s, with bursts). Each send reserves its slot in each (a generic cell rate algorithm on Redis's
 * own clock, so processes on different machines agree) and waits for it.
 */
import type { RedisClientType } from 'redis';
import type { CloudKeys } from './keys.js';

export interface PacingOptions {
  /** Messages per second for the number (default 60). */
  mps?: number;
  /** One user: the steady gap between messages (default 6000 ms) and the burst allowed (default 20). */
  pairIntervalMs?: number;
  pairBurst?: number;
}

export interface CloudPacer {
  /** Reserves the next slot for a message to `waId`; resolves when it may be sent. */
  slot(waId: string): Promise<void>;
}

/**
 * Reserves the next conforming time of one key: a send at time s conforms when
 * s >= TAT - interval * (burst - 1); the TAT then moves on by the interval from s. Returns the wait.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local at = tat - interval * (burst - 1)
if at < now then at = now end
local nextTat = tat + interval
redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now + 1000))
return math.ceil(at - now)
`;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The pacer on Redis. */
export function createCloudPacer(
  redis: RedisClientType,
  keys: CloudKeys,
  opts: PacingOptions = {},
): CloudPacer {
  const mps = opts.mps ?? 60;
  const numberInterval = 1000 / mps;
  const pairInterval = opts.pairIntervalMs ?? 6000;
  const pairBurst = opts.pairBurst ?? 20;
  const reserve = async (key: string, interval: number, burst: number) => {
    const wait = Number(
      await redis.eval(RESERVE, { keys: [key], arguments: [String(interval), String(burst)] }),
    );
    if (wait > 0) await sleep(wait);
  };
  return {
    async slot(waId) {
      // The user's pair rate first (a wait there holds up only this user), then the number's
      // throughput at the time of sending, so one busy chat never delays the others.
      if (pairInterval > 0) await reserve(keys.pacePair(waId), pairInterval, pairBurst);
      // The number's burst is a tenth of a second's worth: any one second stays within 1.1x the rate.
      await reserve(keys.paceNumber, numberInterval, Math.max(1, Math.floor(mps / 10)));
    },
  };
}
