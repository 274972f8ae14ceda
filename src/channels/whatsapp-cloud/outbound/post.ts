/**
 * Sending one message: at its turn in the number's outbound line (pacing.ts). A rate-limit refusal
 * (throughput, pair rate) puts it back in its place in the line, held on every replica, until Meta
 * takes it; another transient refusal (Meta's own trouble, no answer) is sent again after a
 * doubling, jittered pause, up to `retry.attempts` tries. Any other refusal is thrown at once for
 * the caller to judge.
 */

import { HandedOverError } from '../../../chat/types.js';
import {
  createOutbox,
  NO_SCOPE,
  type Outbox,
  redisOutboxStore,
  type Throttled,
} from '../../../outbound/index.js';
import { GraphError, type Remedy, type WireMessage } from '../graph.js';
import { withMedia } from './media.js';
import type { CloudScope, OutboundContext } from './outbound-types.js';
import { throttleOf } from './pacing.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One try of a message at its turn: a rate-limit refusal waits its turn again. */
export async function attempt(
  ctx: Pick<OutboundContext, 'graph' | 'retry' | 'metrics' | 'log' | 'media'>,
  waId: string,
  message: WireMessage,
): Promise<string | Throttled> {
  try {
    return await ctx.graph.send(waId, await withMedia(ctx, message));
  } catch (err) {
    const throttled = throttleOf(err, { lineMs: ctx.retry.baseMs, pairMs: ctx.retry.pairMs });
    if (!throttled) throw err;
    ctx.metrics.failed.inc({ remedy: 'retry' });
    ctx.log.warn(
      { code: (err as GraphError).code, scope: throttled.scope, holdMs: throttled.retryAfterMs },
      'Graph API rate limit: the message waits its turn again',
    );
    return throttled;
  }
}

/** The number's outbox: each Graph message kept in Redis until some replica sent it. */
export function createCloudOutbox(
  ctx: Pick<OutboundContext, 'graph' | 'retry' | 'metrics' | 'log' | 'pacing' | 'media'> & {
    redis: OutboundContext['redis'];
  },
  base: string,
): Outbox {
  return createOutbox({
    store: redisOutboxStore(ctx.redis, base),
    line: ctx.pacing.line,
    lanesOf: (waId) => ctx.pacing.lanesOf(waId),
    send: (body, _turn, waId) => attempt(ctx, waId, body as WireMessage),
    logger: ctx.log,
  });
}

/** One message, paced, retried while Meta says to wait; resolves with its message id. */
export async function post(
  ctx: OutboundContext,
  waId: string,
  message: WireMessage,
  scope: CloudScope = NO_SCOPE,
): Promise<string> {
  const { line, lanesOf } = ctx.pacing;
  const cls = scope.cls ?? 'reply';
  const turn = { key: waId, cls, own: lanesOf(waId) };
  for (let n = 0; ; n++) {
    try {
      const id = ctx.outbox
        ? ((await ctx.outbox.submit(waId, cls, message, { scope })) as string)
        : await line.run(turn, () => attempt(ctx, waId, message), ctx.signal);
      if (scope.posted) scope.posted.n += 1;
      ctx.metrics.sent.inc({ kind: message.type });
      return id;
    } catch (err) {
      if ((ctx.signal?.aborted && err === ctx.signal.reason) || err instanceof HandedOverError) throw err;
      const remedy: Remedy = err instanceof GraphError ? err.remedy : 'fatal';
      ctx.metrics.failed.inc({ remedy });
      if (remedy !== 'retry' || n + 1 >= ctx.retry.attempts || ctx.signal?.aborted) throw err;
      const pause = ctx.retry.baseMs * 2 ** n * (0.75 + Math.random() / 2);
      ctx.log.warn(
        { code: (err as GraphError).code, attempt: n + 1, pauseMs: Math.round(pause) },
        'Graph API asked us to wait; sending again',
      );
      await sleep(pause);
    }
  }
}
