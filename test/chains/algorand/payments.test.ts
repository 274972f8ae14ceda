import algosdk from 'algosdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  currentRound,
  DEFAULT_SERVICE_WALLET,
  type ExpectedPayment,
  findPayment,
  isAlgorandTxId,
  newSellNote,
  parseAlgorandTxId,
  USDC_ASSET_ID,
  verifyPayment,
} from '../../../src/chains/algorand/index.js';
import { type FakeAlgorand, startFakeAlgorand } from '../../fakes/algorand.js';

const addr = () => algosdk.generateAccount().addr.toString();
const service = DEFAULT_SERVICE_WALLET;
const assetId = USDC_ASSET_ID;
const total = 25_500_000n;
let orderSeq = 0;

describe('Algorand payments (real algosdk against the fake algod + indexer)', () => {
  let fake: FakeAlgorand;
  let clients: { algod: algosdk.Algodv2; indexer: algosdk.Indexer };
  beforeAll(async () => {
    fake = await startFakeAlgorand({ round: 5000 });
    clients = { algod: fake.algod(), indexer: fake.indexer() };
  });
  afterAll(() => fake.close());

  /** A new order starting at the current head, with its own note and seller. */
  async function newOrder(over: Partial<ExpectedPayment> = {}) {
    const minRound = await currentRound(clients.algod);
    const expected: ExpectedPayment = {
      receiver: service,
      assetId,
      total,
      note: newSellNote(`order-${++orderSeq}`),
      minRound,
      confirmations: 3,
      ...over,
    };
    return { expected, seller: addr(), minRound };
  }
  /** Moves the head on and returns the round a transfer lands in, already 3 deep. */
  function nextRound() {
    const round = fake.round() + 1n;
    fake.setRound(round + 2n);
    return round;
  }
  const pay = (
    o: Awaited<ReturnType<typeof newOrder>>,
    over: Partial<Parameters<FakeAlgorand['addAssetTransfer']>[0]> = {},
  ) =>
    fake.addAssetTransfer({
      sender: o.seller,
      receiver: service,
      assetId,
      amount: total,
      note: o.expected.note,
      ...over,
      round: 'round' in over ? over.round : nextRound(),
    });

  it('currentRound reads the node head', async () => {
    fake.setRound(5000);
    expect(await currentRound(clients.algod)).toBe(5000n);
    fake.setRound(5003);
    expect(await currentRound(clients.algod)).toBe(5003n);
  });

  describe('findPayment', () => {
    it('finds the transfer carrying the order note among others, asking the indexer the narrow question', async () => {
      const o = await newOrder();
      const other = await newOrder();
      pay(other);
      fake.addAssetTransfer({
        sender: o.seller,
        receiver: addr(),
        assetId,
        amount: total,
        note: o.expected.note,
        round: nextRound(),
      });
      fake.addAssetTransfer({
        sender: o.seller,
        receiver: service,
        assetId: 999n,
        amount: total,
        note: o.expected.note,
        round: nextRound(),
      });
      const id = pay(o);
      const callsBefore = fake.calls.length;

      const found = await findPayment(clients.indexer, { ...o.expected, amount: total });
      expect(found).toBe(id);
      const search = fake.calls
        .slice(callsBefore)
        .find((c) => c.service === 'indexer' && c.path === '/v2/transactions');
      expect(search?.query).toMatchObject({
        address: service,
        'address-role': 'receiver',
        'asset-id': String(assetId),
        'tx-type': 'axfer',
        'note-prefix': Buffer.from(o.expected.note).toString('base64'),
        'min-round': String(o.minRound + 1n),
      });
    });

    it('returns undefined while nothing has arrived, and ignores transfers from before the order', async () => {
      const o = await newOrder();
      expect(await findPayment(clients.indexer, o.expected)).toBeUndefined();
      fake.addAssetTransfer({
        sender: o.seller,
        receiver: service,
        assetId,
        amount: total,
        note: o.expected.note,
        round: o.minRound,
      });
      expect(await findPayment(clients.indexer, o.expected)).toBeUndefined();
    });

    it('does not see a pending transfer until its round is reached', async () => {
      const o = await newOrder();
      const round = fake.round() + 4n;
      const id = pay(o, { round });
      expect(await findPayment(clients.indexer, o.expected)).toBeUndefined();
      fake.setRound(round);
      expect(await findPayment(clients.indexer, o.expected)).toBe(id);
    });

    it('prefers the transfer with the right amount, else returns the first so it can be explained', async () => {
      const o = await newOrder();
      const wrong = pay(o, { amount: total - 1n });
      const right = pay(o);
      expect(await findPayment(clients.indexer, { ...o.expected, amount: total })).toBe(right);
      expect(await findPayment(clients.indexer, o.expected)).toBe(wrong);
      expect(await findPayment(clients.indexer, { ...o.expected, amount: 1n })).toBe(wrong);
    });

    it('pages through the indexer and matches the note exactly, not by prefix', async () => {
      const o = await newOrder();
      const round = nextRound();
      for (let i = 0; i < 120; i++) {
        fake.addAssetTransfer({
          sender: addr(),
          receiver: service,
          assetId,
          amount: total,
          note: `${o.expected.note}-${i}`,
          round,
        });
      }
      const id = pay(o);
      const before = fake.calls.length;
      expect(await findPayment(clients.indexer, o.expected)).toBe(id);
      const pages = fake.calls.slice(before).filter((c) => c.path === '/v2/transactions');
      expect(pages.length).toBe(2);
      expect(pages[1]?.query.next).toBeTruthy();
    });
  });

  describe('verifyPayment', () => {
    it('accepts the right transfer and returns sender, round and id', async () => {
      const o = await newOrder();
      const id = pay(o);
      const verdict = await verifyPayment(clients, o.expected, id);
      expect(verdict).toEqual({
        ok: true,
        txId: id,
        sender: o.seller,
        round: fake.round() - 2n,
        amount: total,
      });
    });

    it('accepts the bound sender and refuses any other (wrong_sender)', async () => {
      const o = await newOrder();
      const id = pay(o);
      expect((await verifyPayment(clients, { ...o.expected, sender: o.seller }, id)).ok).toBe(true);
      expect(await verifyPayment(clients, { ...o.expected, sender: addr() }, id)).toMatchObject({
        ok: false,
        reason: 'wrong_sender',
        sender: o.seller,
      });
    });

    const refusals: Array<[string, (o: Awaited<ReturnType<typeof newOrder>>) => string]> = [
      ['wrong_receiver', (o) => pay(o, { receiver: addr() })],
      ['wrong_asset', (o) => pay(o, { assetId: 10458941n })],
      ['wrong_amount', (o) => pay(o, { amount: total + 1n })],
      ['wrong_note', (o) => pay(o, { note: `${o.expected.note}x` })],
      ['wrong_note', (o) => pay(o, { note: undefined })],
      ['close_out', (o) => pay(o, { closeTo: addr() })],
      ['close_out', (o) => pay(o, { closeTo: service })],
      ['clawback', (o) => pay(o, { clawbackFrom: addr() })],
      [
        'wrong_type',
        (o) =>
          fake.addAlgoPayment({
            sender: o.seller,
            receiver: service,
            microAlgos: total,
            note: o.expected.note,
            round: nextRound(),
          }),
      ],
      [
        'inner_transfer',
        (o) =>
          fake.addAppCallWithInnerTransfer({
            sender: o.seller,
            appId: 1234n,
            inner: { receiver: service, assetId, amount: total, note: o.expected.note },
            round: nextRound(),
          }),
      ],
      ['too_early', (o) => pay(o, { round: o.minRound })],
      ['too_early', (o) => pay(o, { round: o.minRound - 50n })],
    ];
    it.each(refusals)('refuses %s', async (reason, make) => {
      const o = await newOrder();
      const id = make(o);
      const verdict = await verifyPayment(clients, o.expected, id);
      expect(verdict).toMatchObject({ ok: false, reason });
      if (!verdict.ok) expect(verdict.detail).toContain(id);
    });

    it('a transfer confirmed in the round right after the order start is not too early', async () => {
      const o = await newOrder();
      const id = pay(o, { round: o.minRound + 1n });
      fake.setRound(o.minRound + 3n);
      expect((await verifyPayment(clients, o.expected, id)).ok).toBe(true);
    });

    it('says not_confirmed while pending on the node, and accepts once confirmed deep enough', async () => {
      const o = await newOrder();
      const round = fake.round() + 1n;
      const id = pay(o, { round });
      expect(await verifyPayment(clients, o.expected, id)).toMatchObject({
        ok: false,
        reason: 'not_confirmed',
      });
      // Without algod the indexer alone cannot tell pending from unknown.
      expect(await verifyPayment({ indexer: clients.indexer }, o.expected, id)).toMatchObject({
        ok: false,
        reason: 'not_found',
      });
      fake.setRound(round);
      expect(await verifyPayment(clients, o.expected, id)).toMatchObject({
        ok: false,
        reason: 'not_confirmed',
        detail: `${id}: 1 of 3 confirmations`,
      });
      fake.setRound(round + 2n);
      expect((await verifyPayment(clients, o.expected, id)).ok).toBe(true);
      expect((await verifyPayment(clients, { ...o.expected, confirmations: 1 }, id)).ok).toBe(true);
    });

    it('says not_found for a well-formed id nobody knows', async () => {
      const o = await newOrder();
      const unknown = algosdk
        .makeAssetTransferTxnWithSuggestedParamsFromObject({
          sender: o.seller,
          receiver: service,
          amount: 1n,
          assetIndex: assetId,
          suggestedParams: { fee: 1000, minFee: 1000, flatFee: true, firstValid: 1, lastValid: 1000 },
        })
        .txID();
      expect(await verifyPayment(clients, o.expected, unknown)).toMatchObject({
        ok: false,
        reason: 'not_found',
      });
    });

    it('says invalid_id for text that is not a transaction id, without asking the indexer', async () => {
      const o = await newOrder();
      const before = fake.calls.length;
      expect(await verifyPayment(clients, o.expected, '0xabc')).toMatchObject({
        ok: false,
        reason: 'invalid_id',
      });
      expect(fake.calls.length).toBe(before);
    });

    it('throws when the indexer refuses the token', async () => {
      const guarded = await startFakeAlgorand({ indexerToken: 'secret' });
      try {
        const o = await newOrder();
        const id = guarded.addAssetTransfer({
          sender: o.seller,
          receiver: service,
          assetId,
          amount: total,
          note: o.expected.note,
          round: 10,
        });
        await expect(verifyPayment({ indexer: guarded.indexer('nope') }, o.expected, id)).rejects.toThrow(
          /401/,
        );
        guarded.setRound(10);
        expect(
          (
            await verifyPayment(
              { indexer: guarded.indexer() },
              { ...o.expected, minRound: 9n, confirmations: 1 },
              id,
            )
          ).ok,
        ).toBe(true);
      } finally {
        await guarded.close();
      }
    });
  });

  describe('transaction id format', () => {
    it('accepts real ids and refuses look-alikes', () => {
      const id = fake.addAssetTransfer({ sender: addr(), receiver: service, assetId, amount: 1n, round: 1 });
      expect(id).toHaveLength(52);
      expect(isAlgorandTxId(id)).toBe(true);
      expect(isAlgorandTxId(id.toLowerCase())).toBe(false);
      expect(isAlgorandTxId(id.slice(1))).toBe(false);
      expect(isAlgorandTxId(`${id}A`)).toBe(false);
      expect(isAlgorandTxId(`${id.slice(0, 51)}B`)).toBe(false); // 32 bytes leave the last 4 bits zero
      expect(isAlgorandTxId(`${id.slice(0, 10)}1${id.slice(11)}`)).toBe(false); // 1 is not base32
      expect(isAlgorandTxId(`0x${'ab'.repeat(32)}`)).toBe(false);
    });

    it('pulls the id out of what a user pastes', () => {
      const id = fake.addAssetTransfer({ sender: addr(), receiver: service, assetId, amount: 1n, round: 1 });
      expect(parseAlgorandTxId(`  ${id}\n`)).toBe(id);
      expect(parseAlgorandTxId(id.toLowerCase())).toBe(id);
      expect(parseAlgorandTxId(`https://allo.info/tx/${id}`)).toBe(id);
      expect(parseAlgorandTxId(`sent! ${id} thanks`)).toBe(id);
      expect(parseAlgorandTxId(`${id}AB`)).toBeUndefined();
      expect(parseAlgorandTxId('hello')).toBeUndefined();
    });
  });
});
