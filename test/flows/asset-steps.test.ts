/** The token and network steps every order form shares (src/flows/form/asset-steps.ts). */
import { describe, expect, it } from 'vitest';
import type { Text } from '../../src/chat/types.js';
import {
  type AssetChoice,
  type AssetStepIds,
  askNetwork,
  askToken,
  checkWallet,
  settleAsset,
  tappedNetwork,
  tappedToken,
} from '../../src/flows/form/asset-steps.js';
import { text } from '../../src/flows/index.js';
import { ASSETS, WALLET, WALLET_BAD_CHECKSUM, WALLET_LOWER } from './helpers.js';

const IDS: AssetStepIds = {
  prefix: 'x',
  tokenBack: false,
  askToken: 'x-ask-token',
  askNetwork: 'x-ask-network',
  tokenUnknown: 'x-token-unknown',
  networkUnknown: 'x-network-unknown',
  notOnNetwork: 'x-not-on-network',
};
const assets = ASSETS.tokens;
const celoOnly = assets.filter((t) => t.network === 'celo' && t.symbol === 'cKES');

describe('settleAsset', () => {
  it('drops an unlisted token, quietly or saying so', () => {
    const notes: Text[] = [];
    expect(settleAsset({ assets, token: 'DOGE' }, IDS, notes).token).toBeUndefined();
    expect(notes).toEqual([]);
    settleAsset({ assets, token: 'DOGE' }, { ...IDS, warnUnlistedToken: true }, notes);
    expect(notes).toEqual([text('x-token-unknown', { token: 'DOGE' })]);
  });

  it('drops a network that does not carry the token, naming both, and does not put another in its place', () => {
    const notes: Text[] = [];
    const settled = settleAsset({ assets, token: 'cKES', network: 'polygon' as const }, IDS, notes);
    // cKES is only on Celo, but the user named Polygon: the network is asked, not substituted.
    expect(settled.network).toBeUndefined();
    expect(settleAsset({ ...settled }, IDS, []).network).toBe('celo');
    expect(notes).toEqual([text('x-not-on-network', { token: 'cKES', network: 'Polygon' })]);
  });

  it('fills the only token and the only network, unless told not to', () => {
    expect(settleAsset({ assets: celoOnly }, IDS, [])).toMatchObject({ token: 'cKES', network: 'celo' });
    expect(settleAsset<AssetChoice>({ assets, token: 'USDT' }, IDS, []).network).toBeUndefined();
    const manual = settleAsset<AssetChoice>({ assets: celoOnly }, IDS, [], false);
    expect(manual.token).toBeUndefined();
    expect(manual.network).toBeUndefined();
  });

  it('leaves the state it was given unchanged', () => {
    const input = { assets, token: 'DOGE', network: 'polygon' as const };
    settleAsset(input, IDS, []);
    expect(input).toEqual({ assets, token: 'DOGE', network: 'polygon' });
  });
});

describe('checkWallet', () => {
  const problem = (p: string, network: string, address: string) =>
    text('x-wallet', { problem: p, network, address });

  it('puts a wallet in canonical form once the network is known', () => {
    expect(checkWallet({ network: 'polygon' as const, wallet: WALLET_LOWER }, [], problem).wallet).toBe(
      WALLET,
    );
    expect(checkWallet({ wallet: WALLET_LOWER }, [], problem).wallet).toBe(WALLET_LOWER);
  });

  it('drops a wallet with a wrong checksum or format, with the flow note', () => {
    const notes: Text[] = [];
    expect(
      checkWallet({ network: 'base' as const, wallet: WALLET_BAD_CHECKSUM }, notes, problem).wallet,
    ).toBeUndefined();
    expect(checkWallet({ network: 'base' as const, wallet: 'hello' }, notes, problem).wallet).toBeUndefined();
    expect(notes).toEqual([
      text('x-wallet', { problem: 'checksum', network: 'base', address: WALLET_BAD_CHECKSUM }),
      text('x-wallet', { problem: 'format', network: 'base', address: 'hello' }),
    ]);
  });
});

describe('the token and network questions', () => {
  it('offer a button per listed symbol, and per network listing the token', () => {
    const token = askToken(IDS, assets, [text('x-note')]);
    if (token.type !== 'send') throw new Error('expected a message');
    expect(token.message.texts.map((t) => t.id)).toEqual(['x-note', 'x-ask-token']);
    const ids = token.message.buttons!.flat().map((b) => b.id);
    expect(ids).toEqual([
      'x:tok:USDT',
      'x:tok:ETH',
      'x:tok:cKES',
      'x:tok:USDC',
      'x:tok:CELO',
      'x:tok:MATIC',
      'nav:cancel',
    ]);

    const network = askNetwork(IDS, assets, 'USDC', []);
    if (network.type !== 'send') throw new Error('expected a message');
    expect(network.message.texts).toEqual([text('x-ask-network', { token: 'USDC' })]);
    expect(network.message.buttons!.flat().map((b) => b.id)).toEqual([
      'x:net:celo',
      'x:net:base',
      'x:net:polygon',
      'nav:back',
      'nav:cancel',
    ]);
  });

  it('read taps of listed tokens and known networks only', () => {
    expect(tappedToken({ assets }, 'USDC')).toBe('USDC');
    expect(tappedToken({ assets }, 'usdc')).toBeUndefined();
    expect(tappedNetwork('celo')).toBe('celo');
    expect(tappedNetwork('mars')).toBeUndefined();
  });
});
