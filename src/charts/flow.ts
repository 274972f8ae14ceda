/**
 * Price charts in the chat: `/price USDT` (`/chart`, `/chati`; a network may follow) or the Chart
 * button under a price sends a picture of the token's buy and sell rate over 24 hours, with buttons
 * for 7 and 30 days, today's rates and their change written under it. Only what is missing (the
 * token, the network) is asked. Button ids carry token, network and range, so an old picture's
 * buttons still work; a picture's own range buttons (ids ending `:p`) put the new range in place of
 * that picture where the channel can edit one.
 */
import * as z from 'zod';
import type { Locale, Text } from '../chat/types.js';
import { parseNetwork } from '../domain/networks.js';
import type { Network } from '../domain/types.js';
import { failureTexts } from '../flows/failures.js';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import {
  at,
  button,
  isEffectResult,
  navRow,
  plainButton,
  rows,
  send,
  text,
  unhandled,
} from '../flows/flow.js';
import { displayNetwork } from '../flows/form/asset-steps.js';
import { listedSymbols, networksFor } from '../flows/form/assets.js';
import { menuButton } from '../flows/menu/menu.js';
import { matchSymbol } from '../flows/parse.js';
import { networkSchema, tokenInfoSchema } from '../flows/schemas.js';
import type { Session } from '../flows/session.js';
import type { ChartRange, ChartView, EffectResult, Input } from '../flows/types.js';
import { formatDateTime, formatKes, formatNumber } from '../i18n/format.js';

const rangeSchema = z.enum(['24h', '7d', '30d']);
const RANGES: readonly ChartRange[] = rangeSchema.options;
/** A range as the texts select on it (Fluent's variant keys cannot start with a digit). */
const SPAN: Record<ChartRange, string> = { '24h': 'day', '7d': 'week', '30d': 'month' };

export const chartStateSchema = z.object({
  name: z.literal('chart'),
  step: z.enum(['loading', 'token', 'network', 'drawing', 'shown']),
  token: z.string().max(16).optional(),
  network: networkSchema.optional(),
  range: rangeSchema,
  assets: z.array(tokenInfoSchema).optional(),
  /** The picture the new range takes the place of (the channel's message id). */
  editing: z.string().max(64).optional(),
});
export type ChartState = z.infer<typeof chartStateSchema>;

/** The button that opens a chart (under a price; in the chart's own range row, `onPicture`). */
export const chartButtonId = (
  token: string,
  network: Network,
  range: ChartRange = '24h',
  onPicture = false,
): string => `ch:show:${token}:${network}:${range}${onPicture ? ':p' : ''}`;

function drawing(session: Session, state: ChartState): FlowStep {
  return at(session, { ...state, step: 'drawing', assets: undefined }, [
    { type: 'chart', request: { token: state.token!, network: state.network!, range: state.range } },
  ]);
}

/** Asks the token or the network while one is missing, then draws. */
function advance(session: Session, state: ChartState, notes: Text[] = []): FlowStep {
  const assets = state.assets ?? [];
  const next = { ...state };
  const symbol = next.token ? matchSymbol(next.token, listedSymbols(assets)) : undefined;
  if (next.token && !symbol) notes.push(text('charts-token-unknown', { token: next.token }));
  next.token = symbol;
  if (!next.token) {
    const symbols = listedSymbols(assets).map((s) => plainButton(`ch:tok:${s}`, s));
    return at(session, { ...next, step: 'token', network: undefined }, [
      send([...notes, text('charts-ask-token')], { buttons: [...rows(symbols), navRow(false)] }),
    ]);
  }
  const networks = networksFor(assets, next.token);
  if (next.network && !networks.includes(next.network)) next.network = undefined;
  if (!next.network && networks.length === 1) next.network = networks[0];
  if (!next.network) {
    const buttons = networks.map((n) => plainButton(`ch:net:${n}`, displayNetwork(n)));
    return at(session, { ...next, step: 'network' }, [
      send([...notes, text('charts-ask-network', { token: next.token })], {
        buttons: [...rows(buttons), navRow()],
      }),
    ]);
  }
  return drawing(session, next);
}

const signed = (locale: Locale, pct: number) =>
  `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${formatNumber(locale, Math.abs(pct), 2)} %`;

