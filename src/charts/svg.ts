/**
 * A rate history drawn as an SVG document: the buy and the sell rate as two lines over the range,
 * rate ticks on the left, Nairobi times below, the legend on top. Pure (no I/O), so the layout a
 * test checks pixels against is the one drawn.
 */
import type { History, Point, Range } from './history.js';

export const WIDTH = 800;
export const HEIGHT = 450;
export const PLOT = { left: 70, right: WIDTH - 20, top: 56, bottom: HEIGHT - 40 };
export const COLOURS = { buy: '#0a8f3c', sell: '#d9480f', grid: '#e3e6ea', text: '#3c4450', bg: '#ffffff' };
export const RANGE_MS: Record<Range, number> = {
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
  '30d': 30 * 24 * 3600_000,
};
/** A bucket of each range; points further apart than three of them are not joined. */
const STEP_MS: Record<Range, number> = { '24h': 60_000, '7d': 600_000, '30d': 3600_000 };
const NAIROBI_MS = 3 * 3600_000;

/** The words in the picture, in the user's language. */
export interface ChartLabels {
  title: string;
  buy: string;
  sell: string;
}

export interface Layout {
  x(at: number): number;
  y(rate: number): number;
  ticks: number[];
  from: number;
  to: number;
}

/** Where times and rates land: the range ending `now`, the rates of both sides with a margin. */
export function layout(history: History, now: number): Layout {
  const to = now;
  const from = now - RANGE_MS[history.range];
  const rates = history.points.flatMap((p) => [p.buy, p.sell]).filter((r): r is number => r !== undefined);
  let lo = Math.min(...rates);
  let hi = Math.max(...rates);
  if (!rates.length) [lo, hi] = [0, 1];
  const pad = Math.max((hi - lo) * 0.08, hi * 0.002, 0.01);
  const ticks = niceTicks(lo - pad, hi + pad);
  const [min, max] = [Math.min(lo - pad, ticks[0]!), Math.max(hi + pad, ticks.at(-1)!)];
  const { left, right, top, bottom } = PLOT;
  return {
    x: (at) => left + ((at - from) / (to - from)) * (right - left),
    y: (rate) => bottom - ((rate - min) / (max - min)) * (bottom - top),
    ticks: ticks.filter((t) => t >= min && t <= max),
    from,
    to,
  };
}

/** About five round values between `lo` and `hi`. */
function niceTicks(lo: number, hi: number): number[] {
  const raw = (hi - lo) / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toFixed(10)));
  return out;
}

/** The path of one side: a run of points joined, broken where the ramp went unquoted. */
export function sidePath(history: History, l: Layout, side: 'buy' | 'sell'): string {
  const gap = STEP_MS[history.range] * 3;
  let d = '';
  let prev: Point | undefined;
  for (const p of history.points) {
    const rate = p[side];
    if (rate === undefined) {
      prev = undefined;
      continue;
    }
    const joined = prev !== undefined && p.at - prev.at <= gap;
    d += `${joined ? 'L' : 'M'}${l.x(p.at).toFixed(1)} ${l.y(rate).toFixed(1)}`;
    prev = p;
  }
  return d;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const pad2 = (n: number) => String(n).padStart(2, '0');

/** Time labels in Nairobi time: every 6 hours over a day, each day over a week, every 5 days over a month. */
function timeTicks(range: Range, from: number, to: number): Array<{ at: number; label: string }> {
  const every = range === '24h' ? 6 * 3600_000 : range === '7d' ? 24 * 3600_000 : 5 * 24 * 3600_000;
  const out: Array<{ at: number; label: string }> = [];
  const first = Math.ceil((from + NAIROBI_MS) / every) * every - NAIROBI_MS;
  for (let at = first; at <= to; at += every) {
    const d = new Date(at + NAIROBI_MS);
    const label =
      range === '24h'
        ? `${pad2(d.getUTCHours())}:00`
        : `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}`;
    out.push({ at, label });
  }
  return out;
}

/** The whole picture as SVG text. */
export function chartSvg(history: History, labels: ChartLabels, now: number): string {
  const l = layout(history, now);
  const { left, right, top, bottom } = PLOT;
  const font = `font-family="DejaVu Sans" fill="${COLOURS.text}"`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${COLOURS.bg}"/>`,
    `<text x="${left}" y="28" font-size="20" font-weight="bold" ${font}>${esc(labels.title)}</text>`,
  ];
  // The legend, top right: a swatch and the side's name each.
  let lx = right - 250;
  for (const side of ['buy', 'sell'] as const) {
    parts.push(`<rect x="${lx}" y="16" width="22" height="6" rx="3" fill="${COLOURS[side]}"/>`);
    parts.push(`<text x="${lx + 30}" y="25" font-size="15" ${font}>${esc(labels[side])}</text>`);
    lx += 125;
  }
  for (const t of l.ticks) {
    const y = l.y(t).toFixed(1);
    parts.push(
      `<line x1="${left}" x2="${right}" y1="${y}" y2="${y}" stroke="${COLOURS.grid}" stroke-width="1"/>`,
    );
    const label = t.toFixed(t >= 100 ? 1 : 2);
    parts.push(
      `<text x="${left - 8}" y="${y}" dy="5" font-size="13" text-anchor="end" ${font}>${label}</text>`,
    );
  }
  for (const t of timeTicks(history.range, l.from, l.to)) {
    const x = l.x(t.at).toFixed(1);
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${top}" y2="${bottom}" stroke="${COLOURS.grid}" stroke-width="1"/>`,
    );
    parts.push(
      `<text x="${x}" y="${bottom + 22}" font-size="13" text-anchor="middle" ${font}>${t.label}</text>`,
    );
  }
  parts.push(
    `<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="#9aa3ad" stroke-width="1"/>`,
  );
  for (const side of ['sell', 'buy'] as const) {
    const d = sidePath(history, l, side);
    if (d)
      parts.push(
        `<path d="${d}" fill="none" stroke="${COLOURS[side]}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>`,
      );
  }
  parts.push('</svg>');
  return parts.join('');
}
