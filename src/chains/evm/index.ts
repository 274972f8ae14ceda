/**
 * EVM side of selling: per-network config, tagged escrow calldata, on-chain verification of a
 * reported deposit, and (for local mode and tests) an in-process dev chain with test contracts.
 * The dev chain loads hardhat lazily, so importing this module in production is safe.
 */
export { depositedV1Event, depositedV2Event, escrowAbi, tokenAbi } from './abi.js';
export {
  appendSellTag,
  buildApproveCall,
  buildPermitTypedData,
  buildWithdrawCall,
  buildWithdrawWithPermitCall,
  DEFAULT_PERMIT_TTL_SECONDS,
  type EscrowCallVariant,
  type EvmCall,
  isSellTag,
  newSellTag,
  parseTag,
  readPermitContext,
  SELL_TAG_MAGIC,
  scaleExchangeRate,
  splitSellTag,
} from './calls.js';
export { createEvmPublicClient, createEvmVerifierClients } from './client.js';
export {
  DEFAULT_TOKENS,
  devNetworkConfig,
  type EvmNetworkConfig,
  findEvmToken,
  loadEvmNetworks,
} from './config.js';
export {
  type DevAccount,
  type DevChain,
  type DevChainOptions,
  type DevWalletClient,
  loadArtifact,
  startDevChain,
} from './devchain.js';
export {
  checkTokenTransfers,
  decodeDeposit,
  type ExpectedEscrowDeposit,
  RETRYABLE_REFUSALS,
  type VerifyRefusal,
  verifyEscrowTransaction,
  verifyEscrowTransactionQuorum,
} from './verify.js';
