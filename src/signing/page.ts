/**
 * The signing page: plain HTML and one inline script, no bundler and no CDN on the main path. Texts
 * come from locales/<lang>/sell.ftl, rendered on the server in the intent's language. The script
 * finds the wallet (EIP-6963, then window.ethereum), connects, switches or adds the chain, checks the
 * allowance and approves only when short, sends the tagged deposit (or signs a permit), waits for the
 * receipt and reports the hash. WalletConnect (Reown AppKit from a CDN) is offered only when a
 * project id is configured and no wallet is injected.
 */

import type { Locale, Text } from '../chat/types.js';
import type { I18n } from '../i18n/index.js';
import { WALLETCONNECT_PATH } from './walletconnect.js';

export interface PageIntent {
  network: string;
  networkName: string;
  token: { symbol: string; address: string; decimals: number };
  total: string;
  totalUnits: string;
  amountKes: number;
  phoneMasked: string;
  wallet?: string;
  chainId: number;
  rpcUrl: string;
  escrow: string;
  variant: 'current' | 'legacy' | 'permit';
  expiresAt: number;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const safeJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, '');

/** Texts the script shows, by short name. */
const SCRIPT_TEXTS = {
  connect: 'sell-page-connect',
  connecting: 'sell-page-connecting',
  wrongWallet: 'sell-page-wrong-wallet',
  switching: 'sell-page-switching',
  approving: 'sell-page-approving',
  permit: 'sell-page-permit',
  depositing: 'sell-page-depositing',
  waiting: 'sell-page-waiting',
  reporting: 'sell-page-reporting',
  filed: 'sell-page-filed',
  checking: 'sell-page-checking',
  refused: 'sell-page-refused',
  uncertain: 'sell-page-uncertain',
  rejected: 'sell-page-rejected',
  failed: 'sell-page-failed',
  noWallet: 'sell-page-no-wallet',
  walletConnect: 'sell-page-walletconnect',
  reverted: 'sell-page-reverted',
  reportFailed: 'sell-page-report-failed',
  alreadySent: 'sell-page-already-sent',
  wrongChain: 'sell-page-wrong-chain',
} as const;

/** Values only the script knows, left as slots it fills in. */
const SCRIPT_SLOTS = { wallet: '%wallet%', orderId: '%orderId%', error: '%error%', hash: '%hash%' };

const STYLE = `body{font-family:system-ui,sans-serif;max-width:34rem;margin:1.5rem auto;padding:0 1rem;line-height:1.45;color:#1b1b1b}
h1{font-size:1.3rem}.box{border:1px solid #ddd;border-radius:.5rem;padding:1rem;margin:1rem 0}
button{font-size:1rem;padding:.7rem 1rem;margin:.3rem 0;width:100%;border-radius:.4rem;border:1px solid #2a6;background:#2a6;color:#fff}
button:disabled{opacity:.5}#status{white-space:pre-wrap}.err{color:#b00}.ok{color:#070}code{word-break:break-all}`;

function shell(locale: Locale, title: string, body: string, nonce?: string, script?: string): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}${
    script && nonce ? `<script nonce="${nonce}">${script}</script>` : ''
  }</body></html>`;
}

/** A page that only says something (expired, already used, unknown link). */
export function messagePage(i18n: I18n, locale: Locale, titleId: string, body: Text): string {
  const title = i18n.t(locale, { id: titleId });
  return shell(locale, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(i18n.t(locale, body))}</p>`);
}

/** The Algorand page: the QR, the Pera link and the exact amount and note. */
export function algorandPage(
  i18n: I18n,
  locale: Locale,
  p: { total: string; receiver: string; note: string; peraUrl: string; uri: string; qrPath: string },
): string {
  const t = (id: string, args?: Text['args']) => escapeHtml(i18n.t(locale, { id, args }));
  const body = `<h1>${t('sell-page-title')}</h1>
<p>${t('sell-algorand-pay', { total: p.total, token: 'USDC', receiver: p.receiver })}</p>
<p>${t('sell-algorand-note', { note: p.note })}</p>
<p><img src="${escapeHtml(p.qrPath)}" alt="QR" width="256" height="256"></p>
<p><a href="${escapeHtml(p.peraUrl)}">${t('sell-button-pera')}</a></p>
<p><code>${escapeHtml(p.uri)}</code></p><p>${t('sell-algorand-auto')}</p>`;
  return shell(locale, i18n.t(locale, { id: 'sell-page-title' }), body);
}

