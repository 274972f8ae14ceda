/**
 * Slots on a platform's lanes, on Redis's own clock so every replica agrees. A lane is a generic
 * cell rate (GCRA): a send at time s conforms when s >= TAT - interval * (burst - 1), and moves the
 * TAT to max(TAT, s) + interval. The line's lanes (the bot's, the number's) are shared by every
 * message; a message's own lanes (its chat's) only by messages to that chat.
 */
import type { RedisClientType } from 'redis';
import { runScript } from '../store/script.js';

/**
 * One rate: `burst` sends at once, then one every `intervalMs`; or, with `windowMax`, at most that
 * many sends in any `intervalMs` (a sliding window, as Telegram counts a group's messages: a lane
 * that lets a post go at once whenever the window has room, instead of spacing every post).
 */
export interface Lane {
  key: string;
  intervalMs: number;
  burst: number;
  windowMax?: number;
}

/**
 * What a reservation came to: `go` after `waitMs` (the slot is taken); `key` when the message's own
 * lanes are not free for `waitMs` (nothing taken: another message may use the line meanwhile);
 * `line` when the line is booked further ahead than the message's class may book (ask again in
 * `waitMs`).
 */
export type Reservation = { kind: 'go' | 'key' | 'line' | 'none'; waitMs: number; booked?: Booking[] };

/**
 * What a `go` did to one rate lane: its TAT `from` before, `to` after (whole ms: `to` rounded
 * down, `from` up). Giving the slot back puts `from` back only while the lane still holds `to`.
 */
export interface Booking {
  key: string;
  from: number;
  to: number;
}

/**
 * Books only if the list's first item is `head` (an empty `head`: the list is empty) and `key`
 * holds `value` (an empty `key`: not asked), else `none`.
 */
export interface ReserveGuard {
  list: string;
  head: string;
  key: string;
  value: string;
}

export interface ReserveRequest {
  line: Lane[];
  own: Lane[];
  /** How far ahead of now this message may book the line. */
  horizonMs: number;
  /** Checked on Redis (a memory book has nothing to check: it books). */
  guard?: ReserveGuard;
}

/** Where the slots are kept: Redis for replicas, memory for one process. */
export interface SlotBook {
  reserve(r: ReserveRequest): Promise<Reservation>;
  /**
   * The platform asked to wait `ms`: with `own` lanes, only those are held (one chat's limit);
   * without, the whole line is held; a second such wait within a minute of the one before slows
   * the line's sends for a minute, and each further one more (the waits asked while a hold is on count
   * once: one burst of sends met the limit once).
   */
  hold(ms: number, own?: Lane[]): Promise<void>;
  /**
   * Slots booked and not used: a rate lane goes back to before a booking only while that booking
   * is still its last (else a slot given back from the middle of a busy lane would be handed out
   * twice; a slot so wedged is lost instead). A window lane keeps its bookings (they pass within
   * its window). Each booking is given back once at most: a later one may hold the same time.
   */
  giveBack(bookings: Booking[]): Promise<void>;
}

/** Bookings to give back, newest first: of two of one lane the later must go first. */
export const newestFirst = (bookings: Booking[]) => [...bookings].sort((a, b) => b.to - a.to);

/** A lane holds `to` (rounded down when booked, or up when given back to): the same booking. */
export const holds = (tat: number, to: number) => Math.abs(tat - to) <= 1;

const GIVE_BACK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  local from, to = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  if math.abs(tonumber(redis.call('GET', key) or '0') - to) <= 1 then
    if from > now then redis.call('SET', key, tostring(from), 'PX', from - now + 60000)
    else redis.call('DEL', key) end
  end
end
return 1
`;

/** How much a line held again within SLOW_MS slows down (its intervals times this, up to MAX_SLOW), for SLOW_MS. */
export const SLOW_STEP = 1.25;
export const MAX_SLOW = 2;
export const SLOW_MS = 60_000;
/** A message's own lanes may be this late after the line's slot and still take it. */
export const KEY_SLACK_MS = 40;

const RESERVE = `
if ARGV[4] ~= '' and ((redis.call('LINDEX', ARGV[4], 0) or '') ~= ARGV[5] or (ARGV[6] ~= '' and redis.call('GET', ARGV[6]) ~= ARGV[7])) then
  return {3, 0}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nLine = tonumber(ARGV[1])
