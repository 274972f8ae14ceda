/**
 * The stand-in's chain state: accounts, transactions and the head round. Transactions are built as
 * real algosdk transactions (so their ids are real) and kept with the view the indexer serves.
 * A transaction with a round above the head (or with no round) is still pending.
 */
import { randomBytes } from 'node:crypto';
import algosdk from 'algosdk';

const { indexerModels } = algosdk;

const GENESIS_ID = 'mainnet-v1.0';
const GENESIS_HASH = algosdk.base64ToBytes('wGHE2Pwdvd7S12BL5FaOP20EGYesN73ktiC1qzkkit8=');

export interface FakeAccountInput {
  address: string;
  microAlgos: bigint;
  /** Opted-in assets; an asset absent here is not opted in. */
  assets?: Array<{ assetId: bigint | number; amount: bigint; frozen?: boolean }>;
}

export interface FakeAssetTransferInput {
  sender: string;
  receiver: string;
  assetId: bigint | number;
  amount: bigint;
  note?: string | Uint8Array;
  /** Confirmed round; omitted or above the head = still pending. */
  round?: bigint | number;
  /** Asset close-to address (closes the sender's holding). */
  closeTo?: string;
  /** Makes it a clawback: the asset is taken from this account, `sender` is the clawback. */
  clawbackFrom?: string;
  /** Override the generated id (must still be 52 base32 characters to be found by verifiers). */
  id?: string;
}

export interface FakeAlgoPaymentInput {
  sender: string;
  receiver: string;
  microAlgos: bigint;
  note?: string | Uint8Array;
  round?: bigint | number;
}

export interface FakeInnerTransferInput {
  /** Account calling the app. */
  sender: string;
  appId: bigint | number;
  /** The asset transfer the app makes as an inner transaction. */
  inner: { receiver: string; assetId: bigint | number; amount: bigint; note?: string | Uint8Array };
  note?: string | Uint8Array;
  round?: bigint | number;
}

export interface Stored {
  id: string;
  round?: bigint;
  /** The transaction as a node holds it (for algod's pending endpoint). */
  txn: algosdk.Transaction;
  /** The transaction as the indexer shows it, without round fields (added when served). */
  view: Omit<ConstructorParameters<typeof indexerModels.Transaction>[0], 'confirmedRound' | 'roundTime'>;
}

/** A note as bytes (strings are UTF-8). */
export const toBytes = (note: string | Uint8Array | undefined) =>
  note === undefined ? undefined : typeof note === 'string' ? new TextEncoder().encode(note) : note;

const roundOf = (round: bigint | number | undefined) => (round === undefined ? undefined : BigInt(round));

export class FakeLedger {
  head: bigint;
  readonly accounts = new Map<string, FakeAccountInput>();
  readonly txns: Stored[] = [];
  private seq = 0;

  constructor(round: bigint | number) {
    this.head = BigInt(round);
  }

  /** Confirmed at or below the head: the indexer shows it. */
  isVisible(t: Stored): boolean {
    return t.round !== undefined && t.round <= this.head;
  }

  /** Its position among the transactions of its round. */
  offsetInRound(t: Stored): number {
    return this.txns.filter((x) => x.round === t.round).indexOf(t);
  }

  /** The transaction as the indexer shows it, with its round fields. */
  indexerView(t: Stored): algosdk.indexerModels.Transaction {
    return new indexerModels.Transaction({
      ...t.view,
      confirmedRound: t.round,
      roundTime: 1_700_000_000 + Number(t.round ?? 0n) * 3,
      intraRoundOffset: this.offsetInRound(t),
    });
  }

  addAccount(input: FakeAccountInput): void {
    if (!algosdk.isValidAddress(input.address)) throw new TypeError(`bad address ${input.address}`);
    this.accounts.set(input.address, input);
  }

