/**
 * Baileys auth state in Redis: the credentials as one JSON string, and the signal keys as one hash
 * per key type, so a `set` writes only the keys it is given (null deletes). Buffers survive through
 * baileys' `BufferJSON`.
 */
import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import type { WhatsAppKeys, WhatsAppRedis } from '../redis.js';

export interface RedisAuthState {
  state: AuthenticationState;
  /** Writes the whole credentials object (call on `creds.update`). */
  saveCreds(): Promise<void>;
  /** Deletes the credentials and every signal key (after a logout). */
  clear(): Promise<void>;
}

const encode = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);
const decode = <T>(text: string): T => JSON.parse(text, BufferJSON.reviver) as T;

/** A `SignalKeyStore` over Redis hashes. */
export function redisSignalKeyStore(redis: WhatsAppRedis, keys: WhatsAppKeys): Required<SignalKeyStore> {
  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const out: { [id: string]: SignalDataTypeMap[T] } = {};
      if (ids.length === 0) return out;
      const values: (string | null)[] = await redis.hmGet(keys.signalKeys(type), ids);
      ids.forEach((id, i) => {
        const raw = values[i];
        if (raw == null) return;
        let value = decode<SignalDataTypeMap[T]>(raw);
        if (type === 'app-state-sync-key') {
          value = proto.Message.AppStateSyncKeyData.fromObject(
            value as object,
          ) as unknown as SignalDataTypeMap[T];
        }
        out[id] = value;
      });
      return out;
    },

    async set(data: SignalDataSet) {
      const tx = redis.multi();
      let commands = 0;
      for (const [type, entries] of Object.entries(data)) {
        if (!entries) continue;
        const key = keys.signalKeys(type);
        const writes: Record<string, string> = {};
        const deletes: string[] = [];
        for (const [id, value] of Object.entries(entries)) {
          if (value == null) deletes.push(id);
          else writes[id] = encode(value);
        }
        if (Object.keys(writes).length) {
          tx.hSet(key, writes);
          commands++;
        }
        if (deletes.length) {
          tx.hDel(key, deletes);
          commands++;
        }
      }
      if (commands) await tx.exec();
    },

    async clear() {
      const found: string[] = [];
      for await (const batch of redis.scanIterator({ MATCH: keys.signalKeysPattern, COUNT: 200 })) {
        found.push(...(Array.isArray(batch) ? batch : [batch]));
      }
      if (found.length) await redis.del(found);
    },
  };
}

/** Loads (or creates) the auth state of one WhatsApp number from Redis. */
export async function loadRedisAuthState(redis: WhatsAppRedis, keys: WhatsAppKeys): Promise<RedisAuthState> {
  const stored: string | null = await redis.get(keys.creds);
  const creds: AuthenticationCreds = stored ? decode<AuthenticationCreds>(stored) : initAuthCreds();
  const store = redisSignalKeyStore(redis, keys);
  return {
    state: { creds, keys: store },
    async saveCreds() {
      await redis.set(keys.creds, encode(creds));
    },
    async clear() {
      await redis.del(keys.creds);
      await store.clear();
    },
  };
}
