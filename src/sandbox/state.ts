/**
 * The sandbox's memory: orders, the simulated M-Pesa, tickets. Settlement is computed when an order
 * is read (created + settleMs), so there are no timers to leak. Outcomes follow the phone number.
 */
import type { Network } from '../domain/types.js';
import type { SandboxToken } from './catalog.js';
import { checkoutRequestId, mpesaReceipt, objectId, orderId } from './ids.js';

/** What the simulated M-Pesa does with a phone number (by its last four digits). */
export type Outcome = 'success' | 'failed' | 'never' | 'cancelled';

export const PHONE_OUTCOMES: { suffix: string; outcome: Outcome; onramp: string; offramp: string }[] = [
  {
    suffix: '0001',
    outcome: 'failed',
    onramp: 'FAILED "Insufficient balance"',
    offramp: 'FAILED "Transaction timeout" (resultCode 1037)',
  },
  { suffix: '0002', outcome: 'never', onramp: 'stays PENDING', offramp: 'stays PENDING' },
  {
    suffix: '0003',
    outcome: 'cancelled',
    onramp: 'cancelled by user (legacy CANCELLED, current FAILED)',
    offramp: 'FAILED "Request cancelled by user" (resultCode 1032)',
  },
];

export function outcomeOf(phone: string): Outcome {
  return PHONE_OUTCOMES.find((p) => phone.endsWith(p.suffix))?.outcome ?? 'success';
}

const NAMES = [
  'Jane Doe',
  'Wanjiku Kamau',
  'Otieno Odhiambo',
  'Achieng Atieno',
  'Kiprono Kibet',
  'Mwangi Njoroge',
  'Amina Hassan',
  'Mutua Musyoka',
];

export type SettledStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'CANCELLED';

interface OrderBase {
  id: string;
  recordId: string;
  phone: string;
  token: SandboxToken;
  tokenAddress: string;
  rate: number;
  feeKes: number;
  createdAt: number;
  outcome: Outcome;
  receipt: string;
}

export interface OnrampOrder extends OrderBase {
  kind: 'onramp';
  amountKes: number;
  userAddress: string;
  checkoutRequestId: string;
  release?: { hash: string; chain: string; address: string; at: number };
}

export interface OfframpOrder extends OrderBase {
  kind: 'offramp';
  chain: Network;
  hash: string;
  userAddress?: string;
  project?: string;
  tokens: number;
  grossKes: number;
  feeTokens: string;
  receiverName: string;
}

export interface TicketRecord {
  PhoneNumber: string;
  Amount: string;
  Description: string;
  Side: string;
  userAddress: string;
  symbol: string;
  tokenAddress: string;
  chain: string;
  _id: string;
  createdAt: string;
  orderID?: string;
}

export class SandboxState {
  readonly onramp = new Map<string, OnrampOrder>();
  readonly offramp = new Map<string, OfframpOrder>();
  /** Off-ramp hashes already filed -> order id. */
  readonly hashes = new Map<string, string>();
  readonly tickets: TicketRecord[] = [];
  readonly depositCalls = new Map<string, number>();
  /** Last off-ramp quote per `network:symbol`, the amount assumed when a hash check does not give one. */
  readonly lastOfframpQuote = new Map<string, number>();

  /** While true, nothing settles: every payment made meanwhile settles together once it is let go. */
  holding = false;

  /** How long a payment takes to settle (ms). */
  constructor(readonly settleMs: number) {}

  newOrderId(prefix: 'D' | 'WD', now: number): string {
    for (;;) {
      const id = orderId(prefix, now);
      if (!this.onramp.has(id) && !this.offramp.has(id)) return id;
    }
  }

  /** The STK request follows the order by about two seconds (less when settling is quicker). */
  stkAt(createdAt: number): number {
    return createdAt + Math.min(2000, Math.floor(this.settleMs / 2));
  }

  settled(o: OrderBase, now = Date.now()): boolean {
    return !this.holding && o.outcome !== 'never' && now - o.createdAt >= this.settleMs;
  }

  statusOf(o: OnrampOrder | OfframpOrder, now = Date.now()): SettledStatus {
    if (!this.settled(o, now)) return 'PENDING';
    if (o.outcome === 'success') return 'SUCCESS';
    if (o.outcome === 'cancelled' && o.kind === 'onramp') return 'CANCELLED';
    return 'FAILED';
  }

  addOnramp(
    input: Omit<OnrampOrder, 'kind' | 'id' | 'recordId' | 'checkoutRequestId' | 'receipt' | 'outcome'>,
  ) {
    const id = this.newOrderId('D', input.createdAt);
    const order: OnrampOrder = {
      ...input,
      kind: 'onramp',
      id,
      recordId: objectId(input.createdAt),
      checkoutRequestId: checkoutRequestId(this.stkAt(input.createdAt), input.phone),
      outcome: outcomeOf(input.phone),
      receipt: mpesaReceipt(input.createdAt + this.settleMs),
    };
    this.onramp.set(id, order);
    return order;
  }

  addOfframp(
    input: Omit<OfframpOrder, 'kind' | 'id' | 'recordId' | 'receipt' | 'outcome' | 'receiverName'>,
  ): OfframpOrder {
    const id = this.newOrderId('WD', input.createdAt);
    const order: OfframpOrder = {
      ...input,
      kind: 'offramp',
      id,
      recordId: objectId(input.createdAt),
      outcome: outcomeOf(input.phone),
      receipt: mpesaReceipt(input.createdAt + this.settleMs),
      receiverName: NAMES[Number(input.phone.slice(-3)) % NAMES.length]!,
    };
    this.offramp.set(id, order);
    this.hashes.set(hashKey(input.hash), id);
    return order;
  }
}

/** EVM hashes compare without case; Algorand ids are upper-case base32 already. */
export const hashKey = (hash: string) => (hash.startsWith('0x') ? hash.toLowerCase() : hash);