/** The caption: what is drawn, each side's rate now and its change, how far back the rates go. */
export function captionOf(locale: Locale, chart: ChartView): Text[] {
  const where = { token: chart.token, network: displayNetwork(chart.network) };
  if (!chart.ref) return [text('charts-empty', where)];
  const out: Text[] = [text(`charts-title-${chart.range}`, where)];
  for (const side of ['buy', 'sell'] as const) {
    const figure = chart[side];
    if (!figure) continue;
    const rate = formatKes(locale, figure.now);
    out.push(
      figure.changePct === undefined
        ? text(`charts-${side}-now`, { rate })
        : text(`charts-${side}-change`, {
            rate,
            change: signed(locale, figure.changePct),
            range: SPAN[chart.range],
          }),
    );
  }
  if (chart.since !== undefined)
    out.push(text('charts-since', { since: formatDateTime(locale, new Date(chart.since).toISOString()) }));
  return out;
}

function shown(session: Session, state: ChartState, chart: ChartView): FlowStep {
  const ranges = RANGES.map((r) =>
    button(
      chartButtonId(chart.token, chart.network, r, true),
      r === chart.range ? 'charts-range-on' : 'charts-range',
      { range: SPAN[r] },
    ),
  );
  const texts = captionOf(session.locale, chart);
  const message = chart.ref
    ? send(texts, {
        buttons: [ranges, [menuButton()]],
        media: { kind: 'photo', ref: chart.ref, filename: 'chart.png' },
        ...(state.editing ? { editing: state.editing } : {}),
      })
    : send(texts, { buttons: [[menuButton()]] });
  return at(session, { ...state, step: 'shown', editing: undefined }, [message]);
}

function onResult(session: Session, state: ChartState, input: EffectResult): FlowStep {
  if (input.kind === 'assets' && state.step === 'loading')
    return advance(session, { ...state, assets: input.assets.tokens });
  if (input.kind === 'chart' && state.step === 'drawing') return shown(session, state, input.chart);
  if (input.kind === 'effectFailed' && input.effect === 'fetchAssets' && state.step === 'loading')
    return { session, effects: [], exit: failureTexts(input.error) };
  if (input.kind === 'effectFailed' && input.effect === 'chart' && state.step === 'drawing')
    return { session, effects: [], exit: [text('charts-failed')] };
  return unhandled(session);
}

/** `/price USDT celo`: a network word and a token word, in any order. */
function fromWords(session: Session, args: string): FlowStep {
  const state: ChartState = { name: 'chart', step: 'loading', range: '24h' };
  for (const w of args.split(/\s+/).filter(Boolean)) {
    const network = parseNetwork(w);
    if (network) state.network = network;
    else if (!state.token) state.token = w.toUpperCase();
  }
  return at(session, state, [{ type: 'fetchAssets' }]);
}

function onButton(session: Session, state: ChartState | undefined, id: string, on?: string): FlowStep {
  const [, kind = '', a = '', b = '', c = '', d = ''] = id.split(':');
  if (kind === 'show') {
    const network = networkSchema.safeParse(b).data;
    const range = rangeSchema.safeParse(c).data ?? '24h';
    // A range button on a picture: the new range goes in that picture's place.
    const editing = d === 'p' && on ? on.slice(0, 64) : undefined;
    // Ids can be forged (Telegram's callback data): only a symbol-shaped token is drawn.
    if (/^[A-Za-z0-9.]{1,12}$/.test(a) && network)
      return drawing(session, {
        name: 'chart',
        step: 'drawing',
        token: a,
        network,
        range,
        ...(editing ? { editing } : {}),
      });
  }
  if (state && kind === 'tok' && state.step === 'token') return advance(session, { ...state, token: a });
  if (state && kind === 'net' && state.step === 'network') {
    const network = networkSchema.safeParse(a).data;
    if (network) return advance(session, { ...state, network });
  }
  return fromWords(session, '');
}

function handle(session: Session, state: ChartState, input: Input): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input);
  if (input.kind === 'button') return onButton(session, state, input.id, input.on);
  if (state.step === 'loading' || state.step === 'drawing')
    return at(session, state, [send([text('buy-please-wait')])]);
  if (input.kind === 'text' && (state.step === 'token' || state.step === 'network')) {
    const network = parseNetwork(input.text);
    if (state.step === 'network' && network) return advance(session, { ...state, network });
    if (state.step === 'token') return advance(session, { ...state, token: input.text.trim() });
  }
  return { session, effects: [], exit: [text('core-not-understood')] };
}

export const chartFlow: FlowDef<ChartState> = {
  name: 'chart',
  prefix: 'ch',
  commands: ['price', 'chart', 'chati'],
  startButtons: ['ch:'],
  start(session, _ctx, how) {
    if (how.button) return onButton(session, undefined, how.button, how.on);
    return fromWords(session, how.args?.trim() ?? '');
  },
  handle,
  back(session, state) {
    if (state.step === 'network') return advance(session, { ...state, token: undefined, network: undefined });
    return { session, effects: [], exit: [] };
  },
};
