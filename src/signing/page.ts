/**
 * The signing page: plain HTML and one inline script (./page-script.ts), no bundler and no CDN on the
 * main path. Texts come from locales/<lang>/sell.ftl, rendered on the server in the intent's language;
 * the script's texts go to it in the page's JSON config, with slots for what only it knows.
 */

import type { Locale, Text } from '../chat/types.js';
import type { I18n } from '../i18n/index.js';
import { PAGE_SCRIPT } from './page-script.js';

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
