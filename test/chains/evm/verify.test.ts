import {
  type Address,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseEther,
  parseUnits,
  toHex,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendSellTag,
  buildApproveCall,
  buildPermitTypedData,
  buildWithdrawCall,
  buildWithdrawWithPermitCall,
  checkTokenTransfers,
  createEvmPublicClient,
  createEvmVerifierClients,
  type DevAccount,
  type DevChain,
  type EvmCall,
  type ExpectedEscrowDeposit,
  escrowAbi,
  newSellTag,
  RETRYABLE_REFUSALS,
  readPermitContext,
  startDevChain,
  tokenAbi,
  type VerifyRefusal,
  verifyEscrowTransaction,
  verifyEscrowTransactionQuorum,
} from '../../../src/chains/evm/index.js';

let chain: DevChain;
let seller: DevAccount;
let stranger: DevAccount;

const total = parseUnits('10.5', 6);
const fee = parseUnits('0.046432', 6);

beforeAll(async () => {
  chain = await startDevChain();
  seller = chain.devAccount;
  stranger = chain.accounts[3]!;
  await chain.mintTokens(chain.tokens.usdt, stranger.address, parseUnits('1000', 6));
});

afterAll(async () => {
  await chain?.close();
});

async function send(call: EvmCall, from: DevAccount = seller, gas?: bigint): Promise<Hex> {
  const hash = await chain.walletClient(from).sendTransaction({ ...call, ...(gas ? { gas } : {}) });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

/** Approves the escrow, then deposits with the given variant; returns the deposit's hash. */
async function sell(
  p: {
    tag: Hex;
    token?: Address;
    escrow?: Address;
    total?: bigint;
    fee?: bigint;
    variant?: 'current' | 'legacy';
    exchangeRate?: bigint;
  },
  from: DevAccount = seller,
): Promise<Hex> {
  const token = p.token ?? chain.tokens.usdt;
  const escrow = p.escrow ?? chain.escrow;
  const amount = p.total ?? total;
  await send(buildApproveCall({ token, spender: escrow, amount }), from);
  return send(
    buildWithdrawCall({
      escrow,
      variant: p.variant ?? 'current',
      token,
      total: amount,
      fee: p.fee ?? fee,
      tag: p.tag,
      ...(p.exchangeRate !== undefined ? { exchangeRate: p.exchangeRate } : {}),
    }),
    from,
  );
}

function expected(tag: Hex, over: Partial<ExpectedEscrowDeposit> = {}): ExpectedEscrowDeposit {
  const now = Math.floor(Date.now() / 1000);
  return {
    chainId: chain.chainId,
    escrow: chain.escrow,
    token: chain.tokens.usdt,
    from: seller.address,
    total,
    fee,
    tag,
    notBefore: now - 600,
    notAfter: now + 600,
    confirmations: 1,
    ...over,
  };
}

const balanceOf = (token: Address, who: Address) =>
  chain.publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [who] });

