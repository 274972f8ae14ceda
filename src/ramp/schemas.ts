/**
 * zod schemas of the ramp's answers, tolerant of the drift the public material shows: numbers as
 * strings and strings as numbers, keys in either first-letter case (`PhoneNumber`/`phoneNumber`),
 * four envelopes, null where a value is missing. They read; ./normalize.ts maps to domain types.
 */
import * as z from 'zod';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `PhoneNumber` -> `phoneNumber`; the camel-case key wins when both are present. */
function camelKeys(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const c = k.charAt(0).toLowerCase() + k.slice(1);
    if (c === k || !(c in v)) out[c] = x;
  }
  return out;
}

/** An object schema that ignores unknown keys and the case of each key's first letter. */
export const record = <T extends z.ZodRawShape>(shape: T) => z.preprocess(camelKeys, z.looseObject(shape));

const opt = <T extends z.ZodType>(s: T) => s.nullish().transform((v) => v ?? undefined);

/** Plain decimal text for a number, never exponent notation. */
export function decimalText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n
    .toFixed(20)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/;

/** A number, or text holding one. */
export const num = z.union([
  z.number().finite(),
  z
    .string()
    .regex(NUMERIC)
    .transform((s) => Number(s.trim())),
]);

/** Decimal text, or a number turned into decimal text. */
export const decimal = z.union([
  z.string().trim().regex(NUMERIC),
  z.number().finite().transform(decimalText),
]);

/** Text, or a number turned into text (phone numbers came as numbers once). */
export const text = z.union([
  z.string(),
  z
    .number()
    .finite()
    .transform((n) => String(n)),
]);

/** Order status as text; unknown words read as PENDING so an order is never taken as final by mistake. */
export const orderStatus = z.string().transform((s) => {
  const v = s.trim().toUpperCase();
  if (v === 'SUCCESS' || v === 'SUCCESSFUL' || v === 'COMPLETED') return 'SUCCESS' as const;
  if (v === 'FAILED' || v === 'FAILURE' || v === 'ERROR') return 'FAILED' as const;
  if (v === 'CANCELLED' || v === 'CANCELED') return 'CANCELLED' as const;
  return 'PENDING' as const;
});

/** Dates came as ISO text, epoch ms, or `YYYYMMDDHHmmss` numbers; all become ISO 8601 text. */
export const dateText = z.union([z.string(), z.number()]).transform((v) => {
  if (typeof v === 'string') return v;
  const s = String(v);
  if (/^\d{14}$/.test(s)) {
    return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(8, 10)}:${s.slice(10, 12)}:${s.slice(12, 14)}.000Z`;
  }
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
});

/**
 * The first value whose key mentions "receipt": the real service's `mpesaReceipt` and
 * `MpesaReceiptNumber`, the spec's `mobilemoneyReceipt` and `MobilemoneyReceiptNumber`, … (test/ramp/real-shapes.test.ts).
 */
export function findReceipt(v: unknown): string | undefined {
  if (!isRecord(v)) return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (!/receipt/i.test(k)) continue;
    if (typeof x === 'string' && x.trim()) return x.trim();
    if (typeof x === 'number') return String(x);
  }
  return undefined;
}

/** Unwraps `{statusCode|status, message, data}` envelopes; an unwrapped body is returned as is. */
export function unwrap(body: unknown): unknown {
  if (isRecord(body) && 'data' in body && ('status' in body || 'statusCode' in body || 'message' in body)) {
    return body.data;
  }
  return body;
}

/** True when a body says it is an error whatever the HTTP status was. */
export function isErrorBody(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const s = body.status ?? body.statusCode;
  if (typeof s === 'string' && s.toLowerCase() === 'error') return true;
  if (typeof s === 'number' && s >= 400) return true;
  if (typeof body.statusCode === 'number' && body.statusCode >= 400) return true;
  // `{"error":"Internal server error"}` and the like: an error text with no payload beside it.
  return (
    typeof body.error === 'string' &&
    body.error !== '' &&
    !('data' in body) &&
    !('hash' in body) &&
    !('id' in body)
  );
}

export const quoteFee = record({
  amount: opt(decimal),
  feeInInputCurrency: opt(decimal),
  currency: opt(z.string()),
  feeInOutputCurrency: opt(num),
  feeInKES: opt(num),
  estimatedOutputKES: opt(num),
  decimals: opt(num),
  details: opt(record({ feeInKES: opt(num), estimatedOutputKES: opt(num) })),
});

export const quoteData = record({
  inputAmount: decimal,
  outputAmount: decimal,
  inputCurrency: opt(text),
  outputCurrency: opt(text),
  exchangeRate: num,
  type: opt(z.string()),
  network: opt(z.string()),
  fee: opt(quoteFee),
  limits: opt(record({ min: num, max: num, currency: opt(z.string()) })),
});

export const tokenEntry = record({
  symbol: text,
  name: opt(text),
  decimals: num,
  address: text,
});

export const assetsData = record({
  networks: opt(z.array(z.string())),
  fiat: opt(z.array(z.string())),
  crypto: z.record(z.string(), z.array(z.unknown())),
});

export const createdOrderData = record({
  orderID: text,
  message: opt(z.string()),
});

export const onrampStatusData = record({
  status: orderStatus,
  message: opt(z.string()),
  orderID: opt(text),
  details: opt(
    record({
      phoneNumber: opt(text),
      transactionDate: opt(dateText),
      resultDescription: opt(z.string()),
    }),
  ),
});

export const offrampStatusData = record({
  status: orderStatus,
  message: opt(z.string()),
  orderID: opt(text),
  details: opt(
    record({
      phoneNumber: opt(text),
      receiverPartyPublicName: opt(z.string()),
      transactionSize: opt(decimal),
      transactionSide: opt(z.string()),
      initiatedAt: opt(dateText),
      completedAt: opt(dateText),
      failureReason: opt(z.string()),
      resultCode: opt(text),
    }),
  ),
});

export const depositBody = record({
  message: opt(z.string()),
  createdAt: opt(dateText),
  updatedAt: opt(dateText),
  hash: opt(z.string()),
  data: opt(record({ hash: opt(z.string()), transactionHash: opt(z.string()) })),
});

export const ticketRecord = record({
  _id: opt(text),
  id: opt(text),
  phoneNumber: opt(text),
  phone: opt(text),
  amount: opt(decimal),
  description: opt(z.string()),
  side: opt(z.string()),
  userAddress: opt(z.string()),
  symbol: opt(z.string()),
  tokenAddress: opt(text),
  chain: opt(z.string()),
  createdAt: opt(dateText),
});

export const historyRecord = record({
  id: opt(text),
  _id: opt(text),
  orderID: opt(text),
  amount: opt(num),
  transactionAmount: opt(num),
  transactionSize: opt(num),
  cryptoAmount: opt(decimal),
  symbol: opt(z.string()),
  chain: opt(z.string()),
  transactionID: opt(text),
  phoneNumber: opt(text),
  createdAt: opt(dateText),
  transactionDate: opt(dateText),
  resultDescription: opt(z.string()),
});

export const historyBody = record({
  data: z.array(z.unknown()),
  pagination: opt(
    record({ currentPage: opt(num), limit: opt(num), totalPages: opt(num), totalCount: opt(num) }),
  ),
});

export const checkoutBody = record({
  id: opt(text),
  url: opt(z.string()),
  checkoutUrl: opt(z.string()),
  data: opt(record({ id: opt(text), url: opt(z.string()), checkoutUrl: opt(z.string()) })),
});