local horizon = tonumber(ARGV[2])
local slack = tonumber(ARGV[3])
local slow = tonumber(redis.call('GET', KEYS[2]) or '1')
local lineAt = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local ownAt = now
local n = #KEYS - 2
local tats, intervals = {}, {}
for i = 1, n do
  local interval = tonumber(ARGV[6 + 2 * i])
  local burst = tonumber(ARGV[7 + 2 * i])
  if i <= nLine then interval = interval * slow end
  intervals[i] = interval
  local at
  if burst < 0 then
    -- A window lane: bookings in order, the next one a window after the max-th last.
    local times = redis.call('LRANGE', KEYS[2 + i], burst, -1)
    tats[i] = false
    at = tonumber(times[#times] or '0')
    if #times >= -burst then at = math.max(at, tonumber(times[1]) + interval) end
  else
    tats[i] = tonumber(redis.call('GET', KEYS[2 + i]) or '0')
    at = tats[i] - interval * (burst - 1)
  end
  if i <= nLine then
    if at > lineAt then lineAt = at end
  elseif at > ownAt then ownAt = at end
end
if ownAt > lineAt + slack then return {2, math.ceil(ownAt - now)} end
local at = math.max(lineAt, ownAt)
if at - now > horizon then return {0, math.ceil(at - now - horizon)} end
local reply = {1, math.ceil(at - now)}
for i = 1, n do
  if tats[i] == false then
    redis.call('RPUSH', KEYS[2 + i], tostring(at))
    redis.call('LTRIM', KEYS[2 + i], tonumber(ARGV[7 + 2 * i]), -1)
    redis.call('PEXPIRE', KEYS[2 + i], math.ceil(at - now + intervals[i] + 60000))
    table.insert(reply, -1)
    table.insert(reply, -1)
  else
    local nt = math.max(tats[i], at) + intervals[i]
    redis.call('SET', KEYS[2 + i], tostring(nt), 'PX', math.ceil(nt - now + 60000))
    table.insert(reply, math.ceil(tats[i]))
    table.insert(reply, math.floor(nt))
  end
end
return reply
`;

const HOLD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[1])
if #KEYS == 2 then
  local untilAt = now + ms
  local held = tonumber(redis.call('GET', KEYS[1]) or '0')
  if untilAt > held then
    redis.call('SET', KEYS[1], tostring(untilAt), 'PX', ms + 1000)
  end
  -- Throttled while a hold is on: the same burst as the hold's (sends already on their way), so
  -- the lane is not slowed again. A first 429 only holds (and is remembered for a while); each
  -- later one in that while slows the lane further.
  local was = redis.call('GET', KEYS[2])
  local slow = tonumber(was or '1')
  if was and held <= now then slow = math.min(slow * tonumber(ARGV[2]), tonumber(ARGV[3])) end
  redis.call('SET', KEYS[2], tostring(slow), 'PX', ARGV[4])
  return 1
end
for i = 3, #KEYS do
  local interval = tonumber(ARGV[3 + 2 * (i - 2)])
  local burst = tonumber(ARGV[4 + 2 * (i - 2)])
  if burst < 0 then
    -- A window lane: nothing is booked before the wait is over.
    redis.call('RPUSH', KEYS[i], tostring(math.max(now + ms, tonumber(redis.call('LINDEX', KEYS[i], -1) or '0'))))
    redis.call('LTRIM', KEYS[i], burst, -1)
    redis.call('PEXPIRE', KEYS[i], ms + interval + 60000)
  else
    local tat = now + ms + interval * (burst - 1)
    if tat > tonumber(redis.call('GET', KEYS[i]) or '0') then
      redis.call('SET', KEYS[i], tostring(tat), 'PX', math.ceil(tat - now + 60000))
    end
  end
end
return 1
`;

/** A lane as the scripts read it: its interval and burst, or its window and minus its max. */
const laneArgs = (lanes: Lane[]) =>
  lanes.flatMap((l) => [String(l.intervalMs), String(l.windowMax ? -l.windowMax : l.burst)]);

/** The slot book on Redis, shared by every process of a deployment. */
export function redisSlotBook(
  redis: Pick<RedisClientType, 'eval' | 'evalSha'>,
  keys: { hold: string; slow: string },
): SlotBook {
  return {
    async reserve({ line, own, horizonMs, guard }) {
      const lanes = [...line, ...own];
      const reply = (await runScript(redis, RESERVE, {
        keys: [keys.hold, keys.slow, ...lanes.map((l) => l.key)],
        arguments: [
          String(line.length),
          String(Math.round(horizonMs)),
          String(KEY_SLACK_MS),
          ...(guard ? [guard.list, guard.head, guard.key, guard.value] : ['', '', '', '']),
          ...laneArgs(lanes),
        ],
      })) as number[];
      const kind = (['line', 'go', 'key', 'none'] as const)[reply[0]!] ?? 'line';
      const waitMs = Math.max(0, Number(reply[1]));
      if (kind !== 'go') return { kind, waitMs };
      const booked: Booking[] = [];
      lanes.forEach((l, i) => {
        const [from, to] = [Number(reply[2 + 2 * i]), Number(reply[3 + 2 * i])];
        if (!l.windowMax && to >= 0) booked.push({ key: l.key, from, to });
      });
      return { kind, waitMs, booked };
    },
    async giveBack(bookings) {
      if (!bookings.length) return;
      const ordered = newestFirst(bookings);
      await runScript(redis, GIVE_BACK, {
        keys: ordered.map((b) => b.key),
        arguments: ordered.flatMap((b) => [String(b.from), String(b.to)]),
      });
    },
    async hold(ms, own) {
      const lanes = own ?? [];
      await runScript(redis, HOLD, {
        keys: [keys.hold, keys.slow, ...lanes.map((l) => l.key)],
        arguments: [
          String(Math.ceil(ms)),
          String(SLOW_STEP),
          String(MAX_SLOW),
          String(SLOW_MS),
          ...laneArgs(lanes),
        ],
      });
    },
  };
}
