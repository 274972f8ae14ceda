/**
 * Redis bytes per tracked order, key by key: MEMORY USAGE (SAMPLES 0, so aggregates are counted
 * whole) of every key under the benchmark's prefix, grouped by what the key is, divided by the
 * number of orders. Shared keys (the due set, the tracking set) count as their share; nothing under the prefix is left out, so a key an order costs cannot hide. Unlike the
 * INFO used_memory delta it does not move with other clients of the same Redis.
 */
import type { RedisClientType } from 'redis';

export interface KeyBytes {
  /** Bytes per order, all keys. */
  perOrder: number;
  /** Bytes per order by kind of key, and how many keys of that kind there are. */
  byKind: Record<string, { bytesPerOrder: number; keys: number }>;
  /** The encoding (OBJECT ENCODING) of one order's hash. */
  orderEncoding: string;
}

/** What a key under `prefix` is. */
export function keyKind(prefix: string, key: string): string {
  const rest = key.slice(prefix.length);
  const [head = '', , ...tail] = rest.split(':');
  if (head === 'order') return tail.length ? `order:<id>:${tail.join(':')}` : 'order:<id> hash';
  if (head === 'deposit') return 'deposit:<id>';
  if (head === 'user-orders') return 'user-orders:<user> zset';
  if (head === 'tracking') return 'tracking set';
  if (head === 'due') return 'due zset';
  return 'other';
}

export async function measureKeys(
  redis: RedisClientType,
  prefix: string,
  orderIds: readonly string[],
): Promise<KeyBytes> {
  const keys: string[] = [];
  for await (const batch of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    keys.push(...(Array.isArray(batch) ? batch : [batch]).map(String));
  }
  const byKind: KeyBytes['byKind'] = {};
  let total = 0;
  for (let i = 0; i < keys.length; i += 500) {
    const slice = keys.slice(i, i + 500);
    const sizes = await Promise.all(slice.map((k) => redis.memoryUsage(k, { SAMPLES: 0 })));
    slice.forEach((k, j) => {
      const bytes = Number(sizes[j] ?? 0);
      const kind = keyKind(prefix, k);
      const entry = byKind[kind] ?? { bytesPerOrder: 0, keys: 0 };
      entry.bytesPerOrder += bytes;
      entry.keys += 1;
      byKind[kind] = entry;
      total += bytes;
    });
  }
  const n = Math.max(1, orderIds.length);
  for (const entry of Object.values(byKind)) entry.bytesPerOrder /= n;
  const sample = orderIds[0] ? await redis.objectEncoding(`${prefix}order:${orderIds[0]}`) : null;
  return { perOrder: total / n, byKind, orderEncoding: String(sample ?? 'none') };
}

/** One line per kind of key, largest first. */
export function formatKeyBytes(label: string, k: KeyBytes): string {
  const rows = Object.entries(k.byKind)
    .sort((a, b) => b[1].bytesPerOrder - a[1].bytesPerOrder)
    .map(
      ([kind, e]) => `      ${kind.padEnd(26)} ${e.bytesPerOrder.toFixed(0).padStart(6)} B  (${e.keys} keys)`,
    );
  return [
    `  ${label.padEnd(22)} ${k.perOrder.toFixed(0)} B per order (MEMORY USAGE of every key; order hash ${k.orderEncoding})`,
    ...rows,
  ].join('\n');
}
