import { parseNetwork } from '../../domain/networks.js';
import type { ListedAssets, Network, TokenInfo } from '../../domain/types.js';
import { assetsData, tokenEntry } from '../schemas.js';
import { type RampContext, read } from './context.js';

/** GET listed-assets / svc-supported-assets. Networks the domain does not know are left out. */
export async function fetchAssets(ctx: RampContext): Promise<ListedAssets> {
  const body = (await ctx.send({
    method: 'GET',
    path: ctx.paths.assets,
    endpoint: 'assets',
    retry: 'idempotent',
  })) as Record<string, unknown> | undefined;
  // Current: unwrapped. Feb 2025 and some legacy answers: wrapped in `data`.
  const inner = body && !('crypto' in body) && typeof body.data === 'object' ? body.data : body;
  const d = read(assetsData, inner, 'listed assets');
  const tokens: TokenInfo[] = [];
  const seen = new Set<Network>();
  for (const [key, entries] of Object.entries(d.crypto)) {
    const network = parseNetwork(key);
    if (!network) continue;
    seen.add(network);
    for (const e of entries) {
      const t = tokenEntry.safeParse(e);
      if (!t.success) continue;
      tokens.push({
        network,
        symbol: t.data.symbol,
        name: t.data.name ?? t.data.symbol,
        decimals: t.data.decimals,
        address: t.data.address,
      });
    }
  }
  const listed = (d.networks ?? []).map(parseNetwork).filter((n): n is Network => n !== undefined);
  const networks = [...new Set([...listed, ...seen])];
  return { networks, fiat: d.fiat ?? ['KES'], tokens };
}
