/**
 * The chart flow as a pure transition: what it asks, the `chart` effect it makes, the message with
 * the picture by reference and its caption, a picture's range buttons that put the range in its
 * place, a chart with nothing kept, and the Chart button under a price.
 */
import { describe, expect, it } from 'vitest';
import type { ChartView } from '../../src/flows/types.js';
import { Driver, onlyEffect, onrampQuote, textOf } from '../flows/helpers.js';

const view = (extra: Partial<ChartView> = {}): ChartView => ({
  token: 'USDT',
  network: 'celo',
  range: '24h',
  ref: 'chart:USDT:celo:24h:29000000:en',
  buy: { now: 131, changePct: 0.77 },
  sell: { now: 127, changePct: -1.2 },
  ...extra,
});

describe('the chart flow', () => {
  it('/price USDT asks the network when the token is on several, then asks for the picture', () => {
    const d = new Driver();
    expect(onlyEffect(d.command('price', 'USDT'))).toEqual({ type: 'fetchAssets' });
    const asked = d.assets();
    expect(asked.ids).toContain('charts-ask-network');
    expect(asked.buttonIds).toEqual(expect.arrayContaining(['ch:net:celo', 'ch:net:polygon']));
    expect(onlyEffect(d.button('ch:net:celo'))).toEqual({
      type: 'chart',
      request: { token: 'USDT', network: 'celo', range: '24h' },
    });
  });

  it('sends the picture by reference with the rates and their change as its caption, and the ranges', () => {
    const d = new Driver();
    d.command('chati', 'usdt celo');
    expect(onlyEffect(d.assets())).toMatchObject({ type: 'chart' });
    const out = d.feed({ kind: 'chart', chart: view() });
    const [message] = out.sends;
    expect(message!.media).toEqual({ kind: 'photo', ref: view().ref, filename: 'chart.png' });
    expect(out.ids.slice(0, 3)).toEqual(['charts-title-24h', 'charts-buy-change', 'charts-sell-change']);
    expect(textOf(out, 'charts-buy-change')!.args).toEqual({
      rate: 'KES 131.00',
      change: '+0.77 %',
      range: 'day',
    });
    expect(textOf(out, 'charts-sell-change')!.args!.change).toBe('−1.2 %');
    // A picture's own range buttons say so (`:p`): the range they draw may take its place.
    expect(out.buttonIds).toEqual([
      'ch:show:USDT:celo:24h:p',
      'ch:show:USDT:celo:7d:p',
      'ch:show:USDT:celo:30d:p',
      'menu:main',
    ]);
    expect(message!.editing).toBeUndefined();
    // The range shown is marked; a range button draws that range from any state.
    expect(message!.buttons![0]!.map((b) => b.label.id)).toEqual([
      'charts-range-on',
      'charts-range',
      'charts-range',
    ]);
    // A forged id with what cannot be a symbol draws nothing: the token is asked instead.
    expect(onlyEffect(d.button('ch:show:x y*:celo:7d'))).toEqual({ type: 'fetchAssets' });
    expect(onlyEffect(d.button('ch:show:USDT:celo:30d'))).toEqual({
      type: 'chart',
      request: { token: 'USDT', network: 'celo', range: '30d' },
    });
  });

  it("a picture's range button puts the range in that picture's place; other chart buttons send a new one", () => {
    const d = new Driver();
    d.button('ch:show:USDT:celo:24h');
    d.feed({ kind: 'chart', chart: view() });
    // Tapped on the picture (the channel says which message): the 7 days go in its place.
    expect(onlyEffect(d.feed({ kind: 'button', id: 'ch:show:USDT:celo:7d:p', on: '4711' }))).toEqual({
      type: 'chart',
      request: { token: 'USDT', network: 'celo', range: '7d' },
    });
    const week = d.feed({ kind: 'chart', chart: view({ range: '7d' }) });
    expect(week.sends[0]!.editing).toBe('4711');
    expect(week.sends[0]!.media).toMatchObject({ kind: 'photo' });
    // The Chart button under a price (no `:p`), even with its message known: a new picture.
    d.feed({ kind: 'button', id: 'ch:show:USDT:celo:24h', on: '4712' });
    expect(d.feed({ kind: 'chart', chart: view() }).sends[0]!.editing).toBeUndefined();
    // Nothing drawn (no rates kept): said in words, as a new message.
    d.feed({ kind: 'button', id: 'ch:show:USDT:celo:30d:p', on: '4711' });
    const empty = d.feed({ kind: 'chart', chart: view({ ref: undefined, buy: undefined, sell: undefined }) });
    expect(empty.sends[0]!.editing).toBeUndefined();
  });

  it('a chart with nothing kept is said in words, without a picture; a young history says since when', () => {
    const d = new Driver();
    d.button('ch:show:USDT:celo:7d');
    const empty = d.feed({ kind: 'chart', chart: view({ ref: undefined, buy: undefined, sell: undefined }) });
    expect(empty.sends[0]!.media).toBeUndefined();
    expect(empty.ids[0]).toBe('charts-empty');
    d.button('ch:show:USDT:celo:7d');
    const young = d.feed({
      kind: 'chart',
      chart: view({ range: '7d', since: Date.parse('2026-11-27T07:00:00Z') }),
    });
    expect(textOf(young, 'charts-since')!.args).toEqual({ since: '2026-11-27 10:00 EAT' });
  });

  it('the Chart button under a buy quote opens that token and network', () => {
    const d = new Driver();
    d.command('quote', 'buy 1000 KES USDT celo');
    d.assets();
    const shown = d.quote(onrampQuote(1000, 129.22, 'celo'), 'quote');
    expect(shown.buttonIds).toContain('ch:show:USDT:celo:24h');
    expect(onlyEffect(d.button('ch:show:USDT:celo:24h'))).toMatchObject({ type: 'chart' });
  });
});
