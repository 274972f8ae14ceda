/**
 * Browser test parts: one headless Chromium per test file (a fresh profile), and an injected
 * EIP-1193 wallet announced through EIP-6963 whose requests are answered in Node as a dev-chain
 * account (transactions signed by viem, typed data by hardhat's eth_signTypedData_v4, reads
 * forwarded to the in-process node).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import type { Hex } from 'viem';
import type { DevAccount, DevChain } from '../../src/chains/evm/index.js';
import type { UserRef } from '../../src/chat/types.js';
import { findButton, lastText, type SellHarness } from '../sell/helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(
    `skipping the browser tests: ${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`,
  );

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh user-data-dir, offline-friendly flags. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'rampchat-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const WALLET_SCRIPT = `(() => {
  const listeners = {};
  const provider = {
    isTestWallet: true,
    async request({ method, params }) {
      const r = await window.__wallet(method, params || []);
      if (r && r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
      return r.result;
    },
    on(event, fn) { (listeners[event] = listeners[event] || []).push(fn); },
    removeListener() {},
  };
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({
      info: { uuid: '6b1b3c0e-0000-4000-8000-000000000001', name: 'Test Wallet', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', rdns: 'org.rampchat.testwallet' },
      provider,
    }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;

export interface SentTx {
  hash: Hex;
  to: Hex;
  data: Hex;
}

export interface TestWallet {
  /** Every method the page asked for, in order. */
  seen: string[];
  /** Transactions the wallet signed and broadcast. */
  sent: SentTx[];
  /** Typed-data payloads the wallet signed (parsed). */
  signed: unknown[];
  /** The chain the wallet is on now. */
  chainId(): number;
}

export interface WalletOptions {
  chain: DevChain;
  account: DevAccount;
  /** The chain the wallet starts on; another id makes the page switch (and add) the chain. */
  startChainId?: number;
  /** Runs before a transaction is signed (e.g. to hold it past the link's expiry). */
  beforeSend?: (tx: { to: Hex; data: Hex }) => Promise<void>;
  /** Like some mobile wallets: wallet_addEthereumChain adds the chain but stays on the old one. */
  addWithoutSwitch?: boolean;
  /** Methods this wallet does not implement (answered with EIP-1193's 4200). */
  unsupported?: string[];
}

/** Opens a page with the test wallet injected. */
export async function pageWithWallet(
  context: BrowserContext,
  opts: WalletOptions,
): Promise<{ page: Page; wallet: TestWallet }> {
  const { chain, account } = opts;
  let walletChain = opts.startChainId ?? chain.chainId;
  const known = new Set([walletChain]);
  const wallet: TestWallet = { seen: [], sent: [], signed: [], chainId: () => walletChain };
  const signer = chain.walletClient(account);
  const page = await context.newPage();
  await page.exposeFunction('__wallet', async (method: string, params: unknown[]) => {
    wallet.seen.push(method);
    if (opts.unsupported?.includes(method))
      return { error: { code: 4200, message: `${method} is not supported` } };
    try {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return { result: [account.address] };
        case 'eth_chainId':
          return { result: `0x${walletChain.toString(16)}` };
        case 'wallet_switchEthereumChain': {
          const id = Number.parseInt((params[0] as { chainId: string }).chainId, 16);
          if (!known.has(id)) return { error: { code: 4902, message: 'Unrecognized chain' } };
          walletChain = id;
          return { result: null };
        }
        case 'wallet_addEthereumChain': {
          const p = params[0] as { chainId: string; rpcUrls: string[] };
          if (p.rpcUrls[0] !== chain.rpcUrl)
            return { error: { code: -32602, message: `unexpected RPC ${p.rpcUrls[0]}` } };
          const id = Number.parseInt(p.chainId, 16);
          known.add(id);
          if (!opts.addWithoutSwitch) walletChain = id;
          return { result: null };
        }
        case 'eth_sendTransaction': {
          const tx = params[0] as { from: string; to: Hex; data: Hex; value?: string };
          if (tx.from.toLowerCase() !== account.address.toLowerCase())
            return { error: { code: 4100, message: `not this wallet's account: ${tx.from}` } };
          if (walletChain !== chain.chainId)
            return { error: { code: -32000, message: `wallet is on chain ${walletChain}` } };
          await opts.beforeSend?.(tx);
          const hash = await signer.sendTransaction({
            to: tx.to,
            data: tx.data,
            value: BigInt(tx.value ?? 0),
          });
          wallet.sent.push({ hash, to: tx.to, data: tx.data });
          return { result: hash };
        }
        case 'eth_signTypedData_v4': {
          const [from, json] = params as [string, string];
          if (from.toLowerCase() !== account.address.toLowerCase())
            return { error: { code: 4100, message: `not this wallet's account: ${from}` } };
          wallet.signed.push(JSON.parse(json));
          return { result: await chain.request(method, params) };
        }
        default:
          return { result: await chain.request(method, params) };
      }
    } catch (e) {
      return { error: { code: -32603, message: (e as Error).message } };
    }
  });
  await page.addInitScript(WALLET_SCRIPT);
  return { page, wallet };
}

/** Walks `/sell …` to Confirm and returns the signing link from the chat. */
export async function startSale(h: SellHarness, user: UserRef, args: string): Promise<string> {
  await h.say(user, { kind: 'command', command: 'sell', args });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  const link = lastText(h, user, 'sell-evm-sign');
  if (!link) throw new Error(`no signing link; texts: ${JSON.stringify(h.texts(user).map((t) => t.id))}`);
  return String(link.args!.url);
}

/** The page's status line. */
export const statusOf = (page: Page) =>
  page
    .locator('#status')
    .textContent()
    .then((t) => t ?? '');

/** Waits until the page's status line matches. */
export async function waitForStatus(page: Page, pattern: RegExp, timeout = 10_000): Promise<string> {
  try {
    await page.waitForFunction(
      ([source, flags]) =>
        new RegExp(source, flags).test(document.getElementById('status')?.textContent ?? ''),
      [pattern.source, pattern.flags] as const,
      { timeout },
    );
  } catch (e) {
    throw new Error(`the page status never matched ${pattern}; it says: ${await statusOf(page)}`, {
      cause: e,
    });
  }
  return statusOf(page);
}

/** Clicks the injected wallet's button on the signing page. */
export const connect = (page: Page) => page.getByRole('button', { name: /Test Wallet/ }).click();
