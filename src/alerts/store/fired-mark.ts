/**
 * An alert's "fired" mark as plain Redis writes (the FIRED script's, src/alerts/store/scripts.ts), to go
 * in the same Redis step as its notice into the outbox (src/store/marks.ts): a Redis blip or a kill
 * between the two can no longer tell it twice or leave it told but claimed.
 */
import type { OutboxAlso } from '../../store/marks.js';
import { type AlertRecord, feedOf } from './record.js';

/** The mark under the store's prefix `p` (`<app prefix>al:`); written only while the claim is held. */
export function firedMark(p: string, rec: AlertRecord, rearmPct: number): OutboxAlso {
  const feed = feedOf(rec.side, rec.network, rec.token);
  const rearmAt = rec.side === 'below' ? rec.level * (1 + rearmPct / 100) : rec.level * (1 - rearmPct / 100);
  return {
    guard: { key: `${p}c`, member: rec.id },
    zadd: [{ key: `${p}r:${feed}`, score: rearmAt, member: rec.id }],
    sadd: [{ key: `${p}f`, member: feed }],
  };
}
