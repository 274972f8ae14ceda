import type { RedisClientType } from 'redis';

/** The node-redis client the WhatsApp channel keeps its state in. */
export type WhatsAppRedis = RedisClientType;

/** Redis key names for one WhatsApp number. */
export function whatsappKeys(keyPrefix: string, numberId: string) {
  const base = `${keyPrefix}${numberId}:`;
  return {
    base,
    creds: `${base}auth:creds`,
    /** One hash per signal key type, field = key id. */
    signalKeys: (type: string) => `${base}auth:keys:${type}`,
    signalKeysPattern: `${base}auth:keys:*`,
    lease: `${base}lease`,
    /** Hash: LID user -> phone number. */
    lidToPhone: `${base}lid`,
    /** Set of phone numbers that wrote to us first. */
    contacts: `${base}contacts`,
    /** Last numbered menu (a question's choices) sent to a user. */
    menu: (phone: string) => `${base}menu:${phone}`,
    /** Last lettered menu (a notice's choices) sent to a user. */
    noticeMenu: (phone: string) => `${base}notice-menu:${phone}`,
    /** Hash: phone -> locale of the last message we sent them. */
    locales: `${base}locales`,
    /** Pacing (the outbound line): one chat's next slot; the number's hold and slow-down. */
    paceChat: (jid: string) => `${base}pace:${jid}`,
    paceHold: `${base}pace-hold`,
    paceSlow: `${base}pace-slow`,
  };
}

export type WhatsAppKeys = ReturnType<typeof whatsappKeys>;
