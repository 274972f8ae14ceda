/** The tracker's Prometheus metrics, in a registry of their own (merge it into the /metrics one). */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface TrackerMetrics {
  registry: Registry;
  /** Orders that reached a state: tracked, success, failed, cancelled, escalated. */
  orders: Counter<'side' | 'state'>;
  /** Orders not yet final (read from the store at scrape time). */
  tracking: Gauge;
  /** Duration of one status call to the ramp. */
  pollDuration: Histogram<'side' | 'result'>;
  deposits: Counter<'outcome'>;
  /** How late a poll started behind the time it was due. */
  queueLag: Histogram;
  errors: Counter<'kind'>;
  /** Orders handed to support, by why (horizon: still pending past its horizon). */
  escalations: Counter<'side' | 'reason'>;
}

export function createTrackerMetrics(countTracking: () => Promise<number>): TrackerMetrics {
  const registry = new Registry();
  return {
    registry,
    orders: new Counter({
      name: 'rampchat_tracker_orders_total',
      help: 'Orders that reached a state (tracked, success, failed, cancelled, escalated)',
      labelNames: ['side', 'state'],
      registers: [registry],
    }),
    tracking: new Gauge({
      name: 'rampchat_tracker_orders_tracking',
      help: 'Orders being tracked (not yet final), across all workers',
      registers: [registry],
      async collect() {
        this.set(await countTracking());
      },
    }),
    pollDuration: new Histogram({
      name: 'rampchat_tracker_poll_duration_seconds',
      help: 'Duration of one order status call to the ramp',
      labelNames: ['side', 'result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    deposits: new Counter({
      name: 'rampchat_tracker_deposits_total',
      help: 'Crypto release outcomes (success, refused, unknown, reconciled, escalated)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    queueLag: new Histogram({
      name: 'rampchat_tracker_queue_lag_seconds',
      help: 'How late a poll started behind its due time',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    errors: new Counter({
      name: 'rampchat_tracker_errors_total',
      help: 'Tracker errors by kind (ramp error kinds, notify, escalate, store, internal)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    escalations: new Counter({
      name: 'rampchat_tracker_escalations_total',
      help: 'Orders handed to support, by side and reason (horizon: still pending past its horizon)',
      labelNames: ['side', 'reason'],
      registers: [registry],
    }),
  };
}
