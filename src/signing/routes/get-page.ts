/**
 * `GET /sign/<token>`: the signing page of a live link (EVM: the wallet page under a nonce-only script
 * policy; Algorand: the payment request), or a page saying why the link cannot be used.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { base, celo, lisk, polygon, scroll } from 'viem/chains';
import { buildPaymentRequest } from '../../chains/algorand/index.js';
import type { Locale } from '../../chat/types.js';
import { NETWORK_INFO } from '../../domain/networks.js';
import { maskPhone } from '../../domain/phone.js';
import type { SigningContext } from '../context.js';
import { html, originOf } from '../http-io.js';
import { algorandPage, evmPage, messagePage } from '../page.js';
import type { SigningIntent } from '../ports.js';
import { WALLETCONNECT_CONNECT, WALLETCONNECT_PATH } from '../walletconnect.js';

const PUBLIC_RPC: Record<number, string> = Object.fromEntries(
  [polygon, celo, lisk, base, scroll].map((c) => [c.id, c.rpcUrls.default.http[0]!]),
);

const STATIC_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** The page of the link at `path`, or why it is dead (unknown 404; used, cancelled or expired 410). */
export function getPage(
  ctx: SigningContext,
  res: ServerResponse,
  intent: SigningIntent | undefined,
  alive: boolean,
  path: string,
  browserLocale: Locale = 'en',
): void {
  const answer =
    !intent || !alive
      ? deadPage(ctx, intent, browserLocale)
      : intent.algorand
        ? algorandAnswer(ctx, intent, path)
        : evmAnswer(ctx, intent);
  html(res, answer.status, answer.body, answer.csp);
}

/** An HTML page with its status and content security policy. */
interface PageAnswer {
  status: number;
  body: string;
  csp: string;
}

/** The browser's language when it is one of ours (a link whose sale is unknown has no other). */
export function localeOf(req: IncomingMessage): Locale {
  const first = String(req.headers['accept-language'] ?? '')
    .split(',')[0]
    ?.trim()
    .slice(0, 2)
    .toLowerCase();
  return first === 'sw' ? 'sw' : 'en';
}

/** The page while the link's sale cannot be read (Redis away): 503, and what to do meanwhile. */
export function unavailablePage(ctx: SigningContext, res: ServerResponse, req: IncomingMessage): void {
  const body = messagePage(ctx.i18n, localeOf(req), 'sell-page-title', { id: 'sell-page-unavailable' });
  html(res, 503, body, STATIC_CSP);
}

/**
 * The page of a link whose sale recovery has not put back yet (Redis came back empty): 503, and the
 * page loads itself again every few seconds until the sale is back (or known to be gone).
 */
export function restoringPage(ctx: SigningContext, res: ServerResponse, req: IncomingMessage): void {
  const body = messagePage(ctx.i18n, localeOf(req), 'sell-page-title', { id: 'sell-page-restoring' });
  res.setHeader('refresh', '3');
  res.setHeader('retry-after', '3');
  html(res, 503, body, STATIC_CSP);
}

function deadPage(ctx: SigningContext, intent: SigningIntent | undefined, browserLocale: Locale): PageAnswer {
  const locale = intent?.locale ?? browserLocale;
  if (!intent) {
    const body = messagePage(ctx.i18n, locale, 'sell-page-title', { id: 'sell-page-unknown' });
    return { status: 404, body, csp: STATIC_CSP };
  }
  const id =
    intent.status === 'filed' || intent.status === 'filing'
      ? 'sell-page-used'
      : intent.status === 'cancelled'
        ? 'sell-page-cancelled'
        : 'sell-page-expired';
  const body = messagePage(ctx.i18n, locale, 'sell-page-title', {
    id,
    args: { orderId: intent.orderId ?? '' },
  });
  return { status: 410, body, csp: STATIC_CSP };
}

function algorandAnswer(ctx: SigningContext, intent: SigningIntent, path: string): PageAnswer {
  const algorand = intent.algorand!;
  const request = buildPaymentRequest({
    receiver: algorand.receiver,
    assetId: BigInt(algorand.assetId),
    amountBaseUnits: BigInt(intent.totalUnits),
    note: algorand.note,
  });
  const body = algorandPage(ctx.i18n, intent.locale, {
    total: intent.total,
    receiver: algorand.receiver,
    note: algorand.note,
    peraUrl: request.peraUrl,
    uri: request.uri,
    qrPath: `${path}/qr.png`,
  });
  return { status: 200, body, csp: `${STATIC_CSP}; img-src 'self'` };
}

function evmAnswer(ctx: SigningContext, intent: SigningIntent): PageAnswer {
  const evm = intent.evm!;
  const runtime = ctx.service.evmRuntime(intent.network);
  const nonce = randomBytes(16).toString('base64');
  const wc = ctx.walletConnectProjectId;
  const rpcUrl = evm.local
    ? (runtime?.config.rpcUrl ?? '')
    : (PUBLIC_RPC[evm.chainId] ?? runtime?.config.rpcUrl ?? '');
  const displayName = NETWORK_INFO[intent.network].displayName;
  const body = evmPage(
    ctx.i18n,
    intent.locale,
    {
      network: intent.network,
      networkName: evm.local ? `${displayName} (dev)` : displayName,
      token: intent.token,
      total: intent.total,
      totalUnits: intent.totalUnits,
      amountKes: intent.amountKes,
      phoneMasked: maskPhone(intent.phone),
      wallet: intent.wallet,
      chainId: evm.chainId,
      rpcUrl,
      escrow: evm.escrow,
      variant: evm.escrowCall,
      expiresAt: intent.expiresAt,
    },
    { nonce, walletConnectProjectId: wc },
  );
  return { status: 200, body, csp: evmPageCsp(ctx, intent, nonce, rpcUrl) };
}

/** Scripts by nonce only; with WalletConnect, also its module from our path and its hosts. */
function evmPageCsp(ctx: SigningContext, intent: SigningIntent, nonce: string, rpcUrl: string): string {
  const wc = ctx.walletConnectProjectId;
  const rpcOrigin = wc ? originOf(rpcUrl) : undefined;
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${wc ? ` ${originOf(ctx.service.linkOf(intent).signUrl) ?? ''}${WALLETCONNECT_PATH}` : ''}`,
    "style-src 'unsafe-inline'",
    `img-src 'self' data:${wc ? ' https://api.web3modal.org' : ''}`,
    `connect-src 'self'${wc ? ` ${[...WALLETCONNECT_CONNECT, ...(rpcOrigin ? [rpcOrigin] : [])].join(' ')}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
