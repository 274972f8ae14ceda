/**
 * The bodies of the status and history answers, built from an order as the sandbox keeps it
 * (reference §2.4, §2.6, §2.9).
 */
import { kenyaIso, kenyaIsoNoMs } from './ids.js';
import type { OfframpOrder, OnrampOrder, SandboxState } from './state.js';

/**
 * The receipt under both of its names: the spec's neutral `mobilemoneyReceipt` and `mpesaReceipt`,
 * the name the real service sends and its clients read (reference §10).
 */
const receipt = (value: string) => ({ mobilemoneyReceipt: value, mpesaReceipt: value });

/** The history receipt: the spec's `MobilemoneyReceiptNumber` and the real `MpesaReceiptNumber`. */
const receiptNumber = (value: string) => ({ MobilemoneyReceiptNumber: value, MpesaReceiptNumber: value });

/** The on-ramp status `data`, as the generation shows it. */
export function onrampStatusData(
  state: SandboxState,
  o: OnrampOrder,
  generation: 'current' | 'legacy',
  now = Date.now(),
) {
  const status = state.statusOf(o, now);
  const settledAt = o.createdAt + state.settleMs;
  if (status === 'CANCELLED' && generation === 'legacy') {
    // The February 2025 shape: numbers for phone and date.
    return {
      status: 'CANCELLED',
      message: 'Unknown transaction status',
      orderID: o.id,
      details: {
        phoneNumber: Number(o.phone),
        ...receipt(o.checkoutRequestId),
        transactionDate: settledAt,
        resultDescription: 'Transaction cancelled by user',
      },
    };
  }
  const base = { phoneNumber: o.phone, ...receipt(o.checkoutRequestId) };
  switch (status) {
    case 'PENDING':
      return {
        status,
        message: 'Your deposit is being processed',
        orderID: o.id,
        details: {
          ...base,
          transactionDate: kenyaIso(state.stkAt(o.createdAt)),
          resultDescription: 'Transaction initiated',
        },
      };
    case 'SUCCESS':
      return {
        status,
        message: 'Deposit completed successfully',
        orderID: o.id,
        details: {
          ...base,
          ...receipt(o.receipt),
          transactionDate: kenyaIso(settledAt),
          resultDescription: 'Transaction initiated',
        },
      };
    default: {
      const why = o.outcome === 'cancelled' ? 'Request cancelled by user' : 'Insufficient balance';
      return {
        status: 'FAILED',
        message: why,
        orderID: o.id,
        details: { ...base, transactionDate: kenyaIso(settledAt), resultDescription: why },
      };
    }
  }
}

/** The off-ramp status `data` (same in both generations; no orderID, as documented). */
export function offrampStatusData(state: SandboxState, o: OfframpOrder, now = Date.now()) {
  const status = state.statusOf(o, now);
  const details = {
    phoneNumber: o.phone,
    ReceiverPartyPublicName: `${o.phone} - ${o.receiverName}`,
    transactionSize: (o.grossKes - o.feeKes).toFixed(2),
    transactionSide: 'withdraw',
    initiatedAt: new Date(o.createdAt).toISOString(),
  };
  if (status === 'PENDING') return { status, message: 'Your withdrawal is being processed', details };
  if (status === 'SUCCESS') {
    return {
      status,
      message: 'Withdrawal completed successfully',
      details: {
        ...details,
        ...receipt(o.receipt),
        completedAt: kenyaIsoNoMs(o.createdAt + state.settleMs),
      },
    };
  }
  const cancelled = o.outcome === 'cancelled';
  return {
    status: 'FAILED',
    message: 'Withdrawal failed',
    details: {
      ...details,
      failureReason: cancelled ? 'Request cancelled by user' : 'Transaction timeout',
      resultCode: cancelled ? '1032' : '1037',
    },
  };
}

/** History record of an on-ramp order (reference §2.9). */
export function onrampRecord(state: SandboxState, o: OnrampOrder, now = Date.now()) {
  const status = state.statusOf(o, now);
  return {
    id: o.recordId,
    ...receiptNumber(status === 'SUCCESS' ? o.receipt : o.checkoutRequestId),
    TransactionDate: new Date(
      status === 'PENDING' ? o.createdAt : o.createdAt + state.settleMs,
    ).toISOString(),
    cryptoAmount: String(o.amountKes / o.rate),
    feeAmount: String(o.feeKes),
    side: 'onramp',
    symbol: o.token.symbol,
    isSent: o.release !== undefined,
    createdAt: new Date(o.createdAt).toISOString(),
    Amount: o.amountKes,
    orderID: o.id,
    transactionID: o.release?.hash ?? '',
    PhoneNumber: Number(o.phone),
    resultDescription:
      status === 'PENDING' || status === 'SUCCESS'
        ? 'Transaction initiated'
        : o.outcome === 'cancelled'
          ? 'Request cancelled by user'
          : 'Insufficient balance',
  };
}

/** History record of an off-ramp order (reference §2.9). */
export function offrampRecord(state: SandboxState, o: OfframpOrder, now = Date.now()) {
  const status = state.statusOf(o, now);
  const payout = Math.round((o.grossKes - o.feeKes) * 100) / 100;
  return {
    id: o.recordId,
    TransactionAmount: payout,
    TransactionReceipt: status === 'SUCCESS' ? o.receipt : '',
    ReceiverPartyPublicName: `${o.phone} - ${o.receiverName}`,
    TransactionCompletedDateTime:
      status === 'PENDING' ? '' : new Date(o.createdAt + state.settleMs).toISOString(),
    transactionID: o.hash,
    transactionSize: String(payout),
    transactionFee: o.feeTokens,
    transactionSide: o.project ?? 'withdraw',
    exchangeRate: String(o.rate),
    createdAt: new Date(o.createdAt).toISOString(),
    chain: o.chain,
    isSent: status === 'SUCCESS',
    orderID: o.id,
    PhoneNumber: o.phone,
    resultDescription:
      status === 'SUCCESS'
        ? 'Transaction completed successfully'
        : status === 'PENDING'
          ? 'Transaction initiated'
          : 'Transaction failed',
  };
}
