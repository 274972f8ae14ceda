import { decodeFunctionData, type Hex, parseSignature, size, slice, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  appendSellTag,
  buildApproveCall,
  buildPermitTypedData,
  buildWithdrawCall,
  buildWithdrawWithPermitCall,
  decodeDeposit,
  escrowAbi,
  isSellTag,
  newSellTag,
  parseTag,
  SELL_TAG_MAGIC,
  scaleExchangeRate,
  splitSellTag,
  tokenAbi,
} from '../../../src/chains/evm/index.js';

const escrow = '0x980B2F387BBECD67d94B2b6Eebd4FD238946466a';
const token = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';

describe('sell tag', () => {
  it('is 12 random bytes as 0x + 24 hex digits', () => {
    const a = newSellTag();
    const b = newSellTag();
    expect(a).toMatch(/^0x[0-9a-f]{24}$/);
    expect(isSellTag(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(isSellTag('0x1234')).toBe(false);
  });

  it('is appended after the ABI call as magic + tag and read back', () => {
    const tag = newSellTag();
    const call = buildWithdrawCall({
      escrow,
      variant: 'current',
      token,
      total: 1_000_000n,
      fee: 7_725n,
      tag,
    });
    expect(size(call.data)).toBe(4 + 3 * 32 + 16);
    expect(slice(call.data, 4 + 96, 4 + 100)).toBe(SELL_TAG_MAGIC);
    expect(parseTag(call.data)).toBe(tag);
    const { callData } = splitSellTag(call.data);
    expect(decodeFunctionData({ abi: escrowAbi, data: callData }).args).toEqual([token, 1_000_000n, 7_725n]);
  });

  it('is not found in untagged calldata, a wrong magic or a trailer that does not fit the ABI layout', () => {
    const tag = newSellTag();
    const plain = buildWithdrawCall({ escrow, variant: 'current', token, total: 5n, fee: 0n, tag });
    const untagged = splitSellTag(plain.data).callData;
    expect(parseTag(untagged)).toBeUndefined();
    expect(parseTag(`${untagged}deadbeef${tag.slice(2)}` as Hex)).toBeUndefined();
    expect(parseTag(`${untagged}00${SELL_TAG_MAGIC.slice(2)}${tag.slice(2)}` as Hex)).toBeUndefined();
    expect(parseTag('0x')).toBeUndefined();
    expect(() => appendSellTag(untagged, '0x12' as Hex)).toThrow(/sell tag/);
  });
});

describe('escrow calls', () => {
  const tag = newSellTag();

  it('encodes the current 3-input and legacy 4-input withdrawToEscrow with the reference selectors', () => {
    const current = buildWithdrawCall({ escrow, variant: 'current', token, total: 100n, fee: 3n, tag });
    const legacy = buildWithdrawCall({
      escrow,
      variant: 'legacy',
      token,
      total: 100n,
      fee: 3n,
      exchangeRate: scaleExchangeRate(129.45),
      tag,
    });
    expect(current).toMatchObject({ to: escrow, value: 0n });
    expect(current.data.slice(0, 10)).toBe('0x68dbfe8e');
    expect(legacy.data.slice(0, 10)).toBe('0x5727612d');
    expect(decodeDeposit(splitSellTag(legacy.data).callData)).toEqual({
      variant: 'legacy',
      token,
      total: 100n,
      fee: 3n,
      exchangeRate: 129_450_000n,
    });
    expect(decodeFunctionData({ abi: escrowAbi, data: splitSellTag(legacy.data).callData }).args).toEqual([
      token,
      100n,
      129_450_000n,
      3n,
    ]);
  });

  it('sends the total as value for the native coin', () => {
    const call = buildWithdrawCall({
      escrow,
      variant: 'current',
      token: zeroAddress,
      total: 10n ** 16n,
      fee: 0n,
      tag,
    });
    expect(call.value).toBe(10n ** 16n);
    expect(() => buildApproveCall({ token: zeroAddress, spender: escrow, amount: 1n })).toThrow(/native/);
  });

  it('refuses impossible amounts', () => {
    expect(() => buildWithdrawCall({ escrow, variant: 'current', token, total: 0n, fee: 0n, tag })).toThrow(
      RangeError,
    );
    expect(() => buildWithdrawCall({ escrow, variant: 'current', token, total: 5n, fee: 6n, tag })).toThrow(
      RangeError,
    );
    expect(() => scaleExchangeRate(Number.NaN)).toThrow(RangeError);
  });

  it('approves the escrow for the total on the token contract', () => {
    const call = buildApproveCall({ token, spender: escrow, amount: 1_007_725n });
    expect(call.to).toBe(token);
    expect(decodeFunctionData({ abi: tokenAbi, data: call.data })).toEqual({
      functionName: 'approve',
      args: [escrow, 1_007_725n],
    });
  });

  it('builds withdrawWithPermit from a typed-data signature', async () => {
    const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const typed = buildPermitTypedData({
      chainId: 137,
      token,
      tokenName: 'USD Coin',
      tokenVersion: '2',
      owner: owner.address,
      spender: escrow,
      value: 100n,
      nonce: 0n,
      deadline: 1_900_000_000n,
    });
    expect(typed.domain).toEqual({ name: 'USD Coin', version: '2', chainId: 137, verifyingContract: token });
    const signature = await owner.signTypedData(typed);
    const call = buildWithdrawWithPermitCall({
      escrow,
      token,
      total: 100n,
      fee: 3n,
      deadline: 1_900_000_000n,
      signature,
      tag,
    });
    expect(call.data.slice(0, 10)).toBe('0x8bf6fadd');
    expect(parseTag(call.data)).toBe(tag);
    const { args } = decodeFunctionData({ abi: escrowAbi, data: splitSellTag(call.data).callData });
    const { r, s, v } = parseSignature(signature);
    expect(args).toEqual([token, 100n, 0n, 3n, 1_900_000_000n, Number(v), r, s]);
  });
});
