/** GET deposit-transactions / withdrawal-transactions: a wallet's orders, newest first, paged. */
import { offrampRecord, onrampRecord } from './bodies.js';
import { type Handler, ok, type Reply, refuse } from './kit.js';

function page(query: URLSearchParams): { page: number; limit: number } {
  const int = (v: string | null, def: number, max: number) => {
    const n = Number(v);
    return v !== null && Number.isInteger(n) && n >= 1 ? Math.min(n, max) : def;
  };
  return { page: int(query.get('page'), 1, 1_000_000), limit: int(query.get('limit'), 10, 100) };
}

function paginate<T>(all: T[], query: URLSearchParams, message: string): Reply {
  const { page: p, limit } = page(query);
  return ok({
    status: 200,
    message,
    data: all.slice((p - 1) * limit, p * limit),
    pagination: { currentPage: p, limit, totalPages: Math.ceil(all.length / limit), totalCount: all.length },
  });
}

const sameAddress = (a: string | undefined, b: string) =>
  a !== undefined && a.toLowerCase() === b.toLowerCase();

export const onrampHistory: Handler = (env, req) => {
  const address = req.params.address ?? '';
  const orders = [...env.state.onramp.values()]
    .filter((o) => sameAddress(o.userAddress, address))
    .sort((a, b) => b.createdAt - a.createdAt);
  if (!orders.length) return refuse(404, 'No transactions found for the given user address');
  return paginate(
    orders.map((o) => onrampRecord(env.state, o)),
    req.query,
    'Transactions retrieved successfully (sorted from latest to oldest)',
  );
};

export const offrampHistory: Handler = (env, req) => {
  const address = req.params.address ?? '';
  const orders = [...env.state.offramp.values()]
    .filter((o) => sameAddress(o.userAddress, address))
    .sort((a, b) => b.createdAt - a.createdAt);
  if (!orders.length) return refuse(404, 'No B2C transactions found for the given user address.');
  return paginate(
    orders.map((o) => offrampRecord(env.state, o)),
    req.query,
    'B2C transactions retrieved successfully (sorted from latest to oldest)',
  );
};
