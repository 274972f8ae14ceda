/**
 * What the sandbox lists for local selling before the dev chain runs: the dev chain deploys from
 * hardhat's account #0 in a fixed order (escrow, USDT, USDC) on a fresh chain, so the contract
 * addresses are known without starting it (startLocalSellDemo checks they match). A leaf module: no
 * chain library, so local mode starts without one.
 */
import type { EvmNetwork, TokenInfo } from '../../domain/types.js';
import type { RampClient } from '../../ramp/types.js';
import type { SandboxToken } from '../../sandbox/index.js';

/** The dev chain's contracts (CREATE addresses of hardhat account #0 at nonces 0, 1 and 2). */
export const DEV_CHAIN_CONTRACTS = {
  escrow: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  usdt: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  permitToken: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
} as const;

/** The dev tokens as the sandbox lists and prices them (USDT plain, USDC with permit; polygon). */
export function localDemoSandboxTokens(network: EvmNetwork = 'polygon'): SandboxToken[] {
  return [
    { symbol: 'USDT', address: DEV_CHAIN_CONTRACTS.usdt },
    { symbol: 'USDC', address: DEV_CHAIN_CONTRACTS.permitToken },
  ].map((t) => ({
    network,
    symbol: t.symbol,
    name: `${t.symbol} (dev chain)`,
    decimals: 6,
    address: t.address,
    usd: 1,
  }));
}

/** USDC's asset id on Algorand, which the local stand-in uses too (src/chains/algorand/config.ts). */
const ALGORAND_USDC = '31566704';

/**
 * What local selling offers before the dev chain runs, as the sell service lists it once it does:
 * the ramp's listing kept to the dev tokens, and USDC on the Algorand stand-in. The first sale's
 * questions need nothing more, so they are asked while the chain starts.
 */
export async function localDemoOptions(ramp: RampClient): Promise<TokenInfo[]> {
  const listed = await ramp.listAssets();
  const dev = localDemoSandboxTokens();
  const out: TokenInfo[] = [];
  for (const t of listed.tokens) {
    const mine = dev.find((d) => d.network === t.network && d.symbol === t.symbol);
    if (mine && !out.some((o) => o.network === t.network && o.symbol === t.symbol))
      out.push({ ...t, address: mine.address, decimals: mine.decimals });
  }
  const usdc = listed.tokens.find((t) => t.network === 'algorand' && t.symbol === 'USDC');
  out.push({
    network: 'algorand',
    symbol: 'USDC',
    name: usdc?.name ?? 'USD Coin',
    decimals: 6,
    address: ALGORAND_USDC,
  });
  return out;
}
