/**
 * HTTP routes of the signing link, all under `/sign/<token>` (token: 192 random bits, base64url):
 * - `GET  /sign/<token>`            the page (EVM) or the payment request (Algorand)
 * - `GET  /sign/<token>/tx?from=`   the approval and the tagged deposit call, as JSON
 * - `GET  /sign/<token>/permit?owner=` / `POST /sign/<token>/permit`  permit data, then the call;
 *   `{ permit: false }` when the token has no EIP-2612 permit (then `/tx` serves the legacy deposit)
 * - `POST /sign/<token>/hash`       `{ hash }`: the page reports the deposit; verified before filing
 * - `GET  /sign/<token>/qr.png`     the Algorand payment QR
 * The link dies once a hash for it is accepted, when the intent is cancelled, or when it expires;
 * after expiry (only) `POST …/hash` still takes a transaction that went into the escrow, so a deposit
 * confirmed as the link expired is not lost.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
  zeroAddress,
} from 'viem';
import { base, celo, lisk, polygon, scroll } from 'viem/chains';
import { z } from 'zod';
import { buildPaymentRequest, paymentQr } from '../chains/algorand/index.js';
import { NETWORK_INFO } from '../domain/networks.js';
import { maskPhone } from '../domain/phone.js';
import type { HttpRoute } from '../http/index.js';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { SellIntent } from '../sell/intents.js';
import type { SellService } from '../sell/service.js';
import { algorandPage, evmPage, messagePage } from './page.js';
import { WALLETCONNECT_CONNECT, WALLETCONNECT_PATH } from './walletconnect.js';

export interface SigningRoutesOptions {
  service: SellService;
  i18n: I18n;
  logger: Logger;
  walletConnectProjectId?: string;
}

const PUBLIC_RPC: Record<number, string> = Object.fromEntries(
  [polygon, celo, lisk, base, scroll].map((c) => [c.id, c.rpcUrls.default.http[0]!]),
);

const MAX_BODY = 16 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v)));
};

const html = (res: ServerResponse, status: number, page: string, csp: string) => {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  res.end(page);
};

const hashBody = z.object({ hash: z.string().trim().min(1).max(100) });
const permitBody = z.object({
  owner: z.string().refine((a) => isAddress(a, { strict: false })),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
  deadline: z.string().regex(/^\d{1,12}$/),
});
/** True when a read failed because the token has no EIP-2612 `nonces` (not because the RPC failed). */
const lacksPermit = (err: unknown) =>
  err instanceof BaseError &&
  err.walk(
    (e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
  ) !== null;

const address = z.string().refine((a) => isAddress(a, { strict: false }), 'an address');

/** The `/sign` prefix route. */
export function signingRoutes(opts: SigningRoutesOptions): HttpRoute[] {
  const { service, i18n } = opts;
  const log = opts.logger.child({ component: 'signing' });

  const deadPage = (res: ServerResponse, intent: SellIntent | undefined) => {
    const locale = intent?.locale ?? 'en';
    const csp = "default-src 'none'; style-src 'unsafe-inline'";
    if (!intent)
      return html(res, 404, messagePage(i18n, locale, 'sell-page-title', { id: 'sell-page-unknown' }), csp);
    const id =
      intent.status === 'filed' || intent.status === 'filing'
        ? 'sell-page-used'
        : intent.status === 'cancelled'
          ? 'sell-page-cancelled'
          : 'sell-page-expired';
    return html(
      res,
      410,
      messagePage(i18n, locale, 'sell-page-title', { id, args: { orderId: intent.orderId ?? '' } }),
      csp,
    );
  };

  const page = (res: ServerResponse, intent: SellIntent, path: string) => {
    if (intent.algorand) {
      const request = buildPaymentRequest({
        receiver: intent.algorand.receiver,
        assetId: BigInt(intent.algorand.assetId),
        amountBaseUnits: BigInt(intent.totalUnits),
        note: intent.algorand.note,
      });
      const body = algorandPage(i18n, intent.locale, {
        total: intent.total,
        receiver: intent.algorand.receiver,
        note: intent.algorand.note,
        peraUrl: request.peraUrl,
        uri: request.uri,
        qrPath: `${path}/qr.png`,
      });
      return html(res, 200, body, "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'");
    }
    const evm = intent.evm!;
    const runtime = service.evmRuntime(intent.network);
    const nonce = randomBytes(16).toString('base64');
    const wc = opts.walletConnectProjectId;
    const rpcUrl = evm.local
      ? (runtime?.config.rpcUrl ?? '')
      : (PUBLIC_RPC[evm.chainId] ?? runtime?.config.rpcUrl ?? '');
    const body = evmPage(
      i18n,
      intent.locale,
      {
        network: intent.network,
        networkName: evm.local
          ? `${NETWORK_INFO[intent.network].displayName} (dev)`
          : NETWORK_INFO[intent.network].displayName,
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
    const rpcOrigin = wc ? originOf(rpcUrl) : undefined;
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'${wc ? ` ${originOf(service.linkOf(intent).signUrl) ?? ''}${WALLETCONNECT_PATH}` : ''}`,
      "style-src 'unsafe-inline'",
      `img-src 'self' data:${wc ? ' https://api.web3modal.org' : ''}`,
      `connect-src 'self'${wc ? ` ${[...WALLETCONNECT_CONNECT, ...(rpcOrigin ? [rpcOrigin] : [])].join(' ')}` : ''}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    return html(res, 200, body, csp);
  };

  /**
   * True when a report names a transaction into this sale's escrow and the sale is not filed yet (open,
   * expired or cancelled): a deposit confirmed in the wallet as the link expired or the sale was
   * cancelled is still checked (the service applies the order's window and grace, and files a payment
   * after a cancel saying so), while guesses and used sales are turned away.
   */
  const sentToEscrow = async (intent: SellIntent, hash: string): Promise<boolean> => {
    const client = service.evmRuntime(intent.network)?.client;
    const unfiled = intent.status === 'open' || intent.status === 'expired' || intent.status === 'cancelled';
    if (!intent.evm || !client || !unfiled || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return false;
    const tx = await client.getTransaction({ hash: hash as Hex }).catch(() => undefined);
    return !!tx?.to && isAddressEqual(tx.to, intent.evm.escrow as Address);
  };

  /** A reported hash, still being checked, that did go into the escrow: the sale needs no second deposit. */
  const reportedDeposit = async (intent: SellIntent): Promise<string | undefined> => {
    for (const { hash } of intent.pending) if (await sentToEscrow(intent, hash)) return hash;
    return undefined;
  };

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const [, , token = '', action = '', ...rest] = url.pathname.split('/');
    const method = (req.method ?? 'GET').toUpperCase();
    if (rest.length > 0) return json(res, 404, { error: 'not found' });
    const intent = await service.intentByLink(token);
    const alive = intent !== undefined && service.linkAlive(intent);

    if (action === '' && method === 'GET') {
      if (!intent || !alive) return deadPage(res, intent);
      return page(res, intent, `/sign/${token}`);
    }
    if (!intent) return json(res, 404, { error: 'unknown link' });
    if (!alive && !(action === 'hash' && method === 'POST'))
      return json(res, 410, { error: 'link expired or used', status: intent.status });

    if (action === 'qr.png' && method === 'GET' && intent.algorand) {
      const qr = await paymentQr(service.linkOf(intent).algorand!.uri);
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      return res.end(qr.png);
    }
    if (action === 'tx' && method === 'GET' && intent.evm) {
      const from = address.safeParse(url.searchParams.get('from') ?? '');
      if (!from.success) return json(res, 400, { error: 'from must be a wallet address' });
      const sender = getAddress(from.data) as Address;
      if (intent.wallet && intent.wallet.toLowerCase() !== sender.toLowerCase()) {
        return json(res, 409, { error: 'wrong_wallet', wallet: intent.wallet });
      }
      const reported = await reportedDeposit(intent);
      if (reported) return json(res, 409, { error: 'already_sent', hash: reported });
      const { approve, allowance, withdraw } = await service.evmCalls(intent, sender);
      return json(res, 200, {
        chainId: intent.evm.chainId,
        token: intent.token.address,
        escrow: intent.evm.escrow,
        total: intent.totalUnits,
        allowance,
        approve,
        withdraw,
      });
    }
    if (action === 'permit' && intent.evm?.escrowCall === 'permit') {
      if (method === 'GET') {
        const owner = address.safeParse(url.searchParams.get('owner') ?? '');
        if (!owner.success) return json(res, 400, { error: 'owner must be a wallet address' });
        if (intent.wallet && intent.wallet.toLowerCase() !== owner.data.toLowerCase()) {
          return json(res, 409, { error: 'wrong_wallet', wallet: intent.wallet });
        }
        const reported = await reportedDeposit(intent);
        if (reported) return json(res, 409, { error: 'already_sent', hash: reported });
        if (isAddressEqual(intent.token.address as Address, zeroAddress))
          return json(res, 200, { permit: false });
        try {
          return json(res, 200, {
            permit: true,
            ...(await service.permitData(intent, getAddress(owner.data))),
          });
        } catch (err) {
          if (!lacksPermit(err)) throw err;
          log.info(
            { intentId: intent.id, token: intent.token.symbol },
            'token has no EIP-2612 permit; approving',
          );
          return json(res, 200, { permit: false });
        }
      }
      if (method === 'POST') {
        const body = permitBody.safeParse(await readJson(req));
        if (!body.success) return json(res, 400, { error: 'owner, signature and deadline are required' });
        let call: ReturnType<typeof service.permitCall>;
        try {
          call = service.permitCall(intent, {
            signature: body.data.signature as `0x${string}`,
            deadline: BigInt(body.data.deadline),
          });
        } catch (err) {
          // A well-formed but unusable signature is the client's mistake, not a server fault.
          const reason = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : 'bad permit';
          log.warn({ intentId: intent.id, reason }, 'permit signature refused');
          return json(res, 400, { error: `invalid permit signature: ${reason}` });
        }
        return json(res, 200, { withdraw: call });
      }
    }
    if (action === 'hash' && method === 'POST') {
      const body = hashBody.safeParse(await readJson(req));
      if (!body.success) return json(res, 400, { error: 'a JSON body { "hash": "0x…" } is required' });
      if (!alive && !(await sentToEscrow(intent, body.data.hash)))
        return json(res, 410, { error: 'link expired or used', status: intent.status });
      const update = await service.reportHash(intent.id, body.data.hash, { push: true, source: 'page' });
      log.info({ intentId: intent.id, status: update.status }, 'hash reported by the signing page');
      return json(res, 200, update);
    }
    return json(res, 404, { error: 'not found' });
  };

  return [
    {
      method: '*',
      path: '/sign',
      prefix: true,
      handler: async (req, res) => {
        await handler(req, res);
      },
    },
  ];
}

/** `https://host[:port]` of a URL, or undefined when it is not an http(s) URL. */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
