/**
 * The fake must speak the real wire format, since other tests trust it: these read its raw bodies
 * and check the field names and encodings a real algod/indexer uses.
 */
import algosdk from 'algosdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAlgorand, startFakeAlgorand } from '../../fakes/algorand.js';

const addr = () => algosdk.generateAccount().addr.toString();

describe('fake algod + indexer wire format', () => {
  let fake: FakeAlgorand;
  beforeAll(async () => {
    fake = await startFakeAlgorand({ round: 200 });
  });
  afterAll(() => fake.close());

  it('indexer transactions use the real JSON field names and base64 notes', async () => {
    const [sender, receiver, closeTo] = [addr(), addr(), addr()];
    const id = fake.addAssetTransfer({
      sender,
      receiver,
      assetId: 31566704n,
      amount: 7n,
      note: 'hi',
      round: 150,
      closeTo,
    });
    const raw = JSON.parse(new TextDecoder().decode(await fake.indexer().lookupTransactionByID(id).doRaw()));
    expect(raw['current-round']).toBe(200);
    expect(raw.transaction).toMatchObject({
      id,
      sender,
      'tx-type': 'axfer',
      'confirmed-round': 150,
      note: Buffer.from('hi').toString('base64'),
      'asset-transfer-transaction': { 'asset-id': 31566704, amount: 7, receiver, 'close-to': closeTo },
    });
  });

  it('the generated id is the real id of the transaction algod hands out (msgpack, as algosdk asks)', async () => {
    const sender = addr();
    const id = fake.addAssetTransfer({ sender, receiver: addr(), assetId: 1n, amount: 1n, note: 'n' });
    const before = fake.calls.length;
    const pending = await fake.algod().pendingTransactionInformation(id).do();
    expect(fake.calls[before]?.query.format).toBe('msgpack');
    expect(pending.confirmedRound).toBeUndefined();
    expect(pending.txn.txn.txID()).toBe(id);
    expect(pending.txn.txn.sender.toString()).toBe(sender);
  });

  it('answers health, status and 404s the way algosdk expects', async () => {
    const health = await fake.indexer().makeHealthCheck().do();
    expect(health.round).toBe(200n);
    fake.setRound(201);
    expect((await fake.algod().status().do()).lastRound).toBe(201n);
    const missing = fake.algod().accountAssetInformation(addr(), 31566704n).do();
    await expect(missing).rejects.toMatchObject({ status: 404 });
  });

  it('account bodies carry min-balance and the asset list unless excluded', async () => {
    const address = addr();
    fake.addAccount({ address, microAlgos: 1_000_000n, assets: [{ assetId: 5n, amount: 9n }] });
    const full = JSON.parse(new TextDecoder().decode(await fake.algod().accountInformation(address).doRaw()));
    expect(full).toMatchObject({
      address,
      amount: 1_000_000,
      'min-balance': 200_000,
      assets: [{ 'asset-id': 5, amount: 9 }],
    });
    const slim = await fake.algod().accountInformation(address).exclude('all').do();
    expect(slim.assets).toBeUndefined();
    expect(slim.minBalance).toBe(200_000n);
  });
});
