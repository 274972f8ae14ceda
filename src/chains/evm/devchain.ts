/**
 * A local EVM for development and tests: hardhat 2's in-process network (EDR), served over a tiny
 * JSON-RPC HTTP server on 127.0.0.1 so viem's http transport and a browser page can reach it. It
 * deploys the test escrow and two 6-decimal tokens (USDT-like, and one with EIP-2612 permit) and funds
 * a dev wallet. Automining is on; `mine(n)` adds blocks for confirmation depth.
 *
 * hardhat is a dev dependency and is loaded only when a dev chain starts (devchain-node.ts).
 */
import { pbkdf2Sync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Abi,
  type Account,
  type Address,
  bytesToHex,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { HDKey, privateKeyToAccount } from 'viem/accounts';
import * as z from 'zod';
import { APP_ROOT } from '../../config/app-root.js';
import { tokenAbi } from './abi.js';
import { closeServer, createNode, listenRpc } from './devchain-node.js';

/** Hardhat's public test mnemonic: its accounts are known to everyone, never use them on a real chain. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevChainOptions {
  /** Default 31337. */
  chainId?: number;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Hardhat default accounts to create, each with 10,000 ETH. Default 10, minimum 3. */
  accountCount?: number;
  /** Tokens (base units, 6 decimals) minted to the dev wallet of each test token. Default 1,000,000.000000. */
  fundTokens?: bigint;
  /**
   * Blocks may share a timestamp, so many blocks in one second do not run the chain's clock ahead of
   * the wall clock (a burst of transactions then keeps within a sale's time window). Default false.
   */
  sameTimestampBlocks?: boolean;
}

export interface DevAccount {
  address: Address;
  privateKey: Hex;
}

export type DevWalletClient = WalletClient<Transport, Chain, Account>;

