/**
 * The chart picture read back as a PNG: its size, each series' colour where its rate is plotted and
 * nowhere the ramp went unquoted; a full day's picture within the time and byte targets.
 */
import { describe, expect, it } from 'vitest';
import type { History, Point } from '../../src/charts/history.js';
import { renderPng } from '../../src/charts/render.js';
import { COLOURS, chartSvg, HEIGHT, layout, WIDTH } from '../../src/charts/svg.js';
import { decodePng } from './pixels.js';

const NOW = Date.parse('2026-11-28T09:00:00Z');
const MIN = 60_000;
const labels = { title: 'USDT · Celo', buy: 'Buy', sell: 'Sell' };

/** A day of minutes: buy at 131, sell at 127, none quoted from 12 h to 10 h ago. */
function day(): History {
  const points: Point[] = [];
  for (let at = NOW - 1439 * MIN; at <= NOW; at += MIN) {
    const ago = NOW - at;
    if (ago < 12 * 3600_000 && ago > 10 * 3600_000) continue;
    points.push({ at, buy: 131, sell: 127 });
  }
  return { pair: { token: 'USDT', network: 'celo' }, range: '24h', points };
}

describe('the chart picture', () => {
  it('plots the buy and the sell rate where the layout puts them, and nothing in a gap', () => {
    const h = day();
    const { png, width, height } = renderPng(chartSvg(h, labels, NOW));
    const pic = decodePng(png);
    expect([pic.width, pic.height, width, height]).toEqual([WIDTH, HEIGHT, WIDTH, HEIGHT]);
    const l = layout(h, NOW);
    const x = l.x(NOW - 3 * 3600_000);
    expect(pic.near(x, l.y(131), COLOURS.buy)).toBe(true);
    expect(pic.near(x, l.y(127), COLOURS.sell)).toBe(true);
    // Buy is above sell on the picture, and between them is background.
    expect(l.y(131)).toBeLessThan(l.y(127));
    expect(pic.at(x + 3, (l.y(131) + l.y(127)) / 2)).toBe(COLOURS.bg);
    // Eleven hours ago nothing was quoted: no line there.
    const gap = l.x(NOW - 11 * 3600_000);
    expect(pic.near(gap, l.y(131), COLOURS.buy, 2)).toBe(false);
    expect(pic.near(gap, l.y(127), COLOURS.sell, 2)).toBe(false);
  });

  // Its time is bench/charts.ts's to print (a timed assertion would measure the machine's load).
  it('draws a full day within 150 KB', () => {
    const points: Point[] = [];
    let rate = 129;
    for (let at = NOW - 1439 * MIN; at <= NOW; at += MIN) {
      rate += Math.sin(at / 7e6) * 0.3 + (((at / MIN) * 7919) % 13) / 40 - 0.15;
      points.push({ at, buy: rate + 1, sell: rate - 1 });
    }
    const h: History = { pair: { token: 'USDT', network: 'celo' }, range: '24h', points };
    const { png } = renderPng(chartSvg(h, labels, NOW));
    expect(png.length).toBeLessThan(150 * 1024);
  });
});
