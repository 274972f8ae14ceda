/**
 * Algorand side of selling: settings and clients, the payment request shown to the seller (ARC-26
 * URI, Pera link, QR), a check that the seller's wallet can pay, and finding and verifying the
 * USDC transfer through the indexer.
 */
export {
  type AlgorandClients,
  type AlgorandConfig,
  createAlgorandClients,
  DEFAULT_ALGOD_URL,
  DEFAULT_INDEXER_URL,
  DEFAULT_SERVICE_WALLET,
  loadAlgorandConfig,
  USDC_ASSET_ID,
} from './config.js';

export { buildPaymentRequest, isSellNote, newSellNote, paymentQr } from './payment-request.js';
export {
  currentRound,
  type ExpectedPayment,
  findPayment,
  isAlgorandTxId,
  parseAlgorandTxId,
  verifyPayment,
} from './payments.js';
export { checkSenderReady } from './sender.js';
export { type FakeAlgorand, startFakeAlgorand } from './stand-in.js';
