/**
 * `npx tsx bench/charts.ts`: how long a price chart takes to draw and how many bytes it weighs, for
 * each range with its rings full (a gentle random walk, and a noisy one that compresses worst), and
 * the rate history's bytes in Redis for one pair when REDIS_URL is set. Nothing is asserted.
 */
import { createClient, type RedisClientType } from 'redis';
import type { History, Point, Range } from '../src/charts/history.js';
import { RedisRateHistory } from '../src/charts/history-redis.js';
import { renderPng } from '../src/charts/render.js';
import { chartSvg, RANGE_MS } from '../src/charts/svg.js';

const NOW = Date.parse('2026-11-28T09:00:00Z');
const STEP: Record<Range, number> = { '24h': 60_000, '7d': 600_000, '30d': 3600_000 };
const RUNS = Number(process.env.BENCH_CHART_RUNS ?? 30);

function walk(range: Range, noise: number): History {
  const points: Point[] = [];
  let rate = 129;
  for (let at = NOW - RANGE_MS[range] + STEP[range]; at <= NOW; at += STEP[range]) {
    rate += (Math.random() - 0.5) * noise;
    points.push({ at, buy: rate + 1.2 + Math.random() * noise, sell: rate - 1.2 - Math.random() * noise });
  }
  return { pair: { token: 'USDT', network: 'celo' }, range, points };
}

const labels = { title: 'USDT · Celo', buy: 'Buy rate', sell: 'Sell rate' };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;

console.log(`Chart render (resvg, 800×450 PNG), ${RUNS} runs each, after one warm-up:`);
console.log('| Range | Data | Points | SVG bytes | PNG bytes | median ms | p95 ms |');
console.log('|---|---|---|---|---|---|---|');
for (const range of ['24h', '7d', '30d'] as const) {
  for (const [name, noise] of [
    ['walk', 0.15],
    ['noisy', 2],
  ] as const) {
    const h = walk(range, noise);
    renderPng(chartSvg(h, labels, NOW));
    const ms: number[] = [];
    let svgBytes = 0;
    let pngBytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const svg = chartSvg(h, labels, NOW);
      const { png } = renderPng(svg);
      ms.push(performance.now() - t);
      svgBytes = svg.length;
      pngBytes = png.length;
    }
    console.log(
      `| ${range} | ${name} | ${h.points.length} | ${svgBytes} | ${pngBytes} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} |`,
    );
  }
}

if (process.env.REDIS_URL) {
  const redis = createClient({ url: process.env.REDIS_URL }) as RedisClientType;
  await redis.connect();
  const h = new RedisRateHistory(redis, `bench:charts:${process.pid}:`);
  const pair = { token: 'USDT', network: 'celo' };
  // 31 days of minutes would be 44,640 quotes; 61-minute steps reach every slot of every ring.
  for (let i = 0; i < 1500; i++)
    for (const side of ['buy', 'sell'] as const)
      await h.record(pair, side, 129 + Math.random(), NOW + i * 61 * 60_000);
  const sizes = await Promise.all(h.keys(pair).map((k) => redis.memoryUsage(k)));
  console.log(
    `\nRate history of one pair, rings full: ${sizes.reduce<number>((a, b) => a + (b ?? 0), 0)} bytes (MEMORY USAGE)`,
  );
  await redis.del(h.keys(pair));
  await redis.quit();
}
