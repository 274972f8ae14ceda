import type { TrackedOrder } from '../flows/types.js';

/** Follows orders until they are final. Tracking the same order id twice is a no-op. */
export interface OrderTracker {
  track(order: TrackedOrder): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