describe('verifyEscrowTransaction: genuine deposits', () => {
  it('accepts approve + current withdrawToEscrow, and the escrow really holds the tokens', async () => {
    const tag = newSellTag();
    const escrowBefore = await balanceOf(chain.tokens.usdt, chain.escrow);
    const beneficiaryBefore = await balanceOf(chain.tokens.usdt, chain.beneficiary);
    const hash = await sell({ tag });

    const result = await verifyEscrowTransaction(chain.publicClient, expected(tag), hash);
    expect(result).toMatchObject({ ok: true, from: seller.address, variant: 'current' });
    if (!result.ok) throw new Error(result.detail);
    expect(result.nonce).toBeTypeOf('bigint');
    expect(await balanceOf(chain.tokens.usdt, chain.escrow)).toBe(escrowBefore + total - fee);
    expect(await balanceOf(chain.tokens.usdt, chain.beneficiary)).toBe(beneficiaryBefore + fee);

    const deposit = await chain.publicClient.readContract({
      address: chain.escrow,
      abi: escrowAbi,
      functionName: 'viewDepositWithNonce',
      args: [result.nonce!],
    });
    expect(deposit).toEqual([chain.tokens.usdt, seller.address, total - fee, 0n, fee]);
  });

  it('accepts the legacy 4-input withdrawToEscrow and records its exchange rate', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag, variant: 'legacy', exchangeRate: 129_450_000n });
    const result = await verifyEscrowTransaction(chain.publicClient, expected(tag), hash);
    expect(result).toMatchObject({ ok: true, variant: 'legacy' });
    if (!result.ok) throw new Error(result.detail);
    const [, , , rate] = await chain.publicClient.readContract({
      address: chain.escrow,
      abi: escrowAbi,
      functionName: 'viewDepositWithNonce',
      args: [result.nonce!],
    });
    expect(rate).toBe(129_450_000n);
  });

  it('accepts withdrawWithPermit signed with EIP-2612 typed data (no approve transaction)', async () => {
    const tag = newSellTag();
    const token = chain.tokens.permitToken;
    const permit = await readPermitContext(chain.publicClient, { token, owner: seller.address });
    expect(permit.tokenName).toBe('USD Coin (test)');
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const signature = await chain.walletClient(seller).signTypedData(
      buildPermitTypedData({
        chainId: chain.chainId,
        token,
        tokenName: permit.tokenName,
        tokenVersion: permit.tokenVersion,
        owner: seller.address,
        spender: chain.escrow,
        value: total,
        nonce: permit.nonce,
        deadline,
      }),
    );
    const hash = await send(
      buildWithdrawWithPermitCall({ escrow: chain.escrow, token, total, fee, deadline, signature, tag }),
    );
    const result = await verifyEscrowTransaction(chain.publicClient, expected(tag, { token }), hash);
    expect(result).toMatchObject({ ok: true, variant: 'permit', from: seller.address });
  });

  it('accepts a native-coin deposit whose value is the total', async () => {
    const tag = newSellTag();
    const amount = parseEther('0.01');
    const hash = await send(
      buildWithdrawCall({
        escrow: chain.escrow,
        variant: 'current',
        token: zeroAddress,
        total: amount,
        fee: 0n,
        tag,
      }),
    );
    const result = await verifyEscrowTransaction(
      chain.publicClient,
      expected(tag, { token: zeroAddress, total: amount, fee: 0n }),
      hash,
    );
    expect(result).toMatchObject({ ok: true, variant: 'current' });
  });

  it('names the sender when the order has no bound wallet', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag }, stranger);
    const result = await verifyEscrowTransaction(
      chain.publicClient,
      expected(tag, { from: undefined }),
      hash,
    );
    expect(result).toMatchObject({ ok: true, from: stranger.address });
  });

  it('asks to wait while too few blocks follow, then accepts once they are mined', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag });
    const want = expected(tag, { confirmations: 3 });
    expect(await verifyEscrowTransaction(chain.publicClient, want, hash)).toMatchObject({
      ok: false,
      reason: 'not_confirmed',
    });
    await chain.mine(2);
    expect(await verifyEscrowTransaction(chain.publicClient, want, hash)).toMatchObject({ ok: true });
  });

  it('asks to wait while the transaction is still in the mempool', async () => {
    const tag = newSellTag();
    const token = chain.tokens.usdt;
    await send(buildApproveCall({ token, spender: chain.escrow, amount: total }));
    await chain.request('evm_setAutomine', [false]);
    try {
      const hash = await chain.walletClient(seller).sendTransaction({
        ...buildWithdrawCall({ escrow: chain.escrow, variant: 'current', token, total, fee, tag }),
      });
      expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
        ok: false,
        reason: 'not_confirmed',
      });
      await chain.mine(1);
      expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
        ok: true,
      });
    } finally {
      await chain.request('evm_setAutomine', [true]);
    }
  });
});