/** The EVM signing page. */
export function evmPage(
  i18n: I18n,
  locale: Locale,
  intent: PageIntent,
  opts: { nonce: string; walletConnectProjectId?: string },
): string {
  const t = (id: string, args?: Text['args']) => escapeHtml(i18n.t(locale, { id, args }));
  const texts = Object.fromEntries(
    Object.entries(SCRIPT_TEXTS).map(([k, id]) => [k, i18n.t(locale, { id, args: SCRIPT_SLOTS })]),
  );
  const config = {
    chainId: intent.chainId,
    chainName: intent.networkName,
    rpcUrl: intent.rpcUrl,
    token: intent.token.address,
    escrow: intent.escrow,
    total: intent.totalUnits,
    wallet: intent.wallet ?? null,
    variant: intent.variant,
    walletConnectProjectId: opts.walletConnectProjectId ?? null,
    appDescription: i18n.t(locale, { id: 'sell-page-title' }),
    texts,
  };
  const body = `<h1>${t('sell-page-title')}</h1>
<div class="box"><p>${t('sell-page-summary', {
    total: intent.total,
    token: intent.token.symbol,
    network: intent.networkName,
    kes: intent.amountKes,
    phone: intent.phoneMasked,
  })}</p>${intent.wallet ? `<p>${t('sell-page-bound-wallet', { wallet: intent.wallet })}</p>` : ''}
<p>${t('sell-page-steps')}</p></div>
<div id="wallets"></div><p id="status" role="status"></p>
<script type="application/json" id="cfg">${safeJson(config)}</script>`;
  return shell(locale, i18n.t(locale, { id: 'sell-page-title' }), body, opts.nonce, PAGE_SCRIPT);
}

const WALLETCONNECT_MODULE = `${WALLETCONNECT_PATH}appkit.js`;

