/** The order tracker: `createTracker` and what main.ts needs to wire it. */
import type { Config } from '../config/env.js';
import type { TrackerConfig } from './tracker.js';

export {
  ORDER_EVENT_KINDS,
  type OrderEvent,
  readOrderTimeline,
  TIMELINE_MAX,
  timelineKey,
} from './store/timeline.js';
export {
  createTracker,
  type OrderRecordView,
  type Tracker,
  type TrackerConfig,
  type TrackerDeps,
} from './tracker.js';
export type { EscalationCase } from './types.js';

/** The tracker settings from the validated environment. */
export function trackerConfigFrom(config: Config): TrackerConfig {
  return {
    pollIntervalMs: config.POLL_INTERVAL_MS,
    onrampHorizonMs: config.ONRAMP_HORIZON_MS,
    offrampHorizonMs: config.OFFRAMP_HORIZON_MS,
    concurrency: config.TRACKER_CONCURRENCY,
    project: config.RAMP_PROJECT,
    // A deposit intent must outlive the longest ramp.deposit a live worker can still be waiting on
    // (one timed-out attempt plus the client's short retries of refused connections), or a running
    // call is taken for a dead one and the order goes to support while its crypto is being released.
    claimStaleMs: Math.max(config.TRACKER_CLAIM_STALE_MS, 2 * config.RAMP_TIMEOUT_MS + 10_000),
  };
}