  /** Adds an asset transfer; returns its transaction id. */
  addAssetTransfer(input: FakeAssetTransferInput): string {
    const txn = algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({
      sender: input.sender,
      receiver: input.receiver,
      amount: input.amount,
      assetIndex: input.assetId,
      note: toBytes(input.note),
      closeRemainderTo: input.closeTo,
      assetSender: input.clawbackFrom,
      suggestedParams: this.suggested(roundOf(input.round)),
    });
    const id = input.id ?? txn.txID();
    return this.store(
      txn,
      {
        ...this.common(txn, id),
        txType: 'axfer',
        assetTransferTransaction: new indexerModels.TransactionAssetTransfer({
          amount: input.amount,
          assetId: input.assetId,
          receiver: input.receiver,
          closeTo: input.closeTo,
          closeAmount: input.closeTo ? 0n : undefined,
          sender: input.clawbackFrom,
        }),
      },
      input.round,
    );
  }

  addAlgoPayment(input: FakeAlgoPaymentInput): string {
    const txn = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
      sender: input.sender,
      receiver: input.receiver,
      amount: input.microAlgos,
      note: toBytes(input.note),
      suggestedParams: this.suggested(roundOf(input.round)),
    });
    const id = txn.txID();
    return this.store(
      txn,
      {
        ...this.common(txn, id),
        txType: 'pay',
        paymentTransaction: new indexerModels.TransactionPayment({
          amount: input.microAlgos,
          receiver: input.receiver,
        }),
      },
      input.round,
    );
  }

  addAppCallWithInnerTransfer(input: FakeInnerTransferInput): string {
    const txn = algosdk.makeApplicationNoOpTxnFromObject({
      sender: input.sender,
      appIndex: input.appId,
      note: toBytes(input.note),
      suggestedParams: this.suggested(roundOf(input.round)),
    });
    const id = txn.txID();
    const appAddress = algosdk.getApplicationAddress(input.appId).toString();
    const inner = new indexerModels.Transaction({
      fee: 0,
      firstValid: txn.firstValid,
      lastValid: txn.lastValid,
      sender: appAddress,
      txType: 'axfer',
      note: toBytes(input.inner.note),
      confirmedRound: input.round,
      assetTransferTransaction: new indexerModels.TransactionAssetTransfer({
        amount: input.inner.amount,
        assetId: input.inner.assetId,
        receiver: input.inner.receiver,
      }),
    });
    return this.store(
      txn,
      {
        ...this.common(txn, id),
        txType: 'appl',
        applicationTransaction: new indexerModels.TransactionApplication({
          applicationId: input.appId,
          onCompletion: 'noop',
        }),
        innerTxns: [inner],
      },
      input.round,
    );
  }

  private suggested(round: bigint | undefined): algosdk.SuggestedParams {
    this.seq += 1;
    const anchor = round ?? this.head;
    // A distinct validity window per transaction keeps ids unique even for identical transfers.
    const firstValid = anchor > BigInt(this.seq) ? anchor - BigInt(this.seq) : 1n;
    return {
      flatFee: true,
      fee: 1000,
      minFee: 1000,
      firstValid,
      lastValid: firstValid + 1000n,
      genesisID: GENESIS_ID,
      genesisHash: GENESIS_HASH,
    };
  }

  private common(txn: algosdk.Transaction, id: string) {
    return {
      fee: txn.fee,
      firstValid: txn.firstValid,
      lastValid: txn.lastValid,
      sender: txn.sender.toString(),
      genesisHash: GENESIS_HASH,
      genesisId: GENESIS_ID,
      id,
      note: txn.note.length > 0 ? txn.note : undefined,
      signature: new indexerModels.TransactionSignature({ sig: randomBytes(64) }),
    };
  }

  private store(txn: algosdk.Transaction, view: Stored['view'], round?: bigint | number): string {
    this.txns.push({ id: view.id!, round: roundOf(round), txn, view });
    return view.id!;
  }
}
