/**
 * The 24-hour customer-service window: free-form messages (text, buttons, lists) may go to a user
 * only within 24 hours of their last message; after that only an approved template. The time of
 * each user's last message lives in Redis (shared by every process), and so do the messages a
 * template stood in for: when the user writes again, each order's current state is delivered in
 * full, once (not its history). Once Meta refuses free-form as outside its window (#131047), the
 * window counts as closed until the user writes again: later updates go straight to the template.
 */
import type { RedisClientType } from 'redis';
import * as z from 'zod';
import type { OutMessage } from '../../../chat/types.js';
import type { CloudKeys } from '../keys.js';

export const WINDOW_MS = 24 * 3600_000;
const HELD_TTL_SECONDS = 7 * 24 * 3600;
const MAX_HELD = 10;

const heldSchema = z.object({
  locale: z.enum(['en', 'sw']),
  message: z.custom<OutMessage>(
    (v) => typeof v === 'object' && v !== null && Array.isArray((v as OutMessage).texts),
  ),
});
export type HeldMessage = z.infer<typeof heldSchema>;

export interface WindowBook {
  /** Notes a message from the user (epoch ms of its timestamp); never moves the time back. */
  noteInbound(waId: string, at: number): Promise<void>;
  /** True once the user has ever written to us: we never write first. */
  isContact(waId: string): Promise<boolean>;
  /**
   * True while free-form messages may go (with a safety margin before the 24 hours end), and Meta
   * has not refused one as outside its window since the user last wrote.
   */
  isOpen(waId: string, now: number): Promise<boolean>;
  /**
   * Meta refused free-form as outside its window (#131047): closed until the user writes again.
   * `sentAt`: when the refused message was sent (a refusal reported later, in a status webhook);
   * if the user wrote since, the window they opened stays open.
   */
  markShut(waId: string, at: number, sentAt?: number): Promise<void>;
  /** Keeps a message a template stood in for (the last 10, for 7 days). */
  hold(waId: string, held: HeldMessage): Promise<void>;
  /** Takes every held message, oldest first, leaving none. */
  takeHeld(waId: string): Promise<HeldMessage[]>;
}

// A message from the user opens the window again, whatever Meta refused before it.
const NOTE = `
local old = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[2]) > old then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
`;

// Shut unless the user wrote after the refused message was sent (ARGV[3], 0 for "now"). Meta's
// timestamps are whole seconds: a message in the same second counts as after.
const SHUT = `
local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[3]) > 0 and last + 1000 > tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
`;

/**
 * What to deliver of the held messages when the user writes again: each order's current state once
 * (a message with a `replaceKey` is superseded by a later one with the same key: "⏳ Waiting for
 * your payment" and "payment received" are not sent after the "Done" the template already told),
 * every other message as it was; in the order of what is kept.
 */
export function currentState(held: HeldMessage[]): HeldMessage[] {
  const last = new Map<string, number>();
  held.forEach((h, i) => {
    if (h.message.replaceKey) last.set(h.message.replaceKey, i);
  });
  return held.filter((h, i) => !h.message.replaceKey || last.get(h.message.replaceKey) === i);
}

/** The window book in Redis; `marginMs` (default 5 min) closes the window early, to be safe. */
export function createWindowBook(redis: RedisClientType, keys: CloudKeys, marginMs = 5 * 60_000): WindowBook {
  return {
    async noteInbound(waId, at) {
      await redis.eval(NOTE, {
        keys: [keys.lastInbound, keys.windowShut],
        arguments: [waId, String(Math.round(at))],
      });
    },
    async isContact(waId) {
      return (await redis.hGet(keys.lastInbound, waId)) !== null;
    },
    async isOpen(waId, now) {
      const [last, shut] = await Promise.all([
        redis.hGet(keys.lastInbound, waId),
        redis.hGet(keys.windowShut, waId),
      ]);
      const since = Number(last ?? 0);
      return since > 0 && shut === null && now - since < WINDOW_MS - marginMs;
    },
    async markShut(waId, at, sentAt) {
      await redis.eval(SHUT, {
        keys: [keys.lastInbound, keys.windowShut],
        arguments: [waId, String(Math.round(at)), String(Math.round(sentAt ?? 0))],
      });
    },
    async hold(waId, held) {
      const key = keys.held(waId);
      await redis
        .multi()
        .rPush(key, JSON.stringify(held))
        .lTrim(key, -MAX_HELD, -1)
        .expire(key, HELD_TTL_SECONDS)
        .exec();
    },
    async takeHeld(waId) {
      const key = keys.held(waId);
      const [raw] = (await redis.multi().lRange(key, 0, -1).del(key).exec()) as unknown as [string[]];
      const out: HeldMessage[] = [];
      for (const item of raw ?? []) {
        try {
          const parsed = heldSchema.safeParse(JSON.parse(item));
          if (parsed.success) out.push(parsed.data);
        } catch {
          // A broken entry is dropped; the template already told the user the gist.
        }
      }
      return out;
    },
  };
}
