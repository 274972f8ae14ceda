/**
 * Sending one message: paced (pacer.ts), and sent again while Meta says to wait (remedy `retry`:
 * throttling and transient errors), with a doubling, jittered pause; a pair-rate refusal (too many
 * messages to one user) waits longer. Any other refusal is thrown at once for the caller to judge.
 */
import { GraphError, isPairRate, type Remedy, type WireMessage } from './graph.js';
import type { OutboundContext } from './outbound-types.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The pause before try `n + 2` after a retryable refusal. */
function pauseAfter(ctx: OutboundContext, err: unknown, n: number): number {
  const first = isPairRate(err) ? ctx.retry.pairMs : ctx.retry.baseMs;
  return first * 2 ** n * (0.75 + Math.random() / 2);
}

/** One message, paced, retried while Meta says to wait; resolves with its message id. */
export async function post(ctx: OutboundContext, waId: string, message: WireMessage): Promise<string> {
  for (let n = 0; ; n++) {
    await ctx.pacer.slot(waId);
    try {
      const id = await ctx.graph.send(waId, message);
      ctx.metrics.sent.inc({ kind: message.type });
      return id;
    } catch (err) {
      const remedy: Remedy = err instanceof GraphError ? err.remedy : 'fatal';
      ctx.metrics.failed.inc({ remedy });
      if (remedy !== 'retry' || n + 1 >= ctx.retry.attempts) throw err;
      const pause = pauseAfter(ctx, err, n);
      ctx.log.warn(
        { code: (err as GraphError).code, attempt: n + 1, pauseMs: Math.round(pause) },
        'Graph API asked us to wait; sending again',
      );
      await sleep(pause);
    }
  }
}
