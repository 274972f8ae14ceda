/**
 * Rate histories in Redis: each ring (history.ts) is one string per pair, written in place with
 * SETRANGE by one script per quote, so replicas share them and a pair's bytes never grow past its
 * rings. A pair nobody quoted for 32 days expires.
 */
import type { RedisClientType } from 'redis';
import { BLOB_STRING } from '../store/connection/connect.js';
import { runScript } from '../store/script.js';
import {
  type History,
  historyOf,
  minuteOf,
  type Pair,
  pairKey,
  type Range,
  type RateHistory,
  type Side,
  TIERS,
} from './history.js';

const TTL_MS = 32 * 24 * 3600_000;

/**
 * KEYS: the rings, finest first. ARGV: side (1 buy, 2 sell), rate, minute, ttl ms, then each
 * ring's bucket minutes and slots. Keeps the other side of a record only within the same bucket.
 */
const RECORD = `
local side, rate, minute, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
for i = 1, #KEYS do
  local bucket, slots = tonumber(ARGV[3 + 2 * i]), tonumber(ARGV[4 + 2 * i])
  local b = math.floor(minute / bucket)
  local off = (b % slots) * 12
  -- A new ring is made whole at once: grown piece by piece, Redis would over-allocate it.
  if redis.call('EXISTS', KEYS[i]) == 0 then redis.call('SETRANGE', KEYS[i], slots * 12 - 1, '\0') end
  local buy, sell = 0, 0
  local rec = redis.call('GETRANGE', KEYS[i], off, off + 11)
  if #rec == 12 then
    local was, wbuy, wsell = struct.unpack('<I4ff', rec)
    if was ~= 0 and math.floor(was / bucket) == b then buy, sell = wbuy, wsell end
  end
  if side == 1 then buy = rate else sell = rate end
  redis.call('SETRANGE', KEYS[i], off, struct.pack('<I4ff', minute, buy, sell))
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return 1
`;

export class RedisRateHistory implements RateHistory {
  /** `<app prefix>chart:` */
  readonly p: string;
  private readonly binary;

  constructor(
    private readonly redis: RedisClientType,
    prefix: string,
  ) {
    this.p = `${prefix}chart:`;
    this.binary = redis.withTypeMapping({ [BLOB_STRING]: Buffer });
  }

  /** The keys of a pair's rings, finest first. */
  keys(pair: Pair): string[] {
    return TIERS.map((t) => `${this.p}${t.name}:${pairKey(pair)}`);
  }

  async record(pair: Pair, side: Side, rate: number, at: number): Promise<void> {
    const args = [side === 'buy' ? '1' : '2', String(rate), String(minuteOf(at)), String(TTL_MS)];
    for (const t of TIERS) args.push(String(t.bucketMin), String(t.slots));
    await runScript(this.redis, RECORD, { keys: this.keys(pair), arguments: args });
  }

  async read(pair: Pair, range: Range, now: number): Promise<History> {
    const rings = (await this.binary.mGet(this.keys(pair))) as Array<Buffer | null>;
    return historyOf(
      pair,
      range,
      rings.map((r) => r ?? undefined),
      now,
    );
  }
}
