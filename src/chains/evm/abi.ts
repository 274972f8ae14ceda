/**
 * ABIs of the ramp service's escrow (reference §7) and of the ERC-20 pieces the sell path uses.
 * Written from the published interface, not from our test contract, so calldata and verification
 * match the real escrow; a test checks that contracts/TestEscrow.sol exposes the same selectors.
 */
import { erc20Abi, parseAbi } from 'viem';

/** Escrow functions: current 3-input, legacy 4-input, legacy permit, and the read functions. */
export const escrowAbi = parseAbi([
  'function withdrawToEscrow(address _tokenAddress, uint256 _amount, uint256 _feeAmount) payable returns (uint256 nonce)',
  'function withdrawToEscrow(address _tokenAddress, uint256 _amount, uint256 _exchangeRate, uint256 _feeAmount) payable returns (uint256 nonce)',
  'function withdrawWithPermit(address _tokenAddress, uint256 _amount, uint256 _exchangeRate, uint256 _feeAmount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) returns (uint256 nonce)',
  'function viewDepositWithNonce(uint256 _nonce) view returns (address token, address user, uint256 amount, uint256 exchangeRate, uint256 feeAmount)',
  'function depositNonce() view returns (uint256)',
  'error InsufficientBalance(uint256)',
  'error AddressZero(uint256)',
  'error TransferFailed(uint256)',
]);

/** v1 `Deposited` (amount includes the fee; our test escrow emits this one). */
export const depositedV1Event = parseAbi([
  'event Deposited(address user, address token, uint256 indexed amount, uint256 indexed nonce, uint256 indexed exchangeRate, uint256 feeAmount)',
])[0];

/** v2 `Deposited` (no rate or fee). Read only to recover the nonce from a v2 escrow. */
export const depositedV2Event = parseAbi([
  'event Deposited(address user, address token, uint256 indexed amount, uint256 indexed nonce)',
])[0];

/** ERC-20 plus the EIP-2612 reads needed to build a permit, and the test tokens' open `mint`. */
export const tokenAbi = [
  ...erc20Abi,
  ...parseAbi([
    'function nonces(address owner) view returns (uint256)',
    'function DOMAIN_SEPARATOR() view returns (bytes32)',
    'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
    'function mint(address to, uint256 amount)',
  ]),
] as const;

export const transferEvent = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
])[0];