describe('verifyEscrowTransaction: forgeries and mistakes are refused', () => {
  it('refuses a deposit sent by another wallet than the bound one, even with this order tag', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag }, stranger);
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: false,
      reason: 'wrong_sender',
      from: stranger.address,
    });
  });

  it('refuses a smaller amount', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag, total: total - 1n });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: false,
      reason: 'wrong_amount',
    });
  });

  it('refuses a call variant the network is not configured for (a legacy deposit with an absurd rate)', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag, variant: 'legacy', exchangeRate: 10n ** 30n });
    expect(
      await verifyEscrowTransaction(chain.publicClient, expected(tag, { variants: ['current'] }), hash),
    ).toMatchObject({ ok: false, reason: 'wrong_call' });
  });

  it('refuses an exchange-rate argument other than the one the order bound', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag, variant: 'legacy', exchangeRate: 10n ** 30n });
    const bound = expected(tag, { variants: ['legacy'], exchangeRate: 129_450_000n });
    expect(await verifyEscrowTransaction(chain.publicClient, bound, hash)).toMatchObject({
      ok: false,
      reason: 'wrong_call',
    });
    const right = newSellTag();
    const good = await sell({ tag: right, variant: 'legacy', exchangeRate: 129_450_000n });
    const ok = expected(right, { variants: ['legacy'], exchangeRate: 129_450_000n });
    expect(await verifyEscrowTransaction(chain.publicClient, ok, good)).toMatchObject({ ok: true });
  });

  it('refuses a different fee', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag, fee: fee + 1n });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: false,
      reason: 'wrong_fee',
    });
  });

  it('refuses a deposit of a look-alike token contract', async () => {
    const fake = await chain.deployToken({ name: 'Tether USD', symbol: 'USDT' });
    await chain.mintTokens(fake, seller.address, total);
    const tag = newSellTag();
    const hash = await sell({ tag, token: fake });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: false,
      reason: 'wrong_token',
    });
  });

  it('never counts a Transfer log emitted by another contract than the token', async () => {
    const fake = await chain.deployToken({ name: 'Tether USD', symbol: 'USDT' });
    await chain.mintTokens(fake, seller.address, total);
    const hash = await send({
      to: fake,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [chain.escrow, total] }),
      value: 0n,
    });
    const { logs } = await chain.publicClient.getTransactionReceipt({ hash });
    const want = { token: chain.tokens.usdt, escrow: chain.escrow, from: seller.address, total };
    expect(checkTokenTransfers(logs, want)).toMatchObject({ reason: 'wrong_token' });
    expect(checkTokenTransfers(logs, { ...want, token: fake })).toBeUndefined();
    expect(checkTokenTransfers(logs, { ...want, token: fake, total: total + 1n })).toMatchObject({
      reason: 'wrong_amount',
    });
    expect(checkTokenTransfers(logs, { ...want, token: fake, from: stranger.address })).toMatchObject({
      reason: 'wrong_sender',
    });
  });

  it('refuses a deposit into another escrow deployment', async () => {
    const otherEscrow = await chain.deployEscrow();
    const tag = newSellTag();
    const hash = await sell({ tag, escrow: otherEscrow });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: false,
      reason: 'wrong_escrow',
    });
  });

  it('refuses a plain token transfer to the escrow (not a deposit call)', async () => {
    const hash = await send({
      to: chain.tokens.usdt,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [chain.escrow, total] }),
      value: 0n,
    });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(newSellTag()), hash)).toMatchObject({
      ok: false,
      reason: 'wrong_escrow',
    });
  });

  it('refuses another escrow function that carries this order tag', async () => {
    const tag = newSellTag();
    const hash = await send({
      to: chain.escrow,
      data: appendSellTag(encodeFunctionData({ abi: escrowAbi, functionName: 'depositNonce' }), tag),
      value: 0n,
    });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: false,
      reason: 'wrong_escrow',
      detail: 'not an escrow deposit call',
    });
  });

  it('refuses a reverted deposit (no approval given)', async () => {
    const tag = newSellTag();
    await send(buildApproveCall({ token: chain.tokens.usdt, spender: chain.escrow, amount: 0n }));
    const hash = await send(
      buildWithdrawCall({
        escrow: chain.escrow,
        variant: 'current',
        token: chain.tokens.usdt,
        total,
        fee,
        tag,
      }),
      seller,
      300_000n,
    );
    expect((await chain.publicClient.getTransactionReceipt({ hash })).status).toBe('reverted');
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: false,
      reason: 'reverted',
    });
  });

  it('refuses a deposit without a tag', async () => {
    await send(buildApproveCall({ token: chain.tokens.usdt, spender: chain.escrow, amount: total }));
    const hash = await send({
      to: chain.escrow,
      data: encodeFunctionData({
        abi: escrowAbi,
        functionName: 'withdrawToEscrow',
        args: [chain.tokens.usdt, total, fee],
      }),
      value: 0n,
    });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(newSellTag()), hash)).toMatchObject({
      ok: false,
      reason: 'missing_tag',
    });
  });

  it("refuses a deposit tagged for another order (someone else's genuine deposit)", async () => {
    const hash = await sell({ tag: newSellTag() });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(newSellTag()), hash)).toMatchObject({
      ok: false,
      reason: 'foreign_tag',
    });
  });

  it('refuses a deposit mined before the order existed or after its window', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag });
    const { blockNumber } = await chain.publicClient.getTransactionReceipt({ hash });
    const { timestamp } = await chain.publicClient.getBlock({ blockNumber });
    const ts = Number(timestamp);
    const early = expected(tag, { notBefore: ts + 1, notAfter: ts + 3600 });
    const late = expected(tag, { notBefore: ts - 3600, notAfter: ts - 1 });
    expect(await verifyEscrowTransaction(chain.publicClient, early, hash)).toMatchObject({
      reason: 'outside_window',
    });
    expect(await verifyEscrowTransaction(chain.publicClient, late, hash)).toMatchObject({
      reason: 'outside_window',
    });
    const exact = expected(tag, { notBefore: ts, notAfter: ts });
    expect(await verifyEscrowTransaction(chain.publicClient, exact, hash)).toMatchObject({ ok: true });
  });

  it('refuses when the RPC serves another chain than the order names', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag });
    expect(
      await verifyEscrowTransaction(chain.publicClient, expected(tag, { chainId: 137 }), hash),
    ).toMatchObject({
      ok: false,
      reason: 'wrong_chain',
    });
  });

  it('refuses an unknown or malformed hash', async () => {
    const unknown = keccak256(toHex('no such transaction'));
    expect(await verifyEscrowTransaction(chain.publicClient, expected(newSellTag()), unknown)).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    expect(await verifyEscrowTransaction(chain.publicClient, expected(newSellTag()), '0x1234')).toMatchObject(
      {
        ok: false,
        reason: 'not_found',
      },
    );
  });
});

