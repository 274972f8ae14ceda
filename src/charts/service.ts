/**
 * The `chart` effect: reads the pair's history, draws it (or takes the picture drawn this minute
 * for the same pair, range and language from the media store) and answers what the caption needs.
 * Asking for a pair's chart also has the recorder quote it from now on.
 */
import type { Locale, Text } from '../chat/types.js';
import type { Engine } from '../engine/index.js';
import { displayNetwork } from '../flows/form/asset-steps.js';
import type { ChartRequest, ChartView, Effect, Input } from '../flows/types.js';
import type { MediaStore } from '../store/media.js';
import { type History, minuteOf, pairKey, type RateHistory } from './history.js';
import type { ChartedPairs } from './recorder.js';
import { chartSvg, RANGE_MS } from './svg.js';

/** How long a picture is kept: past the outbox's give-up, and the same minute's askers share it. */
const PICTURE_TTL_MS = 3600_000;

export interface ChartServiceOptions {
  history: RateHistory;
  pairs: ChartedPairs;
  media: MediaStore;
  i18n: { t(locale: Locale, text: Text): string };
  now?: () => number;
  /** Told each picture drawn (not the ones taken from the store): its time and bytes. */
  onDrawn?: (ms: number, bytes: number) => void;
}

export class ChartService {
  private readonly now: () => number;

  constructor(private readonly o: ChartServiceOptions) {
    this.now = o.now ?? Date.now;
  }

  async chart(request: ChartRequest, locale: Locale): Promise<ChartView> {
    const now = this.now();
    const pair = { token: request.token, network: request.network };
    await this.o.pairs.touch(pair, now);
    const history = await this.o.history.read(pair, request.range, now);
    const view: ChartView = { ...request, ...figures(history, now) };
    if (history.points.length < 2) return view;
    const ref = `chart:${pairKey(pair)}:${request.range}:${minuteOf(now)}:${locale}`;
    if (!(await this.o.media.has(ref))) {
      const started = performance.now();
      const t = (id: string) => this.o.i18n.t(locale, { id });
      const labels = {
        title: `${request.token} · ${displayNetwork(request.network)}`,
        buy: t('charts-legend-buy'),
        sell: t('charts-legend-sell'),
      };
      // The rasteriser (a native module) loads on the first chart, not at start.
      const { renderPng } = await import('./render.js');
      const { png } = renderPng(chartSvg(history, labels, now));
      await this.o.media.put(ref, png, PICTURE_TTL_MS);
      this.o.onDrawn?.(performance.now() - started, png.length);
    }
    return { ...view, ref };
  }
}

/** The latest rate of each side and its change since the range's first, and where history begins. */
function figures(history: History, now: number): Pick<ChartView, 'buy' | 'sell' | 'since'> {
  const out: Pick<ChartView, 'buy' | 'sell' | 'since'> = {};
  for (const side of ['buy', 'sell'] as const) {
    const rates = history.points.map((p) => p[side]).filter((r): r is number => r !== undefined);
    const last = rates.at(-1);
    if (last === undefined) continue;
    const first = rates[0]!;
    out[side] = {
      now: round(last),
      ...(rates.length > 1 ? { changePct: Math.round(((last - first) / first) * 10_000) / 100 } : {}),
    };
  }
  if (history.since !== undefined && history.since > now - RANGE_MS[history.range]) out.since = history.since;
  return out;
}

/** Rates are kept as 32-bit floats: two decimals is what they carry. */
const round = (rate: number) => Math.round(rate * 100) / 100;

type ChartEffect = Extract<Effect, { type: 'chart' }>;

export function registerChartEffects(engine: Pick<Engine, 'registerEffect'>, service: ChartService): void {
  engine.registerEffect<ChartEffect>('chart', async (e, ctx): Promise<Input> => {
    return { kind: 'chart', chart: await service.chart(e.request, ctx.session.locale) };
  });
}