/** The page's script (plain ES2020, runs in any wallet browser). */
const PAGE_SCRIPT = `(() => {
'use strict';
const C = JSON.parse(document.getElementById('cfg').textContent);
const T = C.texts;
const base = location.pathname.replace(/\\/$/, '');
const statusEl = document.getElementById('status');
const walletsEl = document.getElementById('wallets');
const providers = [];
let busy = false;
let sent = false;
function say(text, cls) { statusEl.textContent = text; statusEl.className = cls || ''; }
function fill(text, slots) {
  for (const k of Object.keys(slots)) text = text.split('%' + k + '%').join(slots[k]);
  return text;
}
function hex(n) { return '0x' + BigInt(n).toString(16); }
function pad(addr) { return addr.toLowerCase().replace(/^0x/, '').padStart(64, '0'); }
async function getJson(url) {
  const r = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(body.error || String(r.status)), { body });
  return body;
}
async function postJson(url, data) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(body.error || String(r.status)), { body });
  return body;
}
async function report(hash) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postJson(base + '/hash', { hash });
    } catch (e) {
      // Retry only when the request never got an answer (fetch rejects with a TypeError).
      if (!(e instanceof TypeError) || attempt >= 3) throw e;
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
}
function render() {
  walletsEl.textContent = '';
  for (const p of providers) {
    const b = document.createElement('button');
    b.textContent = fill(T.connect, { wallet: p.info.name });
    b.dataset.uuid = p.info.uuid;
    b.addEventListener('click', () => run(p.provider));
    walletsEl.appendChild(b);
  }
  if (providers.length === 0) {
    say(T.noWallet);
    if (C.walletConnectProjectId) {
      const b = document.createElement('button');
      b.textContent = T.walletConnect;
      b.addEventListener('click', walletConnect);
      walletsEl.appendChild(b);
    }
  }
}
window.addEventListener('eip6963:announceProvider', (e) => {
  const d = e.detail;
  if (!d || !d.provider || !d.info || providers.some((p) => p.info.uuid === d.info.uuid)) return;
  providers.push(d);
  render();
});
window.dispatchEvent(new Event('eip6963:requestProvider'));
setTimeout(() => {
  if (providers.length === 0 && window.ethereum) providers.push({ info: { name: 'Wallet', uuid: 'injected' }, provider: window.ethereum });
  render();
}, 400);
async function waitReceipt(p, hash) {
  for (;;) {
    const r = await p.request({ method: 'eth_getTransactionReceipt', params: [hash] });
    if (r) return r;
    await new Promise((res) => setTimeout(res, 1500));
  }
}
async function send(p, from, call) {
  await ensureChain(p);
  const hash = await p.request({ method: 'eth_sendTransaction', params: [{ from, to: call.to, data: call.data, value: call.value }] });
  say(T.waiting);
  const receipt = await waitReceipt(p, hash);
  if (receipt.status !== '0x1' && receipt.status !== 1) throw Object.assign(new Error('reverted'), { reverted: true });
  return hash;
}
async function onChain(p) {
  return parseInt(await p.request({ method: 'eth_chainId' }), 16) === C.chainId;
}
const switchChain = (p) => p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex(C.chainId) }] });
/** Puts the wallet on the sale's chain (adding it when unknown), or throws; checked before every send. */
async function ensureChain(p) {
  if (await onChain(p)) return;
  say(T.switching);
  try {
    await switchChain(p);
  } catch (e) {
    const code = e && (e.code || (e.data && e.data.originalError && e.data.originalError.code));
    if (code !== 4902) throw e;
    await p.request({ method: 'wallet_addEthereumChain', params: [{ chainId: hex(C.chainId), chainName: C.chainName,
      nativeCurrency: { name: 'Native', symbol: 'ETH', decimals: 18 }, rpcUrls: [C.rpcUrl] }] });
    // Some wallets add the chain without switching to it.
    if (!(await onChain(p))) await switchChain(p);
  }
  if (!(await onChain(p))) throw Object.assign(new Error('wrong chain'), { wrongChain: true });
}
/** The withdrawWithPermit call, or null when the token or the wallet cannot do a permit. */
async function permitWithdraw(p, from) {
  const pd = await getJson(base + '/permit?owner=' + from);
  if (!pd.permit) return null;
  say(T.permit);
  let signature;
  try {
    signature = await p.request({ method: 'eth_signTypedData_v4', params: [from, JSON.stringify(pd.typedData)] });
  } catch (e) {
    // A wallet without typed-data signing (4200 unsupported, -32601 unknown method) approves instead.
    if (e && (e.code === 4200 || e.code === -32601)) return null;
    throw e;
  }
  return (await postJson(base + '/permit', { owner: from, signature, deadline: pd.deadline })).withdraw;
}
async function run(p) {
  if (busy || sent) return;
  busy = true;
  for (const b of walletsEl.querySelectorAll('button')) b.disabled = true;
  try {
    say(T.connecting);
    const accounts = await p.request({ method: 'eth_requestAccounts' });
    const from = accounts && accounts[0];
    if (!from) throw new Error('no account');
    if (C.wallet && from.toLowerCase() !== C.wallet.toLowerCase()) { say(fill(T.wrongWallet, { wallet: C.wallet }), 'err'); return; }
    await ensureChain(p);
    let withdraw = C.variant === 'permit' ? await permitWithdraw(p, from) : null;
    if (!withdraw) {
      const calls = await getJson(base + '/tx?from=' + from);
      const allowance = await p.request({ method: 'eth_call', params: [{ to: C.token, data: '0xdd62ed3e' + pad(from) + pad(C.escrow) }, 'latest'] });
      if (BigInt(allowance === '0x' ? 0 : allowance) < BigInt(C.total)) {
        say(T.approving);
        await send(p, from, calls.approve);
      }
      withdraw = calls.withdraw;
    }
    say(T.depositing);
    const hash = await send(p, from, withdraw);
    // One deposit per sale: this page never offers to send again.
    sent = true;
    walletsEl.textContent = '';
    say(T.reporting);
    let result;
    try {
      result = await report(hash);
    } catch (e) {
      // The tokens are on their way: never leave the seller without the hash to paste in the chat.
      say(fill(T.reportFailed, { hash }), 'err');
      return;
    }
    const text = T[result.status] || T.checking;
    say(fill(text, { orderId: result.orderId || '', hash }), result.status === 'refused' ? 'err' : 'ok');
  } catch (e) {
    if (e && e.body && e.body.error === 'already_sent') say(fill(T.alreadySent, { hash: e.body.hash }), 'ok');
    else if (e && e.wrongChain) say(T.wrongChain, 'err');
    else if (e && e.code === 4001) say(T.rejected, 'err');
    else if (e && e.reverted) say(T.reverted, 'err');
    else say(fill(T.failed, { error: (e && e.message) || String(e) }), 'err');
  } finally {
    busy = false;
    for (const b of walletsEl.querySelectorAll('button')) b.disabled = false;
  }
}
async function walletConnect() {
  // Loaded in the user's browser only when configured; not covered by the offline tests.
  const m = await import('${WALLETCONNECT_MODULE}');
  const network = { id: C.chainId, name: C.chainName, nativeCurrency: { name: 'Native', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [C.rpcUrl] } } };
  const adapter = new m.WagmiAdapter({ networks: [network], projectId: C.walletConnectProjectId });
  const modal = m.createAppKit({ adapters: [adapter], networks: [network], projectId: C.walletConnectProjectId,
    metadata: { name: 'rampchat', description: C.appDescription, url: location.origin, icons: [] } });
  modal.subscribeProviders((state) => { const p = state && state.eip155; if (p) run(p); });
  modal.open();
}
})();`;
