/**
 * The signing link over HTTP: the page in the user's language, bad requests answered with 400/404
 * and nothing checked, and an expired link (page 410, and the chat told by the watcher).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../../src/chains/evm/index.js';
import { WALLETCONNECT_CONNECT, WALLETCONNECT_PATH } from '../../src/signing/walletconnect.js';
import {
  findButton,
  lastText,
  newUser,
  type SellHarness,
  startSellHarness,
  waitFor,
} from '../sell/helpers.js';
import { fakeCdn } from './fake-cdn.js';

let chain: DevChain;
let h: SellHarness;

beforeAll(async () => {
  chain = await startDevChain();
  h = await startSellHarness({ devChain: chain, linkTtlMs: 1_500, pollIntervalMs: 200 });
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

async function link(args: string): Promise<string> {
  const user = newUser();
  await h.say(user, { kind: 'command', command: 'sell', args });
  await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
  return String(lastText(h, user, 'sell-evm-sign')!.args!.url);
}

describe('signing routes', () => {
  it('serves the page with its texts rendered server-side, a nonce-only script policy and no CDN', async () => {
    const url = await link('1000 KES USDT polygon 0712345678');
    const res = await fetch(url);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('Sell for M-Pesa');
    expect(html).toContain('2547••••5678');
    expect(html).not.toContain('254712345678');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'(;|$)/);
  });

  it('with WalletConnect on, scripts come only from our own pinned path and connections only from its hosts', async () => {
    const cdn = await fakeCdn({ 'appkit.js': 'export const tampered = true;' });
    const wc = await startSellHarness({
      devChain: chain,
      walletConnectProjectId: 'test-project-id',
      walletConnectCdn: cdn.url,
    });
    try {
      const user = newUser();
      await wc.say(user, { kind: 'command', command: 'sell', args: '1000 KES USDT polygon 0712345678' });
      await wc.say(user, { kind: 'button', id: findButton(wc, user, 'sell-button-confirm') });
      const url = String(lastText(wc, user, 'sell-evm-sign')!.args!.url);
      const origin = new URL(url).origin;
      const res = await fetch(url);
      const html = await res.text();
      const csp = res.headers.get('content-security-policy')!;
      const directive = (name: string) =>
        csp
          .split('; ')
          .find((d) => d.startsWith(`${name} `))!
          .split(' ')
          .slice(1);
      expect(html).toContain(`${WALLETCONNECT_PATH}appkit.js`);
      expect(html).not.toContain('cdn.jsdelivr.net');
      expect(directive('script-src')).toEqual([
        expect.stringMatching(/^'nonce-/),
        `${origin}${WALLETCONNECT_PATH}`,
      ]);
      const connect = directive('connect-src');
      expect(connect).not.toContain('https:');
      expect(connect).not.toContain('wss:');
      expect(connect).toEqual(expect.arrayContaining(["'self'", ...WALLETCONNECT_CONNECT]));
      expect(directive('frame-ancestors')).toEqual(["'none'"]);

      // The CDN's copy does not match the pinned hash: never served. Unknown files are not proxied.
      expect((await fetch(`${origin}${WALLETCONNECT_PATH}appkit.js`)).status).toBe(502);
      expect((await fetch(`${origin}${WALLETCONNECT_PATH}evil.js`)).status).toBe(404);
      expect(cdn.requests()).toEqual(['/appkit.js']);
    } finally {
      await wc.close();
      await cdn.close();
    }
  });

  it('answers bad requests without checking anything', async () => {
    const url = await link('1000 KES USDT polygon 0712345678');
    expect((await fetch(`${url}/tx?from=not-an-address`)).status).toBe(400);
    const headers = { 'content-type': 'application/json' };
    const garbage = await fetch(`${url}/hash`, { method: 'POST', headers, body: '{"nope":1}' });
    expect(garbage.status).toBe(400);
    const notJson = await fetch(`${url}/hash`, { method: 'POST', headers, body: 'x'.repeat(20_000) });
    expect(notJson.status).toBe(400);
    expect((await fetch(`${new URL(url).origin}/sign/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it('an expired link shows a clear page and the chat is told', async () => {
    const user = newUser();
    await h.say(user, { kind: 'command', command: 'sell', args: '600 KES USDT polygon 0712345678' });
    await h.say(user, { kind: 'button', id: findButton(h, user, 'sell-button-confirm') });
    const url = String(lastText(h, user, 'sell-evm-sign')!.args!.url);
    await waitFor('the expiry notice', () => lastText(h, user, 'sell-expired'), 10_000);
    const res = await fetch(url);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('expired');
    const post = await fetch(`${url}/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash: `0x${'1'.repeat(64)}` }),
    });
    expect(post.status).toBe(410);
  });
});
