/**
 * The signing page's script (plain ES2020, runs in any wallet browser). It finds the wallet
 * (EIP-6963, then window.ethereum), connects, switches or adds the chain, checks the allowance and
 * approves only when short, sends the tagged deposit (or signs a permit), waits for the receipt and
 * reports the hash. WalletConnect (Reown AppKit from a CDN) is offered only when a project id is
 * configured and no wallet is injected.
 */
import { WALLETCONNECT_PATH } from './walletconnect.js';

const WALLETCONNECT_MODULE = `${WALLETCONNECT_PATH}appkit.js`;

/** The page's script, inlined under the page's nonce. */
export const PAGE_SCRIPT = `(() => {
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
  // A wallet announced (or the injected fallback found) after the deposit went out offers nothing.
  if (sent) return;
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
