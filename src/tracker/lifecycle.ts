/**
 * Taking orders in and keeping them polled: `track` stores a new order and queues its first poll,
 * `start` runs the scheduler and requeues every order still tracked (so a restart loses none).
 */
import type { TrackedOrder } from '../flows/types.js';
import { describe, type TrackerContext } from './context.js';
import { note } from './poll/progress.js';
import { runOrder } from './poll/run-order.js';
import type { Scheduler } from './schedule/scheduler.js';
import { initialTrackingState, type TrackingState, trackedOrderSchema } from './store/state.js';
import type { TrackerHealth } from './types.js';

/** Starts tracking an order (a no-op for an order already tracked or finished). */
export async function trackOrder(
  ctx: TrackerContext,
  scheduler: Scheduler,
  input: TrackedOrder,
): Promise<void> {
  const order = trackedOrderSchema.parse(input);
  const firstDelay = Math.round(Math.random() * ctx.cfg.pollIntervalMs);
  const state: TrackingState = { ...initialTrackingState(), nextDueAt: ctx.now() + firstDelay };
  const added = await ctx.store.addOrder(order, state);
  if (added) {
    await note(ctx, order.orderId, { kind: 'created' });
    ctx.metrics.orders.inc({ side: order.side, state: 'tracked' });
    ctx.log.info({ orderId: order.orderId, side: order.side }, 'tracking order');
  } else {
    const rec = await ctx.store.load(order.orderId);
    if (!rec || rec.final === 'done') return;
  }
  await scheduler.enqueue(order.orderId, firstDelay);
}

/** Runs the polls and requeues every order still tracked, 200 at a time. */
export async function startTracking(ctx: TrackerContext, scheduler: Scheduler, mode: string): Promise<void> {
  await scheduler.start((orderId) => runOrder(ctx, orderId));
  const ids = await ctx.store.trackingIds();
  for (let i = 0; i < ids.length; i += 200) {
    await Promise.all(
      ids
        .slice(i, i + 200)
        .map((id) => scheduler.enqueue(id, Math.round(Math.random() * ctx.cfg.pollIntervalMs))),
    );
  }
  ctx.log.info({ resumed: ids.length, mode }, 'tracker started');
}

/** Whether the store answers, and the queue's counts. */
export async function trackerHealth(
  ctx: TrackerContext,
  scheduler: Scheduler,
  redisUsed: boolean,
): Promise<TrackerHealth> {
  try {
    await ctx.store.ping();
    const queue = await scheduler.stats();
    return { ok: true, details: { store: ctx.store.kind, redis: redisUsed ? 'ok' : 'unused', queue } };
  } catch (err) {
    return { ok: false, details: { store: ctx.store.kind, error: describe(err) } };
  }
}
