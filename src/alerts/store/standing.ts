/**
 * Rate alerts in the durable record outside Redis (src/recovery/standing-record.ts): after every
 * change a user makes (set, change, renew, delete) their alerts are written whole, and after Redis
 * came back empty the recovery pass puts them back in their slots, armed, with their expiry. What is
 * not kept: whether an alert had fired and waits to re-arm (restored armed, it may fire once more if
 * the rate is still past its level) and its alert id (a new one is drawn). An alert whose slot was
 * taken meanwhile goes to a free slot; when the user has no room left, they are told once.
 */
import * as z from 'zod';
import { type UserRef, userKey } from '../../chat/types.js';
import { button, text } from '../../flows/flow.js';
import { networkSchema } from '../../flows/schemas.js';
import type { AlertsOutcome, AlertView } from '../../flows/types.js';
import type { StandingRestorer } from '../../recovery/standing.js';
import type { StandingRecord } from '../../recovery/standing-record.js';
import { runScript } from '../../store/script.js';
import { ALERTS_LIST, MAX_ALERTS } from '../flow/state.js';
import { compactUser, expandUser } from './record.js';
import { LIB } from './scripts.js';
import type { AlertStorage } from './storage.js';
import { sideCode } from './storage.js';
import type { AlertStore } from './store.js';

const payloadSchema = z.object({
  user: z.object({ channel: z.enum(['telegram', 'whatsapp', 'terminal']), id: z.string().min(1) }),
  alerts: z.array(
    z.object({
      slot: z.number().int().min(1).max(99),
      token: z.string().min(1).max(16),
      network: networkSchema,
      side: z.enum(['below', 'above']),
      level: z.number().positive(),
      expiresAt: z.number(),
    }),
  ),
});
type Payload = z.infer<typeof payloadSchema>;

/**
 * Puts one alert back. KEYS: the user's bucket. ARGV: prefix, user, slot, token, network, side,
 * level, expiresSec, warned, max. Returns 'present' (the same alert is there), 'full', or 'restored'.
 */
const RESTORE_SCRIPT = `${LIB}
local p, user, want = ARGV[1], ARGV[2], tonumber(ARGV[3])
local tok, net, side, level, exp, warned, max = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10])
local slots = slotsOf(KEYS[1], user)
local n = 0
for s, sid in pairs(slots) do
  n = n + 1
  local line = redis.call('HGET', bucket(p, sid), sid)
  if line then
    local r = split(line)
    if r[4] == tok and r[5] == net and r[6] == side and tonumber(r[7]) == tonumber(level) then return 'present' end
  end
end
if n >= max then return 'full' end
local slot = want
if slots[slot] or slot > max then
  for s = 1, max do if not slots[s] then slot = s break end end
end
local id = tostring(redis.call('INCR', p .. 'seq'))
slots[slot] = id
saveSlots(KEYS[1], user, slots)
local r = {'1', user, tostring(slot), tok, net, side, level, exp, warned}
redis.call('HSET', bucket(p, id), id, table.concat(r, '|'))
redis.call('ZADD', p .. 'z:' .. feedOf(r), level, id)
redis.call('SADD', xkey(p, id, r), id)
redis.call('SADD', p .. 'f', feedOf(r))
return 'restored'
`;

const keep = (user: UserRef, alerts: AlertView[]): Payload | undefined =>
  alerts.length
    ? {
        user,
        alerts: alerts.map(({ slot, token, network, side, level, expiresAt }) => ({
          slot,
          token,
          network,
          side,
          level,
          expiresAt,
        })),
      }
    : undefined;

/** The store, writing the user's alerts to the record after each change they make. */
export function journaledAlerts(store: AlertStorage, record: StandingRecord): AlertStorage {
  const answer = async (user: UserRef, r: Parameters<AlertStorage['answer']>[1]): Promise<AlertsOutcome> => {
    const out = await store.answer(user, r);
    if (r.action !== 'list' && out.action !== 'full' && out.action !== 'missing')
      await record.put('alerts', userKey(user), keep(user, await store.list(user)));
    return out;
  };
  return new Proxy(store, {
    get: (target, prop, receiver) =>
      prop === 'answer' ? answer : (Reflect.get(target, prop, receiver) as unknown),
  });
}

/** Puts a user's recorded alerts back into the Redis store; expired ones are left out. */
export function alertRestorer(
  store: AlertStore,
  record: StandingRecord,
  now: () => number = Date.now,
): StandingRestorer {
  return {
    async backfill() {
      let n = 0;
      for await (const keys of store.redis.scanIterator({ MATCH: `${store.p}u:*`, COUNT: 500 }))
        for (const key of Array.isArray(keys) ? keys : [keys])
          for (const compact of await store.redis.hKeys(key)) {
            const user = expandUser(compact);
            if (!user) continue;
            await record.put('alerts', userKey(user), keep(user, await store.list(user)));
            n += 1;
          }
      return n;
    },
    lostMessage: {
      texts: [text('alerts-lost-after-outage')],
      buttons: [[button(ALERTS_LIST, 'alerts-button-list')]],
      notice: true,
    },
    async restore(raw) {
      const parsed = payloadSchema.safeParse(raw);
      const user = (raw as Partial<Payload> | undefined)?.user;
      const known = parsed.success ? parsed.data.user : payloadSchema.shape.user.safeParse(user).data;
      if (!parsed.success) return { restored: 0, present: 0, lost: 1, ...(known ? { user: known } : {}) };
      const out = { restored: 0, present: 0, lost: 0, user: parsed.data.user };
      const t = now();
      for (const a of [...parsed.data.alerts].sort((x, y) => x.slot - y.slot)) {
        if (a.expiresAt <= t) continue;
        const reply = await runScript(store.redis, RESTORE_SCRIPT, {
          keys: [store.userBucket(parsed.data.user)],
          arguments: [
            store.p,
            compactUser(parsed.data.user),
            String(a.slot),
            a.token,
            a.network,
            sideCode(a.side),
            String(Math.round(a.level * 1e6) / 1e6),
            String(Math.floor(a.expiresAt / 1000)),
            // Within its last day the day-before note is taken as sent: better none than a second one.
            a.expiresAt - t < 86400_000 ? '1' : '0',
            String(MAX_ALERTS),
          ],
        });
        out[reply === 'restored' ? 'restored' : reply === 'present' ? 'present' : 'lost'] += 1;
      }
      const u = parsed.data.user;
      return {
        ...out,
        afterTold: async () => record.put('alerts', userKey(u), keep(u, await store.list(u))),
      };
    },
  };
}
