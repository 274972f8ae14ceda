/** Orders of a month for tests and the bench: buys and sells on several networks, every outcome. */
import type { Network } from '../../src/domain/types.js';
import type { OrderOutcome, OwnOrder, StatementRequest } from '../../src/flows/types.js';
import { periodOf } from '../../src/statements/month.js';

const NETWORKS: Network[] = ['polygon', 'celo', 'base', 'algorand'];
const OUTCOMES: OrderOutcome[] = ['completed', 'completed', 'completed', 'failed', 'cancelled', 'pending'];

/** `n` orders spread over the month, oldest first (ids `D-<month>-<i>` and `W-…`). */
export function syntheticOrders(n: number, month: StatementRequest): OwnOrder[] {
  const { start, end } = periodOf(month);
  const step = Math.floor((end - start) / (n + 1));
  return Array.from({ length: n }, (_, i): OwnOrder => {
    const sell = i % 3 === 2;
    const outcome = OUTCOMES[i % OUTCOMES.length]!;
    const amountKes = 100 + ((i * 137) % 9000) + (i % 4) * 0.25;
    const done = outcome === 'completed';
    return {
      orderId: `${sell ? 'W' : 'D'}-${month.year}${month.month}-${String(i).padStart(4, '0')}`,
      side: sell ? 'offramp' : 'onramp',
      createdAt: start + step * (i + 1),
      network: NETWORKS[i % NETWORKS.length]!,
      symbol: i % 5 === 0 ? 'USDC' : 'USDT',
      amountKes,
      ...(sell ? {} : { paidKes: amountKes + 5 + (i % 3) }),
      tokenAmount: (amountKes / 129.37).toFixed(6),
      ...(sell ? { feeToken: `0.0${1 + (i % 7)}5` } : {}),
      outcome,
      ...(done ? { receipt: `TK${String(1e8 + i * 7919).slice(0, 8)}` } : {}),
      ...(done || sell
        ? { txHash: `0x${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(64, 'a')}` }
        : {}),
    };
  });
}
