/** What a poll decided: poll again after `next` ms, or stop (the order is final). */
export type PollDecision = { next: number } | { done: true };

/** Polls one order; the schedulers call it when the order is due. */
export type PollHandler = (orderId: string) => Promise<PollDecision>;
