/**
 * The signing page in a real browser: headless Chromium opens the link from the chat with an
 * injected EIP-1193 wallet (announced through EIP-6963) whose requests are answered in Node as the
 * seller's account on the in-process hardhat chain. The page switches (adds) the chain, approves,
 * deposits and reports the hash; the bot verifies it, files the order in the sandbox and posts the
 * M-Pesa receipt in the chat.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import {
  findButton,
  lastText,
  newUser,
  type SellHarness,
  startSellHarness,
  waitFor,
} from '../sell/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`skipping the browser sell test: ${CHROMIUM} is missing`);

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

describe.skipIf(!hasChromium)('selling through the signing page in Chromium', () => {
  let chain: DevChain;
  let h: SellHarness;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    chain = await startDevChain();
    h = await startSellHarness({ devChain: chain, confirmations: 1 });
    profile = await mkdtemp(join(tmpdir(), 'rampchat-e2e-'));
    context = await chromium.launchPersistentContext(profile, {
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
  });
  afterAll(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
    await h?.close();
    await chain?.close();
  });

  it('connects, adds the chain, approves, deposits, and the chat gets the order and the receipt', async () => {
    const user = newUser();
    const seller = chain.devAccount;
    await h.say(user, {
      kind: 'command',
      command: 'sell',
      args: `1000 KES USDT polygon ${seller.address} 0712345678`,
    });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);

    // The wallet starts on another chain; switching fails with 4902 until the page adds the chain.
    let walletChain = 1;
    const seen: string[] = [];
    const sent: Hex[] = [];
    const wallet = chain.walletClient(seller);
    const page = await context.newPage();
    await page.exposeFunction('__wallet', async (method: string, params: unknown[]) => {
      seen.push(method);
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return { result: [seller.address] };
        case 'eth_chainId':
          return { result: `0x${walletChain.toString(16)}` };
        case 'wallet_switchEthereumChain': {
          const id = Number.parseInt((params[0] as { chainId: string }).chainId, 16);
          if (id !== chain.chainId || walletChain === 1)
            return { error: { code: 4902, message: 'Unrecognized chain' } };
          walletChain = id;
          return { result: null };
        }
        case 'wallet_addEthereumChain': {
          const p = params[0] as { chainId: string; rpcUrls: string[] };
          expect(p.rpcUrls[0]).toBe(chain.rpcUrl);
          walletChain = Number.parseInt(p.chainId, 16);
          return { result: null };
        }
        case 'eth_sendTransaction': {
          const tx = params[0] as { from: string; to: Hex; data: Hex; value?: string };
          expect(tx.from.toLowerCase()).toBe(seller.address.toLowerCase());
          const hash = await wallet.sendTransaction({
            to: tx.to,
            data: tx.data,
            value: BigInt(tx.value ?? 0),
          });
          sent.push(hash);
          return { result: hash };
        }
        default:
          return { result: await chain.request(method, params) };
      }
    });
    await page.addInitScript(WALLET_SCRIPT);
    await page.goto(url);
    await page.getByRole('button', { name: /Test Wallet/ }).click();
    await page.waitForFunction(() => /WD-/.test(document.getElementById('status')?.textContent ?? ''), null, {
      timeout: 20_000,
    });

    expect(seen).toEqual(
      expect.arrayContaining(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'eth_call']),
    );
    expect(sent).toHaveLength(2);
    const filed = await waitFor('the filed message', () => lastText(h, user, 'sell-filed'));
    const orderId = String(filed.args!.orderId);
    expect(h.sandbox.order(orderId)).toMatchObject({ phone: '254712345678', hash: sent[1] });
    await waitFor('the payout receipt', () =>
      h.texts(user).find((t) => t.id === 'tracker-offramp-done' || t.id === 'tracker-offramp-done-noname'),
    );
    // The link is single-use.
    const again = await page.goto(url);
    expect(again?.status()).toBe(410);
  });
});
