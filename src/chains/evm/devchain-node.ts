/**
 * The dev chain's node: hardhat 2's in-process network (EDR), loaded only when a dev chain starts,
 * and the tiny JSON-RPC HTTP server on 127.0.0.1 through which viem and a browser page reach it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';

/** An EIP-1193 provider: the in-process node. */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** The hardhat network with these accounts funded, automining. */
export async function createNode(
  chainId: number,
  accounts: ReadonlyArray<{ privateKey: string }>,
  opts: { sameTimestampBlocks?: boolean } = {},
): Promise<Eip1193> {
  const require = createRequire(import.meta.url);
  const { createHardhatNetworkProvider } = require('hardhat/internal/hardhat-network/provider/provider');
  const { defaultHardhatNetworkParams } = require('hardhat/internal/core/config/default-config');
  return createHardhatNetworkProvider(
    {
      chainId,
      networkId: chainId,
      hardfork: defaultHardhatNetworkParams.hardfork,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      // Reverted transactions are mined and their hash returned, as on a real chain.
      throwOnTransactionFailures: false,
      throwOnCallFailures: true,
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: defaultHardhatNetworkParams.chains,
      genesisAccounts: accounts.map((a) => ({
        privateKey: a.privateKey,
        balance: '10000000000000000000000',
      })),
      allowUnlimitedContractSize: false,
      allowBlocksWithSameTimestamp: opts.sameTimestampBlocks ?? false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  ) as Promise<Eip1193>;
}

const rpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0').optional(),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string().min(1),
  params: z.array(z.unknown()).optional(),
});

async function answer(node: Eip1193, body: unknown): Promise<unknown> {
  const parsed = rpcRequestSchema.safeParse(body);
  if (!parsed.success)
    return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } };
  const { id = null, method, params = [] } = parsed.data;
  try {
    return { jsonrpc: '2.0', id, result: (await node.request({ method, params })) ?? null };
  } catch (e) {
    const err = e as { code?: number; message?: string; data?: unknown };
    // Reverts come without a code; 3 with the revert data is what geth answers and viem decodes.
    const code = typeof err.code === 'number' ? err.code : err.data !== undefined ? 3 : -32603;
    return { jsonrpc: '2.0', id, error: { code, message: err.message ?? String(e), data: err.data } };
  }
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

function serveRpc(node: Eip1193) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'content-type');
    res.setHeader('access-control-allow-methods', 'POST, OPTIONS');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) return void res.writeHead(413).end();
      chunks.push(chunk as Buffer);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = undefined;
    }
    const reply =
      body === undefined
        ? { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
        : Array.isArray(body)
          ? await Promise.all(body.map((b) => answer(node, b)))
          : await answer(node, body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply));
  };
}

/** Serves the node's JSON-RPC over HTTP; resolves once listening, with its URL. */
export async function listenRpc(
  node: Eip1193,
  at: { port?: number; host?: string },
): Promise<{ server: Server; rpcUrl: string }> {
  const server = createServer((req, res) => {
    serveRpc(node)(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port ?? 0, at.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return { server, rpcUrl: `http://${address.includes(':') ? `[${address}]` : address}:${port}` };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
