/**
 * EVM side of selling: per-network config, tagged escrow calldata, on-chain verification of a
 * reported deposit, and (for local mode and tests) an in-process dev chain with test contracts.
 * The dev chain loads hardhat lazily, so importing this module in production is safe.
 */
export { depositedV1Event, depositedV2Event, escrowAbi, tokenAbi, transferEvent } from './abi.js';
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
  type PermitParams,
  parseTag,
  readPermitContext,
  SELL_TAG_BYTES,
  SELL_TAG_MAGIC,
  scaleExchangeRate,
  splitSellTag,
  type WithdrawCallParams,
  type WithdrawWithPermitCallParams,
} from './calls.js';
export { createEvmPublicClient, createEvmVerifierClients, rpcUrlsOf } from './client.js';
export {
  DEFAULT_CONFIRMATIONS,
  DEFAULT_TOKENS,
  DEV_CONFIRMATIONS,
  devNetworkConfig,
  type EvmNetworkConfig,
  type EvmTokenConfig,
  evmEnvSchema,
  findEvmToken,
  loadEvmNetworks,
} from './config.js';
export {
  DEV_MNEMONIC,
  type DevAccount,
  type DevChain,
  type DevChainOptions,
  type DevWalletClient,
  devAccounts,
  loadArtifact,
  startDevChain,
} from './devchain.js';
export {
  checkTokenTransfers,
  decodeDeposit,
  type EscrowVerification,
  type ExpectedEscrowDeposit,
  RETRYABLE_REFUSALS,
  type VerifyRefusal,
  verifyEscrowTransaction,
  verifyEscrowTransactionQuorum,
} from './verify.js';
