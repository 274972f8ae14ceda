/** Algorand, when selling USDC there is on: algod's status and the indexer's health, with their tokens. */
import { fetchJson, shownUrl } from './http.js';
import { type CheckResult, type DoctorContext, fail, ok, reason, skipped } from './types.js';

export async function checkAlgorand(ctx: DoctorContext): Promise<CheckResult[]> {
  const { sellEnvSchema } = await import('../sell/settings.js');
  if (!sellEnvSchema.parse(ctx.env).SELL_ALGORAND_ENABLED)
    return [skipped('algorand', 'SELL_ALGORAND_ENABLED is off')];
  const { loadAlgorandConfig } = await import('../chains/algorand/config.js');
  const c = loadAlgorandConfig(ctx.env);
  const base = (u: string) => u.replace(/\/$/, '');
  const algod = async (): Promise<CheckResult> => {
    const part = 'algorand algod';
    try {
      const { status, body } = await fetchJson(`${base(c.algodUrl)}/v2/status`, {
        timeoutMs: ctx.timeoutMs,
        headers: c.algodToken ? { 'X-Algo-API-Token': c.algodToken } : {},
      });
      if (status === 401 || status === 403)
        return fail(part, `${shownUrl(c.algodUrl)} refused ALGOD_TOKEN (HTTP ${status})`);
      if (status !== 200 || body?.['last-round'] === undefined)
        return fail(part, `${shownUrl(c.algodUrl)}: HTTP ${status}, not an algod status`);
      const lag = Number(body['time-since-last-round'] ?? 0) / 1e9;
      return ok(
        part,
        `${shownUrl(c.algodUrl)}: round ${body['last-round']}${lag > 60 ? ` (stalled ${Math.round(lag)} s)` : ''}`,
      );
    } catch (err) {
      return fail(part, `${shownUrl(c.algodUrl)}: ${reason(err)}`);
    }
  };
  const indexer = async (): Promise<CheckResult> => {
    const part = 'algorand indexer';
    try {
      const { status, body } = await fetchJson(`${base(c.indexerUrl)}/health`, {
        timeoutMs: ctx.timeoutMs,
        headers: c.indexerToken ? { 'X-Indexer-API-Token': c.indexerToken } : {},
      });
      if (status === 401 || status === 403)
        return fail(part, `${shownUrl(c.indexerUrl)} refused INDEXER_TOKEN (HTTP ${status})`);
      if (status !== 200 || body?.round === undefined)
        return fail(part, `${shownUrl(c.indexerUrl)}: HTTP ${status}, not an indexer health answer`);
      return ok(part, `${shownUrl(c.indexerUrl)}: round ${body.round}`);
    } catch (err) {
      return fail(part, `${shownUrl(c.indexerUrl)}: ${reason(err)}`);
    }
  };
  return Promise.all([algod(), indexer()]);
}
