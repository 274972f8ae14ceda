/**
 * The Algorand sell rig shared by the sell tests: the fake algod + indexer, a sell harness on it,
 * ready seller wallets, a confirmed sale and a payment into the service wallet.
 */
import algosdk from 'algosdk';
import { expect } from 'vitest';
import { DEFAULT_SERVICE_WALLET, USDC_ASSET_ID } from '../../src/chains/algorand/index.js';
import type { UserRef } from '../../src/chat/types.js';
import type { OrderJournal } from '../../src/recovery/index.js';
import type { SellIntent } from '../../src/sell/index.js';
import { type FakeAlgorand, startFakeAlgorand } from '../fakes/algorand.js';
import { findButton, lastText, type SellHarness, startSellHarness } from './helpers.js';

export interface AlgorandRig {
  fake: FakeAlgorand;
  h: SellHarness;
  /** A new address with no account on the fake. */
  newWallet(): string;
  /** A seller wallet that can pay: opted in to USDC, with ALGO for the fee. */
  readyWallet(): string;
  /** `/sell <args>`, Confirm, and the intent behind the payment request. */
  startSale(user: UserRef, args: string): Promise<SellIntent>;
  /** A transfer of the intent's total with its note, in the next round (the head moves with it). */
  pay(
    intent: SellIntent,
    sender: string,
    over?: Partial<Parameters<FakeAlgorand['addAssetTransfer']>[0]>,
  ): string;
  close(): Promise<void>;
}

export async function startAlgorandRig(
  opts: { verifyDelayMs?: number; journal?: OrderJournal } = {},
): Promise<AlgorandRig> {
  const fake = await startFakeAlgorand({ round: 1000 });
  const h = await startSellHarness({
    ...(opts.verifyDelayMs !== undefined ? { verifyDelayMs: opts.verifyDelayMs } : {}),
    ...(opts.journal ? { journal: opts.journal } : {}),
    algorand: {
      algodUrl: fake.algodUrl,
      algodToken: '',
      indexerUrl: fake.indexerUrl,
      indexerToken: '',
      serviceWallet: DEFAULT_SERVICE_WALLET,
      usdcAssetId: USDC_ASSET_ID,
      minFeeBalanceMicroAlgo: 1000n,
      confirmations: 1,
    },
  });
  const newWallet = () => algosdk.generateAccount().addr.toString();
  return {
    fake,
    h,
    newWallet,
    readyWallet() {
      const address = newWallet();
      fake.addAccount({
        address,
        microAlgos: 5_000_000n,
        assets: [{ assetId: USDC_ASSET_ID, amount: 1_000_000_000n }],
      });
      return address;
    },
    async startSale(user, args) {
      await h.say(user, { kind: 'command', command: 'sell', args });
      await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
      const qr = lastText(h, user, 'sell-algorand-qr');
      expect(qr, JSON.stringify(h.texts(user).map((t) => t.id))).toBeDefined();
      const token = String(qr!.args!.url).split('/').at(-2)!;
      return (await h.sell.service.intentByLink(token))!;
    },
    pay(intent, sender, over = {}) {
      const round = fake.round() + 1n;
      fake.setRound(round);
      return fake.addAssetTransfer({
        sender,
        receiver: DEFAULT_SERVICE_WALLET,
        assetId: USDC_ASSET_ID,
        amount: BigInt(intent.totalUnits),
        note: intent.algorand!.note,
        round,
        ...over,
      });
    },
    async close() {
      await h.close();
      await fake.close();
    },
  };
}
