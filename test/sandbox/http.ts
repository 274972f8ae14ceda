/** Real HTTP to a sandbox for the contract tests: calls, order helpers, settling. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';

export type Json = Record<string, unknown> & { data?: Json; details?: Json };
export type Generation = 'current' | 'legacy';

export const USDT_POLYGON = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
export const WALLET = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

export const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

/** One authenticated call; the answer's HTTP status and JSON body. */
export async function call(s: Sandbox, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-api-key': s.options.apiKey,
      'x-api-secret': s.options.apiSecret,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** Order and status paths of a generation (legacy under `brand`). */
export const paths = (generation: Generation, brand = 'svc') =>
  generation === 'current'
    ? {
        onramp: '/api/onramp-orders',
        onrampStatus: (id: string) => `/api/onramp-order-status/${id}`,
        offramp: '/api/offramp-orders',
        offrampStatus: (id: string) => `/api/offramp-order-status/${id}`,
      }
    : {
        onramp: `/api/${brand}-onramp`,
        onrampStatus: (id: string) => `/api/order-onramp-status/${id}`,
        offramp: `/api/${brand}-order-offramp`,
        offrampStatus: (id: string) => `/api/order-offramp-status/${id}`,
      };

/** A 100 KES on-ramp order for `phone`; its order ID. */
export async function onrampOrder(s: Sandbox, generation: Generation, phone: string): Promise<string> {
  const r = await call(s, 'POST', paths(generation).onramp, {
    partyA: phone,
    amount: '100',
    side: 'onramp',
    userAddress: WALLET,
    tokenAddress: USDT_POLYGON,
  });
  expect(r.status).toBe(200);
  return String(r.json.data?.orderID);
}

/** An off-ramp order paying `phone`; its order ID. */
export async function offrampOrder(s: Sandbox, generation: Generation, phone: string): Promise<string> {
  const r = await call(s, 'POST', paths(generation).offramp, {
    chain: 'polygon',
    hash: randomHash(),
    partyB: phone,
    tokenAddress: USDT_POLYGON,
    project: 'real-clients',
    userAddress: WALLET,
  });
  expect(r.status).toBe(200);
  return String(r.json.data?.orderID);
}

/** Reads a status path until it is no longer PENDING; the last body. */
export async function settledStatus(s: Sandbox, path: string): Promise<Json> {
  for (let i = 0; i < 200; i++) {
    const r = await call(s, 'GET', path);
    if (r.json.data?.status !== 'PENDING') return r.json;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${path} did not settle`);
}