export interface DevChain {
  rpcUrl: string;
  chainId: number;
  /** viem chain definition for this dev chain. */
  chain: Chain;
  /** TestEscrow, paying fees to `beneficiary`. */
  escrow: Address;
  beneficiary: Address;
  /** usdt: plain ERC-20 "USDT"; permitToken: ERC-20 + EIP-2612 "USDC"; both 6 decimals. */
  tokens: { usdt: Address; permitToken: Address };
  /** The funded wallet to sell from (hardhat account #1). */
  devAccount: DevAccount;
  /** All hardhat accounts (#0 deploys, #1 is devAccount, #2 is the beneficiary). */
  accounts: DevAccount[];
  publicClient: PublicClient;
  /** A wallet client signing locally with a dev account (default devAccount) or any private key. */
  walletClient(account?: DevAccount | Hex): DevWalletClient;
  /** Deploys another TestEscrow (e.g. a look-alike for forgery tests). */
  deployEscrow(beneficiary?: Address): Promise<Address>;
  /** Deploys another 6-decimal test token. */
  deployToken(p: { name: string; symbol: string; permit?: boolean }): Promise<Address>;
  /** Mints test tokens to an address. */
  mintTokens(token: Address, to: Address, amount: bigint): Promise<void>;
  /** Mines `blocks` empty blocks (default 1). */
  mine(blocks?: number): Promise<void>;
  /** Raw JSON-RPC to the in-process node (e.g. evm_setNextBlockTimestamp). */
  request(method: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

const artifactSchema = z.object({
  contractName: z.string(),
  abi: z.array(z.record(z.string(), z.unknown())),
  bytecode: z.string().regex(/^0x[0-9a-f]+$/),
});

/** A committed contract build (contracts/build/<name>.json). */
export function loadArtifact(name: 'TestEscrow' | 'TestToken' | 'TestPermitToken'): {
  abi: Abi;
  bytecode: Hex;
} {
  const file = join(APP_ROOT, 'contracts', 'build', `${name}.json`);
  const parsed = artifactSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return { abi: parsed.abi as unknown as Abi, bytecode: parsed.bytecode as Hex };
}

/** The first `count` accounts of the hardhat test mnemonic (m/44'/60'/0'/0/i). */
export function devAccounts(count: number): DevAccount[] {
  const seed = pbkdf2Sync(DEV_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  const root = HDKey.fromMasterSeed(seed);
  return Array.from({ length: count }, (_, i) => {
    const privateKey = bytesToHex(root.derive(`m/44'/60'/0'/0/${i}`).privateKey!);
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  });
}

/** Starts a dev chain with the test escrow and tokens deployed and the dev wallet funded. */
export async function startDevChain(opts: DevChainOptions = {}): Promise<DevChain> {
  const chainId = opts.chainId ?? 31337;
  const accounts = devAccounts(Math.max(3, opts.accountCount ?? 10));
  const [deployer, devAccount, beneficiary] = accounts as [DevAccount, DevAccount, DevAccount];
  const node = await createNode(chainId, accounts, { sameTimestampBlocks: opts.sameTimestampBlocks });
  const { server, rpcUrl } = await listenRpc(node, opts);
  const { chain, publicClient, walletClient } = devClients(chainId, rpcUrl, devAccount);
  const { deploy, deployToken, mintTokens } = contractTools(publicClient, walletClient(deployer));

  try {
    // One after another: the deployer's nonce is read per transaction.
    const escrow = await deploy('TestEscrow', [beneficiary.address]);
    const usdt = await deployToken({ name: 'Tether USD (test)', symbol: 'USDT' });
    const permitToken = await deployToken({ name: 'USD Coin (test)', symbol: 'USDC', permit: true });
    const fund = opts.fundTokens ?? 1_000_000_000_000n;
    await mintTokens(usdt, devAccount.address, fund);
    await mintTokens(permitToken, devAccount.address, fund);

    return {
      rpcUrl,
      chainId,
      chain,
      escrow,
      beneficiary: beneficiary.address,
      tokens: { usdt, permitToken },
      devAccount,
      accounts,
      publicClient,
      walletClient,
      deployEscrow: (to = beneficiary.address) => deploy('TestEscrow', [to]),
      deployToken,
      mintTokens,
      mine: async (blocks = 1) => {
        await node.request({ method: 'hardhat_mine', params: [`0x${blocks.toString(16)}`] });
      },
      request: (method, params = []) => node.request({ method, params }),
      close: () => closeServer(server),
    };
  } catch (e) {
    await closeServer(server);
    throw e;
  }
}

/** viem's chain, public client and wallet clients (signing locally) for the dev chain. */
function devClients(chainId: number, rpcUrl: string, devAccount: DevAccount) {
  const chain = defineChain({
    id: chainId,
    name: `Dev chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
  const walletClient = (account: DevAccount | Hex = devAccount): DevWalletClient =>
    createWalletClient({
      chain,
      transport,
      pollingInterval: 50,
      account: privateKeyToAccount(typeof account === 'string' ? account : account.privateKey),
    });
  return { chain, publicClient, walletClient };
}

/** Deploying the committed test contracts and minting test tokens, as `admin`. */
function contractTools(publicClient: PublicClient, admin: DevWalletClient) {
  // Automining mines on send; wait by polling only when it is switched off.
  const receiptOf = (hash: Hex) =>
    publicClient
      .getTransactionReceipt({ hash })
      .catch(() => publicClient.waitForTransactionReceipt({ hash }));

  const deploy = async (
    name: Parameters<typeof loadArtifact>[0],
    args: readonly unknown[],
  ): Promise<Address> => {
    const { abi, bytecode } = loadArtifact(name);
    const receipt = await receiptOf(await admin.deployContract({ abi, bytecode, args }));
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`Deploying ${name} failed`);
    return getAddress(receipt.contractAddress);
  };
  const deployToken = (p: { name: string; symbol: string; permit?: boolean }) =>
    deploy(p.permit ? 'TestPermitToken' : 'TestToken', [p.name, p.symbol]);
  const mintTokens = async (token: Address, to: Address, amount: bigint) => {
    const hash = await admin.writeContract({
      address: token,
      abi: tokenAbi,
      functionName: 'mint',
      args: [to, amount],
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`Minting ${token} failed`);
  };
  return { deploy, deployToken, mintTokens };
}
