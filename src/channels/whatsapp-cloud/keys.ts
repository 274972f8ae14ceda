/** Redis key names of the Cloud API transport, per business phone number ID. */
export function cloudKeys(keyPrefix: string, phoneNumberId: string) {
  const base = `${keyPrefix}${phoneNumberId}:`;
  return {
    base,
    /** An inbound message id already taken (Meta redelivers). */
    seen: (messageId: string) => `${base}seen:${messageId}`,
    /** Hash: wa_id -> epoch ms of the user's last message (opens the 24-hour window). */
    lastInbound: `${base}last-in`,
    /**
     * Hash: wa_id -> epoch ms when Meta refused a free-form message as outside its window (#131047):
     * free-form is not tried again until the user writes.
     */
    windowShut: `${base}window-shut`,
    /** Hash: wa_id -> locale of the last message we sent them. */
    locales: `${base}locales`,
    /** The choices of the last question sent to a user (typed answers are read against them). */
    menu: (waId: string) => `${base}menu:${waId}`,
    /** The choices of the last notice sent to a user. */
    noticeMenu: (waId: string) => `${base}notice-menu:${waId}`,
    /** The message id of the last question with buttons: taps on older ones are stale. */
    question: (waId: string) => `${base}question:${waId}`,
    /** List: messages a template stood in for, delivered in full when the user writes again. */
    held: (waId: string) => `${base}held:${waId}`,
    /** List: messages a stopping process had not sent yet, for any running replica to send. */
    handback: `${base}handback`,
    /** The outbox (src/outbound/outbox-redis.ts): every Graph message until some replica sent it. */
    outbox: `${base}outbox:`,
    /** What an outgoing message was, by its id, for the status webhook that may report it failed. */
    outgoing: (messageId: string) => `${base}out:${messageId}`,
    /** Pacing (the outbound line): the number's throughput, and one user's pair rate. */
    paceNumber: `${base}pace`,
    pacePair: (waId: string) => `${base}pace:${waId}`,
    /** Pacing: until when Meta's throughput refusal holds every replica, and how much they slow after. */
    paceHold: `${base}pace-hold`,
    paceSlow: `${base}pace-slow`,
  };
}

export type CloudKeys = ReturnType<typeof cloudKeys>;