describe('verifyEscrowTransactionQuorum: one endpoint cannot verify a payment alone', () => {
  let other: DevChain;
  beforeAll(async () => {
    // A second chain with the same id, accounts and contract addresses: an endpoint that tells
    // another story (stale, or lying) about the same hashes.
    other = await startDevChain();
  });
  afterAll(async () => {
    await other?.close();
  });

  const sameChainTwice = () => [
    createEvmVerifierClients({ network: 'polygon', chainId: chain.chainId, rpcUrl: chain.rpcUrl })[0]!,
    chain.publicClient,
  ];

  it('accepts a deposit two endpoints agree on', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag });
    const result = await verifyEscrowTransactionQuorum(sameChainTwice(), expected(tag), hash);
    expect(result).toMatchObject({ ok: true, from: seller.address });
  });

  it('does not accept a deposit only one endpoint knows, and asks again later', async () => {
    expect(other.escrow).toBe(chain.escrow);
    const tag = newSellTag();
    const hash = await sell({ tag });
    const result = await verifyEscrowTransactionQuorum(
      [chain.publicClient, other.publicClient],
      expected(tag),
      hash,
    );
    expect(result).toMatchObject({ ok: false, reason: 'not_confirmed' });
    expect(RETRYABLE_REFUSALS).toContain((result as { reason: VerifyRefusal }).reason);
    expect(await verifyEscrowTransaction(chain.publicClient, expected(tag), hash)).toMatchObject({
      ok: true,
    });
  });

  it('a refusal stands when two endpoints agree on it; one unreachable endpoint is not a vote', async () => {
    const tag = newSellTag();
    const hash = await sell({ tag, fee: fee + 1n });
    const refused = await verifyEscrowTransactionQuorum(sameChainTwice(), expected(tag), hash);
    expect(refused).toMatchObject({ ok: false, reason: 'wrong_fee' });

    const dead = createEvmVerifierClients(
      { network: 'polygon', chainId: chain.chainId, rpcUrl: 'http://127.0.0.1:9/' },
      { timeoutMs: 500 },
    )[0]!;
    const goodTag = newSellTag();
    const good = await sell({ tag: goodTag });
    const alone = await verifyEscrowTransactionQuorum([chain.publicClient, dead], expected(goodTag), good);
    expect(alone).toMatchObject({ ok: false, reason: 'not_confirmed' });
    await expect(verifyEscrowTransactionQuorum([dead, dead], expected(goodTag), good)).rejects.toThrow();
  });

  it('the read client falls back to the next endpoint when the first does not answer', async () => {
    const client = createEvmPublicClient(
      {
        network: 'polygon',
        chainId: chain.chainId,
        rpcUrl: 'http://127.0.0.1:9/',
        fallbackRpcUrls: [chain.rpcUrl],
      },
      { timeoutMs: 500 },
    );
    expect(await client.getChainId()).toBe(chain.chainId);
  });
});
