/**
 * Each EVM network enabled for selling (EVM_<NET>_ESCROW set): every RPC endpoint's chain id against
 * the network's, and contract code at the escrow address (an address with no code would take
 * sellers' tokens nowhere).
 */
import { fetchJson, shownUrl } from './http.js';
import { type CheckResult, type DoctorContext, fail, ok, reason, skipped } from './types.js';

async function rpc(url: string, method: string, params: unknown[], timeoutMs: number): Promise<string> {
  const { status, body } = await fetchJson(url, {
    timeoutMs,
    body: { jsonrpc: '2.0', id: 1, method, params },
  });
  if (body?.error) throw new Error(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
  if (typeof body?.result !== 'string') throw new Error(`${method}: HTTP ${status}, no result`);
  return body.result;
}

export async function checkEvm(ctx: DoctorContext): Promise<CheckResult[]> {
  const { evmEscrowConfigured } = await import('../sell/settings.js');
  if (!evmEscrowConfigured(ctx.env))
    return [skipped('evm', 'no EVM_<NET>_ESCROW set: selling on EVM is off')];
  const { loadEvmNetworks } = await import('../chains/evm/config.js');
  const networks = loadEvmNetworks(ctx.env);
  const rows = await Promise.all(
    networks.map(async (net): Promise<CheckResult[]> => {
      const urls = [net.rpcUrl, ...(net.fallbackRpcUrls ?? [])];
      const out: CheckResult[] = [];
      let codeChecked = false;
      for (const [i, url] of urls.entries()) {
        const part = `evm ${net.network} rpc #${i + 1}`;
        let chainId: number;
        try {
          chainId = Number.parseInt(await rpc(url, 'eth_chainId', [], ctx.timeoutMs), 16);
        } catch (err) {
          out.push(fail(part, `${shownUrl(url)}: ${reason(err)}`));
          continue;
        }
        if (chainId !== net.chainId) {
          out.push(
            fail(
              part,
              `${shownUrl(url)} is chain ${chainId}, not ${net.network}'s ${net.chainId} (EVM_${net.network.toUpperCase()}_RPC_URL / _CHAIN_ID)`,
            ),
          );
          continue;
        }
        out.push(ok(part, `${shownUrl(url)}: chain ${chainId}`));
        if (codeChecked) continue;
        codeChecked = true;
        const escrowPart = `evm ${net.network} escrow`;
        try {
          const code = await rpc(url, 'eth_getCode', [net.escrow, 'latest'], ctx.timeoutMs);
          out.push(
            code === '0x' || /^0x0*$/.test(code)
              ? fail(
                  escrowPart,
                  `no contract code at ${net.escrow} on chain ${chainId}: check EVM_${net.network.toUpperCase()}_ESCROW with the ramp`,
                )
              : ok(escrowPart, `${net.escrow}: ${(code.length - 2) / 2} bytes of code`),
          );
        } catch (err) {
          out.push(fail(escrowPart, `eth_getCode: ${reason(err)}`));
        }
      }
      if (!codeChecked)
        out.push(
          fail(`evm ${net.network} escrow`, 'not checked: no RPC endpoint of the right chain answered'),
        );
      return out;
    }),
  );
  return rows.flat();
}
