import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEvmPublicClient,
  DEFAULT_TOKENS,
  type DevChain,
  devNetworkConfig,
  findEvmToken,
  loadEvmNetworks,
  startDevChain,
} from '../../../src/chains/evm/index.js';
import { ConfigError } from '../../../src/config/env.js';

const ESCROW = '0x980B2F387BBECD67d94B2b6Eebd4FD238946466a';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadEvmNetworks(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadEvmNetworks', () => {
  it('enables no network without an escrow address', () => {
    expect(loadEvmNetworks({ EVM_POLYGON_RPC_URL: 'https://rpc.example/polygon' })).toEqual([]);
  });

  it('fills defaults for a network with an escrow', () => {
    const [polygon, ...rest] = loadEvmNetworks({ EVM_POLYGON_ESCROW: ESCROW.toLowerCase() });
    expect(rest).toEqual([]);
    expect(polygon).toMatchObject({
      network: 'polygon',
      chainId: 137,
      escrow: ESCROW,
      confirmations: 32,
      escrowCall: 'current',
      tokens: DEFAULT_TOKENS.polygon,
      local: false,
    });
    expect(polygon!.rpcUrl).toMatch(/^https:\/\//);
    expect(findEvmToken(polygon!, 'usdt')?.address).toBe('0xc2132D05D31c914a87C6611C10748AEb04B58e8F');
  });

  it('reads every override', () => {
    const [base] = loadEvmNetworks({
      EVM_BASE_ESCROW: '0x5e5136b964e84c35e7b8f78b06b537ef80ee60e0',
      EVM_BASE_RPC_URL: 'https://base.example/rpc',
      EVM_BASE_CHAIN_ID: '84532',
      EVM_BASE_CONFIRMATIONS: '3',
      EVM_BASE_ESCROW_CALL: 'permit',
      EVM_BASE_TOKENS:
        'USDC:0x036CbD53842c5426634e7929541eC2318f3dCF7e:6, ETH:0x0000000000000000000000000000000000000000:18',
    });
    expect(base).toEqual({
      network: 'base',
      chainId: 84532,
      rpcUrl: 'https://base.example/rpc',
      escrow: getAddress('0x5e5136b964e84c35e7b8f78b06b537ef80ee60e0'),
      confirmations: 3,
      escrowCall: 'permit',
      tokens: [
        { symbol: 'USDC', address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', decimals: 6 },
        { symbol: 'ETH', address: '0x0000000000000000000000000000000000000000', decimals: 18 },
      ],
      local: false,
    });
  });

  it('reads several RPC endpoints separated by commas: the first is the main one, the rest fall back', () => {
    const [polygon] = loadEvmNetworks({
      EVM_POLYGON_ESCROW: ESCROW,
      EVM_POLYGON_RPC_URL: ' https://a.example/rpc, https://b.example/rpc,https://a.example/rpc ',
    });
    expect(polygon).toMatchObject({
      rpcUrl: 'https://a.example/rpc',
      fallbackRpcUrls: ['https://b.example/rpc'],
    });
    expect(configError({ EVM_POLYGON_RPC_URL: 'https://a.example/rpc,forno' }).issues[0]).toMatch(
      /^EVM_POLYGON_RPC_URL: not an http\(s\) URL: forno/,
    );
  });

  it('names a malformed escrow address, a bad checksum and the zero address', () => {
    expect(configError({ EVM_POLYGON_ESCROW: '0x1234' }).issues).toEqual([
      expect.stringMatching(/^EVM_POLYGON_ESCROW: .*40 hex/),
    ]);
    const badChecksum = `0x${ESCROW.slice(2, 41)}${ESCROW[41] === 'a' ? 'A' : 'a'}`;
    expect(configError({ EVM_CELO_ESCROW: badChecksum }).issues[0]).toMatch(/^EVM_CELO_ESCROW: .*checksum/);
    expect(configError({ EVM_LISK_ESCROW: `0x${'0'.repeat(40)}` }).issues[0]).toMatch(
      /^EVM_LISK_ESCROW: .*zero/,
    );
  });

  it('names bad confirmations, variant and URL, also on networks not enabled', () => {
    const error = configError({
      EVM_POLYGON_ESCROW: ESCROW,
      EVM_POLYGON_CONFIRMATIONS: '0',
      EVM_BASE_CONFIRMATIONS: 'many',
      EVM_SCROLL_ESCROW_CALL: 'v2',
      EVM_CELO_RPC_URL: 'forno',
    });
    expect(error.issues.map((i) => i.split(':')[0]).sort()).toEqual([
      'EVM_BASE_CONFIRMATIONS',
      'EVM_CELO_RPC_URL',
      'EVM_POLYGON_CONFIRMATIONS',
      'EVM_SCROLL_ESCROW_CALL',
    ]);
    expect(error.message).toContain('EVM_POLYGON_CONFIRMATIONS');
  });

  it('names a bad token list entry and a duplicate symbol', () => {
    expect(
      configError({ EVM_POLYGON_TOKENS: 'USDT:0xc2132D05D31c914a87C6611C10748AEb04B58e8F' }).issues[0],
    ).toMatch(/^EVM_POLYGON_TOKENS: bad entry/);
    expect(
      configError({
        EVM_POLYGON_TOKENS:
          'USDT:0xc2132D05D31c914a87C6611C10748AEb04B58e8F:6,usdt:0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174:6',
      }).issues[0],
    ).toMatch(/^EVM_POLYGON_TOKENS: .*twice/);
  });

  it('needs an RPC URL for a chain id other than the mainnet', () => {
    expect(configError({ EVM_POLYGON_ESCROW: ESCROW, EVM_POLYGON_CHAIN_ID: '80002' }).issues[0]).toMatch(
      /^EVM_POLYGON_RPC_URL: required/,
    );
  });

  it('treats empty variables as unset', () => {
    expect(loadEvmNetworks({ EVM_POLYGON_ESCROW: '', EVM_POLYGON_CONFIRMATIONS: '' })).toEqual([]);
  });
});

describe('devNetworkConfig', () => {
  let chain: DevChain;
  beforeAll(async () => {
    chain = await startDevChain({ chainId: 1337 });
  });
  afterAll(async () => {
    await chain?.close();
  });

  it('describes the dev chain under a chosen network key with its own chain id and tokens', async () => {
    const config = devNetworkConfig(chain, { network: 'celo' });
    expect(config).toMatchObject({
      network: 'celo',
      chainId: 1337,
      rpcUrl: chain.rpcUrl,
      escrow: chain.escrow,
      confirmations: 1,
      local: true,
    });
    expect(findEvmToken(config, 'USDT')?.address).toBe(chain.tokens.usdt);
    expect(findEvmToken(config, 'USDC')?.address).toBe(chain.tokens.permitToken);
    expect(await createEvmPublicClient(config).getChainId()).toBe(1337);
  });
});
