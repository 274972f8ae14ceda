/**
 * Answer bodies of the real ramp service as the reference records them
 * (/work/shared/reference/ramp-api-facts.md §2 and §10), one per body generation, with the real
 * receipt names of §10 where the reference writes the neutral `mobilemoney` word. The sandbox
 * contract tests hold the sandbox's answers against these.
 */

/**
 * The oldest legacy quote (the spec's table, before June 2025): `fee.amount` and `fee.details`, no
 * `limits`. The table types off-ramp `outputAmount` as a number; the service has sent it as text
 * since, and the sandbox follows the service (QUOTE_MID_2025_OFFRAMP), so it is left out here.
 */
export const QUOTE_OLDEST_OFFRAMP = {
  statusCode: 200,
  message: 'Quote retrieved successfully',
  data: {
    inputAmount: '0.2',
    inputCurrency: 'USDT',
    outputCurrency: 'KES',
    exchangeRate: 129.45,
    type: 'offramp',
    network: 'lisk',
    fee: { amount: 0.007725, currency: 'USDT', details: { feeInKES: 1, estimatedOutputKES: 24.89 } },
  },
};

export const QUOTE_OLDEST_ONRAMP = {
  statusCode: 200,
  message: 'Quote retrieved successfully',
  data: {
    inputAmount: '100',
    outputAmount: 0.7738740133106331,
    inputCurrency: 'KES',
    outputCurrency: 'USDT',
    exchangeRate: 129.22,
    type: 'onramp',
    network: 'lisk',
    // fee.amount: the fee in tokens, a number (the spec's table); the value is 1 KES at 129.22.
    fee: { amount: 1 / 129.22, currency: 'USDT', details: { feeInKES: 1, estimatedOutputKES: 101 } },
  },
};

/** June 2025 (§2.1): `fee.amount` beside `estimatedOutputKES` and `decimals`. */
export const QUOTE_JUNE_2025_OFFRAMP_FEE = { currency: 'USDT', estimatedOutputKES: 24.89, decimals: 6 };

/** Since 2025-06-29 on both paths (§2.1), off-ramp: string `outputAmount`, fee in both currencies, limits. */
export const QUOTE_MID_2025_OFFRAMP = {
  statusCode: 200,
  message: 'Quote retrieved successfully',
  data: {
    inputAmount: '0.2',
    outputAmount: '25.8900',
    inputCurrency: 'USDT',
    outputCurrency: 'KES',
    exchangeRate: 129.45,
    type: 'offramp',
    network: 'lisk',
    fee: {
      feeInInputCurrency: '0.007725',
      currency: 'USDT',
      feeInOutputCurrency: 1,
      estimatedOutputKES: 24.89,
      decimals: 6,
    },
    limits: { min: 10, max: 30000, currency: 'KES' },
  },
};

/** Since 2025-06-29 on both paths (§2.1), on-ramp: unrounded number output, fee in KES, limits. */
export const QUOTE_MID_2025_ONRAMP = {
  statusCode: 200,
  message: 'Quote retrieved successfully',
  data: {
    inputAmount: '100',
    outputAmount: 0.7738740133106331,
    inputCurrency: 'KES',
    outputCurrency: 'USDT',
    exchangeRate: 129.22,
    type: 'onramp',
    network: 'lisk',
    fee: { feeInKES: 1, estimatedOutputKES: 101 },
    limits: { min: 1, max: 10000, currency: 'KES' },
  },
};

/** §2.6 PENDING: the receipt field holds the checkout request id. */
export const ONRAMP_STATUS_PENDING = {
  status: 'success',
  data: {
    status: 'PENDING',
    message: 'Your deposit is being processed',
    orderID: 'D-roug7-UT',
    details: {
      phoneNumber: '254700000001',
      mpesaReceipt: 'ws_CO_15022025083848183700000001',
      transactionDate: '2025-02-15T08:38:48.000Z',
      resultDescription: 'Transaction initiated',
    },
  },
};

/** §2.6 SUCCESS: a 10-character receipt, `resultDescription` still "Transaction initiated". */
export const ONRAMP_STATUS_SUCCESS = {
  status: 'success',
  data: {
    status: 'SUCCESS',
    message: 'Deposit completed successfully',
    orderID: 'D-roug7-UT',
    details: {
      phoneNumber: '254700000001',
      mpesaReceipt: 'TBF842GPCO',
      transactionDate: '2025-02-15T08:38:48.000Z',
      resultDescription: 'Transaction initiated',
    },
  },
};

/** §2.6 February 2025 (legacy path): CANCELLED, phone and date as numbers. */
export const ONRAMP_STATUS_CANCELLED_FEB_2025 = {
  status: 'success',
  data: {
    status: 'CANCELLED',
    message: 'Unknown transaction status',
    orderID: 'D-rclsg-VL',
    details: {
      phoneNumber: 254700000001,
      mpesaReceipt: 'ws_CO_15022025082917857700000001',
      transactionDate: 1739597355087,
      resultDescription: 'Transaction cancelled by user',
    },
  },
};

/** §2.4 SUCCESS (no `orderID` in `data`). */
export const OFFRAMP_STATUS_SUCCESS = {
  status: 'success',
  data: {
    status: 'SUCCESS',
    message: 'Withdrawal completed successfully',
    details: {
      phoneNumber: '254700000001',
      ReceiverPartyPublicName: '254700000001 - Jane Doe',
      transactionSize: '20.00',
      transactionSide: 'withdraw',
      initiatedAt: '2025-02-02T12:45:21.859Z',
      mpesaReceipt: 'TB21GOZTI9',
      completedAt: '2025-02-02T15:45:23.000Z',
    },
  },
};

/** §2.9 on-ramp history record. */
export const ONRAMP_HISTORY_RECORD = {
  id: '686fb289c86af65ade30aaf6',
  MpesaReceiptNumber: 'TGA6EIIORA',
  TransactionDate: '2025-07-10T12:31:05.398Z',
  cryptoAmount: '0.1621872103799815',
  feeAmount: '1',
  side: 'onramp',
  symbol: 'USDT',
  isSent: true,
  createdAt: '2025-07-10T12:31:05.398Z',
  Amount: 21,
  orderID: 'D-d9m0k-T8',
  transactionID: `0x${'1'.repeat(64)}`,
  PhoneNumber: 254700000001,
  resultDescription: 'Transaction initiated',
};
