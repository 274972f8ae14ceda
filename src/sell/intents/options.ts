/** What can be sold: the ramp's listing, kept to tokens configured (with an address) on an enabled chain. */
import { zeroAddress } from 'viem';
import { findEvmToken } from '../../chains/evm/index.js';
import type { TokenInfo } from '../../domain/types.js';
import type { SellContext } from '../context.js';

/** Tokens selling is configured for, from the ramp's listing and the chain settings. */
export async function sellOptions(ctx: SellContext): Promise<TokenInfo[]> {
  const listed = await ctx.ramp.listAssets();
  const out: TokenInfo[] = [];
  for (const t of listed.tokens) {
    const runtime = t.network === 'algorand' ? undefined : ctx.evmBy.get(t.network);
    if (!runtime) continue;
    const configured = findEvmToken(runtime.config, t.symbol);
    if (!configured || configured.address === zeroAddress) continue;
    if (out.some((o) => o.network === t.network && o.symbol === t.symbol)) continue;
    out.push({ ...t, address: configured.address, decimals: configured.decimals });
  }
  const algorand = ctx.deps.algorand;
  if (algorand) {
    const listedUsdc = listed.tokens.find((t) => t.network === 'algorand' && t.symbol === 'USDC');
    out.push({
      network: 'algorand',
      symbol: 'USDC',
      name: listedUsdc?.name ?? 'USD Coin',
      decimals: 6,
      address: String(algorand.config.usdcAssetId),
    });
  }
  return out;
}
