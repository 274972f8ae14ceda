import { describe, expect, it } from 'vitest';
import {
  createAlgorandClients,
  DEFAULT_ALGOD_URL,
  DEFAULT_INDEXER_URL,
  DEFAULT_SERVICE_WALLET,
  loadAlgorandConfig,
} from '../../../src/chains/algorand/index.js';
import { ConfigError } from '../../../src/config/env.js';
import { startFakeAlgorand } from '../../fakes/algorand.js';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadAlgorandConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadAlgorandConfig', () => {
  it('fills the documented defaults from an empty environment', () => {
    expect(loadAlgorandConfig({})).toEqual({
      algodUrl: DEFAULT_ALGOD_URL,
      algodToken: '',
      indexerUrl: DEFAULT_INDEXER_URL,
      indexerToken: '',
      serviceWallet: 'XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOE',
      usdcAssetId: 31566704n,
      minFeeBalanceMicroAlgo: 1000n,
      confirmations: 3,
    });
    expect(DEFAULT_SERVICE_WALLET).toBe('XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOE');
  });

  it('treats empty variables as unset', () => {
    const cfg = loadAlgorandConfig({
      ALGORAND_SERVICE_WALLET: '',
      ALGORAND_USDC_ASSET_ID: '',
      ALGOD_URL: '',
    });
    expect(cfg.serviceWallet).toBe(DEFAULT_SERVICE_WALLET);
    expect(cfg.usdcAssetId).toBe(31566704n);
    expect(cfg.algodUrl).toBe(DEFAULT_ALGOD_URL);
  });

  it('reads given values', () => {
    const cfg = loadAlgorandConfig({
      ALGOD_URL: 'http://127.0.0.1:4001',
      ALGOD_TOKEN: 'a'.repeat(64),
      INDEXER_URL: 'http://127.0.0.1:8980',
      INDEXER_TOKEN: 'idx',
      ALGORAND_USDC_ASSET_ID: '10458941',
      ALGORAND_MIN_FEE_BALANCE_MICROALGO: '2000',
      ALGORAND_CONFIRMATIONS: '1',
    });
    expect(cfg).toMatchObject({
      algodUrl: 'http://127.0.0.1:4001',
      algodToken: 'a'.repeat(64),
      indexerUrl: 'http://127.0.0.1:8980',
      indexerToken: 'idx',
      usdcAssetId: 10458941n,
      minFeeBalanceMicroAlgo: 2000n,
      confirmations: 1,
    });
  });

  it('refuses a wallet whose checksum is wrong, naming ALGORAND_SERVICE_WALLET', () => {
    // Last character changed: still 58 base32 characters, but the checksum no longer matches.
    const err = configError({
      ALGORAND_SERVICE_WALLET: 'XEI2YQ47YAEDJEOYE3KQTYJNRCA2G2TO7U4STRYMOOXAZMIHRQ7HEEPGOA',
    });
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]).toMatch(/^ALGORAND_SERVICE_WALLET: .*checksum/);
    expect(err.message).toContain('ALGORAND_SERVICE_WALLET');
  });

  it('names every bad variable at once', () => {
    const err = configError({
      ALGORAND_SERVICE_WALLET: '0x0000000000000000000000000000000000000001',
      ALGORAND_USDC_ASSET_ID: '-5',
      ALGORAND_MIN_FEE_BALANCE_MICROALGO: '0.5',
      ALGORAND_CONFIRMATIONS: '0',
      INDEXER_URL: 'not a url',
    });
    const named = err.issues.map((i) => i.split(':')[0]).sort();
    expect(named).toEqual([
      'ALGORAND_CONFIRMATIONS',
      'ALGORAND_MIN_FEE_BALANCE_MICROALGO',
      'ALGORAND_SERVICE_WALLET',
      'ALGORAND_USDC_ASSET_ID',
      'INDEXER_URL',
    ]);
  });
});

describe('createAlgorandClients', () => {
  it("reaches algod and the indexer on their URLs' own ports, with their tokens", async () => {
    const fake = await startFakeAlgorand({
      round: 77,
      algodToken: 'algod-secret',
      indexerToken: 'indexer-secret',
    });
    try {
      const config = loadAlgorandConfig({
        ALGOD_URL: fake.algodUrl,
        ALGOD_TOKEN: 'algod-secret',
        INDEXER_URL: fake.indexerUrl,
        INDEXER_TOKEN: 'indexer-secret',
      });
      const { algod, indexer } = createAlgorandClients(config);
      expect((await algod.status().do()).lastRound).toBe(77n);
      expect((await indexer.makeHealthCheck().do()).round).toBe(77n);
    } finally {
      await fake.close();
    }
  });
});
