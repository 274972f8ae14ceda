/**
 * Algorand side of selling: settings and clients, the payment request shown to the seller (ARC-26
 * URI, Pera link, QR), a check that the seller's wallet can pay, and finding and verifying the
 * USDC transfer through the indexer.
 */
export {
  type AlgorandClients,
  type AlgorandConfig,
  type AlgorandEnv,
  algorandEnvSchema,
  createAlgorandClients,
  DEFAULT_ALGOD_URL,
  DEFAULT_INDEXER_URL,
  DEFAULT_SERVICE_WALLET,
  loadAlgorandConfig,
  toAlgorandConfig,
  USDC_ASSET_ID,
} from './config.js';
export { nodeErrorStatus } from './errors.js';
export {
  buildPaymentRequest,
  isSellNote,
  newSellNote,
  type PaymentQr,
  type PaymentRequest,
  type PaymentRequestInput,
  paymentQr,
  SELL_NOTE_PREFIX,
} from './payment-request.js';
export {
  currentRound,
  type ExpectedPayment,
  type FindPaymentQuery,
  findPayment,
  isAlgorandTxId,
  type PaymentRefusal,
  type PaymentVerdict,
  parseAlgorandTxId,
  verifyPayment,
} from './payments.js';
export { checkSenderReady, type SenderCheck, type SenderCheckInput, type SenderRefusal } from './sender.js';
export {
  type FakeAlgorand,
  type FakeAlgorandOptions,
  startFakeAlgorand,
} from './stand-in.js';
