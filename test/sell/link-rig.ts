/**
 * Driving a sale from outside, as its seller and as whoever holds its signing link: confirm a
 * one-line sale, sign its deposit on the dev chain, post hashes to its page. Over a harness
 * (./helpers.ts) and its dev chain.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll } from 'vitest';
import {
  type DevAccount,
  type DevChain,
  type DevChainOptions,
  startDevChain,
} from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { findButton, type HarnessOptions, lastText, type SellHarness, startSellHarness } from './helpers.js';

export const randomHash = () =>
  `0x${Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}`;

/** What `GET <link>/tx` serves: the approval and the tagged deposit. */
export interface ServedCalls {
  token: string;
  allowance: string;
  total: string;
  approve: { to: Hex; data: Hex };
  withdraw: { to: Hex; data: Hex };
  error?: string;
}

export interface LinkRig {
  /** A fresh funded account (USDT) to sell from. */
  seller(): Promise<DevAccount>;
  /** `/sell <args>` and Confirm: the signing link. */
  confirmSale(user: UserRef, args: string): Promise<string>;
  /** `GET <link>/tx?from=`: the calls the page would have the wallet send. */
  served(url: string, from: Hex): Promise<{ status: number; body: ServedCalls }>;
  /** Signs the served deposit as `account`; mines `extraBlocks` on top. */
  sign(url: string, account: DevAccount, extraBlocks?: number): Promise<Hex>;
  post(
    url: string,
    body: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  report(
    url: string,
    hash: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

export function linkRig(h: SellHarness, chain: DevChain, firstAccount = 3): LinkRig {
  let accountSeq = firstAccount;
  const post: LinkRig['post'] = async (url, body, headers = {}) => {
    const res = await fetch(`${url}/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const served: LinkRig['served'] = async (url, from) => {
    const res = await fetch(`${url}/tx?from=${from}`);
    return { status: res.status, body: (await res.json()) as ServedCalls };
  };
  return {
    async seller() {
      const account = chain.accounts[accountSeq++]!;
      await chain.mintTokens(chain.tokens.usdt, account.address, 1_000_000_000n);
      return account;
    },
    async confirmSale(user, args) {
      await h.say(user, { kind: 'command', command: 'sell', args });
      await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
      return String(lastText(h, user, 'sell-evm-sign')!.args!.url);
    },
    served,
    async sign(url, account, extraBlocks = 1) {
      const { body } = await served(url, account.address);
      const wallet = chain.walletClient(account);
      if (BigInt(body.allowance) < BigInt(body.total))
        await wallet.sendTransaction({ to: body.approve.to, data: body.approve.data, value: 0n });
      const hash = await wallet.sendTransaction({
        to: body.withdraw.to,
        data: body.withdraw.data,
        value: 0n,
      });
      await chain.publicClient.waitForTransactionReceipt({ hash });
      if (extraBlocks > 0) await chain.mine(extraBlocks);
      return hash;
    },
    post,
    report: (url, hash, headers) => post(url, JSON.stringify({ hash }), headers),
  };
}

/** A test file's dev chain, harness and link rig: started before its tests, closed after them. */
export function sellRig(opts: HarnessOptions = {}, chainOpts?: DevChainOptions) {
  const s = {} as { chain: DevChain; h: SellHarness; rig: LinkRig };
  beforeAll(async () => {
    s.chain = await startDevChain(chainOpts);
    s.h = await startSellHarness({ devChain: s.chain, ...opts });
    s.rig = linkRig(s.h, s.chain);
  });
  afterAll(async () => {
    await s.h?.close();
    await s.chain?.close();
  });
  return s;
}
