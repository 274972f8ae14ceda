import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryPage } from '../../src/domain/types.js';
import { initialSession } from '../../src/flows/index.js';
import {
  ALGO_WALLET,
  Driver,
  missingCoreTexts,
  onlyEffect,
  textOf,
  WALLET,
  WALLET_BAD_CHECKSUM,
} from './helpers.js';

/** The history body of the reference (§2.9), as the ramp client normalises it. */
const page = (n: number, totalPages = 3): HistoryPage => ({
  records: [
    {
      id: '686fb289c86af65ade30aaf6',
      orderId: 'D-d9m0k-T8',
      side: 'onramp',
      kesAmount: 21,
      cryptoAmount: '0.1621872103799815',
      symbol: 'USDT',
      receipt: 'TGA6EIIORA',
      createdAt: '2025-07-10T12:31:05.398Z',
    },
  ],
  page: n,
  limit: 10,
  totalPages,
  totalCount: 28,
});

const withWallets = (wallets: Record<string, string>) => {
  const s = initialSession();
  return new Driver({ ...s, profile: { wallets } });
};

describe('history', () => {
  it('with one saved wallet, fetches its purchases and pages through them', () => {
    const d = withWallets({ polygon: WALLET });
    expect(onlyEffect(d.command('history'))).toEqual({
      type: 'fetchHistory',
      side: 'onramp',
      address: WALLET,
      page: 1,
    });
    const out = d.feed({ kind: 'history', side: 'onramp', page: page(1) });
    expect(textOf(out, 'history-record-buy')?.args).toEqual({
      date: '2025-07-10 15:31 EAT',
      kes: 'KES 21.00',
      crypto: '0.162187 USDT',
      orderId: 'D-d9m0k-T8',
      receipt: 'TGA6EIIORA',
    });
    expect(textOf(out, 'history-page')?.args).toEqual({ page: 1, pages: 3 });
    expect(out.buttonIds).toEqual(expect.arrayContaining(['hist:page:2', 'hist:side:offramp']));
    expect(out.buttonIds).not.toContain('hist:page:0');
    expect(onlyEffect(d.button('hist:page:2'))).toMatchObject({ page: 2 });
    const second = d.feed({ kind: 'history', side: 'onramp', page: page(2) });
    expect(second.buttonIds).toEqual(expect.arrayContaining(['hist:page:1', 'hist:page:3']));
    expect(onlyEffect(d.button('hist:side:offramp'))).toMatchObject({ side: 'offramp', page: 1 });
  });

  it('with several wallets asks which; with none asks the network and the address', () => {
    const d = withWallets({ polygon: WALLET, algorand: ALGO_WALLET });
    expect(d.command('history').buttonIds).toEqual(
      expect.arrayContaining(['hist:w:polygon', 'hist:w:algorand']),
    );
    expect(onlyEffect(d.button('hist:w:algorand'))).toMatchObject({ address: ALGO_WALLET });

    const e = new Driver();
    expect(e.command('history').ids).toContain('history-ask-network');
    e.button('hist:net:celo');
    expect(e.text(WALLET_BAD_CHECKSUM).ids).toContain('buy-wallet-bad-checksum');
    expect(onlyEffect(e.text(WALLET.toLowerCase()))).toMatchObject({ type: 'fetchHistory', address: WALLET });
  });

  it('"no transactions" from the ramp is an empty page; other failures leave to the menu', () => {
    const d = withWallets({ polygon: WALLET });
    d.command('history');
    const out = d.feed({
      kind: 'effectFailed',
      effect: 'fetchHistory',
      error: { kind: 'not_found', message: 'No transactions found for the given user address' },
    });
    expect(out.ids).toContain('history-empty');
    d.button('hist:side:offramp');
    expect(d.feed({ kind: 'effectFailed', effect: 'fetchHistory', error: { kind: 'server' } }).ids).toContain(
      'core-error-unavailable',
    );
    expect(d.flow).toEqual({ name: 'menu' });
  });
});

afterAll(() => {
  expect(missingCoreTexts()).toEqual([]);
});
