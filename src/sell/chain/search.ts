/**
 * Finding an EVM sale's deposit on chain when nobody reported its hash (the page closed before it
 * could, a link holder never posted, Redis lost the sale). The escrow's `Deposited` event indexes the
 * amount sent (fee included: the sale's exact total), so one `eth_getLogs` over the sale's window asks
 * for deposits of that amount; a candidate is kept when its transaction carries the sale's tag.
 * Candidates only: each is verified as a reported hash is. On Algorand the indexer finds the payment
 * by the sale's note (`findAlgorandDeposit`).
 */
import type { Indexer } from 'algosdk';
import { type Address, encodeEventTopics, type Hex, type PublicClient, pad, toHex } from 'viem';
import { findPayment } from '../../chains/algorand/index.js';
import { depositedV1Event, depositedV2Event, splitSellTag } from '../../chains/evm/index.js';
import type { SellIntent } from '../intents/intents.js';

/** More blocks than this in a sale's window: not a cheap question, left to the user and support. */
const MAX_SPAN = 100_000n;

const TOPIC0 = [
  encodeEventTopics({ abi: [depositedV1Event], eventName: 'Deposited' })[0],
  encodeEventTopics({ abi: [depositedV2Event], eventName: 'Deposited' })[0],
] as Hex[];

interface RawLog {
  transactionHash: Hex | null;
  blockNumber: Hex | null;
}

/**
 * Hashes (lower case) of escrow deposits of the sale's exact total, tagged for the sale, mined from
 * shortly before the sale was created up to now. Throws when the chain does not answer.
 */
export async function findEscrowDeposits(client: PublicClient, intent: SellIntent): Promise<string[]> {
  const evm = intent.evm;
  if (!evm) return [];
  const latest = await client.getBlock();
  const fromBlock = await blockNear(client, latest, Math.floor(intent.createdAt / 1000) - 60);
  if (latest.number - fromBlock > MAX_SPAN) return [];
  const logs = (await client.request({
    method: 'eth_getLogs',
    params: [
      {
        address: evm.escrow as Address,
        topics: [TOPIC0, pad(toHex(BigInt(intent.totalUnits)))],
        fromBlock: toHex(fromBlock),
        toBlock: toHex(latest.number),
      },
    ],
  })) as RawLog[];
  const hashes = [
    ...new Set(logs.flatMap((l) => (l.transactionHash ? [l.transactionHash.toLowerCase()] : []))),
  ];
  const tagged: string[] = [];
  for (const hash of hashes) {
    const tx = await client.getTransaction({ hash: hash as Hex });
    if (splitSellTag(tx.input).tag === evm.tag.toLowerCase()) tagged.push(hash);
  }
  return tagged;
}

/** A block at or before `seconds`, estimated from the average block time over the last blocks. */
async function blockNear(
  client: PublicClient,
  latest: { number: bigint; timestamp: bigint },
  seconds: number,
): Promise<bigint> {
  const target = BigInt(seconds);
  if (latest.timestamp <= target) return latest.number;
  const back = latest.number < 1000n ? latest.number : 1000n;
  if (back === 0n) return 0n;
  const earlier = await client.getBlock({ blockNumber: latest.number - back });
  const perBlock = Number(latest.timestamp - earlier.timestamp) / Number(back) || 1;
  // A fifth more blocks than the estimate: the window is never cut short by a slow stretch.
  const blocks = BigInt(Math.ceil((Number(latest.timestamp - target) / perBlock) * 1.2)) + 10n;
  return blocks >= latest.number ? 0n : latest.number - blocks;
}

/** The id of an Algorand sale's payment (by its note, of its exact total), if the indexer has one. */
export function findAlgorandDeposit(
  indexer: Indexer,
  sale: NonNullable<SellIntent['algorand']>,
  totalUnits: string,
): Promise<string | undefined> {
  return findPayment(indexer, {
    receiver: sale.receiver,
    assetId: BigInt(sale.assetId),
    note: sale.note,
    minRound: BigInt(sale.minRound),
    amount: BigInt(totalUnits),
  });
}
