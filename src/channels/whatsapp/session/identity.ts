/**
 * Who is who on WhatsApp: users are known by phone number, but v7 addresses many chats by LID
 * (`…@lid`). The LID-to-phone mapping and the set of people who wrote first live in Redis.
 */
import type { WhatsAppKeys, WhatsAppRedis } from '../redis.js';

export interface Identities {
  rememberLid(lidUser: string, phone: string): Promise<void>;
  phoneForLid(lidUser: string): Promise<string | undefined>;
  /** Marks a phone number as someone who wrote to us (replies are allowed). */
  addContact(phone: string): Promise<void>;
  isContact(phone: string): Promise<boolean>;
}

export function createIdentities(redis: WhatsAppRedis, keys: WhatsAppKeys): Identities {
  return {
    async rememberLid(lidUser, phone) {
      await redis.hSet(keys.lidToPhone, lidUser, phone);
    },
    async phoneForLid(lidUser) {
      const phone: string | null = await redis.hGet(keys.lidToPhone, lidUser);
      return phone ?? undefined;
    },
    async addContact(phone) {
      await redis.sAdd(keys.contacts, phone);
    },
    async isContact(phone) {
      return Number(await redis.sIsMember(keys.contacts, phone)) === 1;
    },
  };
}
