import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  formatEther,
  parseUnits,
  toEventSelector,
  toFunctionSelector,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DevChain,
  depositedV1Event,
  escrowAbi,
  loadArtifact,
  startDevChain,
  tokenAbi,
} from '../../../src/chains/evm/index.js';

let chain: DevChain;

beforeAll(async () => {
  chain = await startDevChain();
});

afterAll(async () => {
  await chain?.close();
});

async function rpc(body: unknown, init: RequestInit = {}) {
  return fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

describe('committed contract builds', () => {
  it('TestEscrow exposes every function and the v1 Deposited event of the reference escrow ABI', () => {
    const { abi } = loadArtifact('TestEscrow');
    const compiled = new Set(
      abi.flatMap((item) =>
        item.type === 'function'
          ? [toFunctionSelector(item)]
          : item.type === 'event'
            ? [toEventSelector(item)]
            : [],
      ),
    );
    for (const item of escrowAbi)
      if (item.type === 'function') expect(compiled).toContain(toFunctionSelector(item));
    expect(compiled).toContain(toEventSelector(depositedV1Event));
    expect(compiled).toContain('0x68dbfe8e');
    expect(compiled).toContain('0x5727612d');
    expect(compiled).toContain('0x8bf6fadd');
  });

  it('TestPermitToken has permit, nonces and DOMAIN_SEPARATOR', () => {
    const { abi } = loadArtifact('TestPermitToken');
    const names = abi.flatMap((i) => (i.type === 'function' ? [i.name] : []));
    expect(names).toEqual(
      expect.arrayContaining(['permit', 'nonces', 'DOMAIN_SEPARATOR', 'mint', 'transferFrom']),
    );
  });
});

describe('dev chain', () => {
  it('funds the dev wallet with ETH and both 6-decimal test tokens', async () => {
    const { publicClient, devAccount, tokens } = chain;
    expect(
      Number(formatEther(await publicClient.getBalance({ address: devAccount.address }))),
    ).toBeGreaterThan(9_000);
    for (const token of [tokens.usdt, tokens.permitToken]) {
      const balance = await publicClient.readContract({
        address: token,
        abi: tokenAbi,
        functionName: 'balanceOf',
        args: [devAccount.address],
      });
      expect(balance).toBe(parseUnits('1000000', 6));
      expect(
        await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'decimals' }),
      ).toBe(6);
    }
    expect(
      await publicClient.readContract({ address: tokens.usdt, abi: tokenAbi, functionName: 'symbol' }),
    ).toBe('USDT');
  });

  it('mines blocks on demand', async () => {
    const before = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    await chain.mine(5);
    expect(await chain.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(before + 5n);
  });

  it('answers JSON-RPC batches and CORS preflights so a browser page can use it', async () => {
    const preflight = await fetch(chain.rpcUrl, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');

    const res = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 'b', method: 'no_such_method', params: [] },
    ]);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const [first, second] = (await res.json()) as [
      { id: number; result: string },
      { id: string; error: { code: number } },
    ];
    expect(first).toMatchObject({ id: 1, result: '0x7a69' });
    expect(second.id).toBe('b');
    expect(second.error.code).toBeLessThan(0);
  });

  it('answers malformed bodies with JSON-RPC errors', async () => {
    expect(await (await rpc('{not json')).json()).toMatchObject({ error: { code: -32700 } });
    expect(await (await rpc({ id: 3 })).json()).toMatchObject({ error: { code: -32600 } });
    expect((await fetch(chain.rpcUrl)).status).toBe(405);
  });
});

describe('TestEscrow behaviour', () => {
  it('reverts with InsufficientBalance(0) when the sender lacks the tokens, decodable by viem', async () => {
    const poor = chain.accounts[5]!;
    const error = await chain.publicClient
      .simulateContract({
        account: poor.address,
        address: chain.escrow,
        abi: escrowAbi,
        functionName: 'withdrawToEscrow',
        args: [chain.tokens.usdt, 1_000_000n, 1_000n],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaseError);
    const revert = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
    expect(revert).toBeInstanceOf(ContractFunctionRevertedError);
    expect((revert as ContractFunctionRevertedError).data).toMatchObject({
      errorName: 'InsufficientBalance',
      args: [0n],
    });
  });

  it('refuses a fee larger than the amount and a native deposit with the wrong value', async () => {
    /** 'ok', or the revert's reason string or custom error name. */
    const simulate = async (
      args: readonly [Address, bigint, bigint],
      value = 0n,
    ): Promise<string | undefined> => {
      try {
        await chain.publicClient.simulateContract({
          account: chain.devAccount.address,
          address: chain.escrow,
          abi: escrowAbi,
          functionName: 'withdrawToEscrow',
          args,
          value,
        });
        return 'ok';
      } catch (e) {
        const revert = (e as BaseError).walk((x) => x instanceof ContractFunctionRevertedError);
        if (!(revert instanceof ContractFunctionRevertedError)) throw e;
        return revert.reason ?? revert.data?.errorName;
      }
    };
    expect(await simulate([chain.tokens.usdt, 10n, 11n])).toBe('InsufficientBalance');
    expect(await simulate([zeroAddress, 10n, 0n], 9n)).toBe('Incorrect ETH value');
    expect(await simulate([zeroAddress, 10n, 1n], 10n)).toBe('ok');
  });
});
