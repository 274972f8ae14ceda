/** Whether a reported transaction went into a sale's escrow, read from the chain. */
import { type Address, type Hex, isAddressEqual } from 'viem';
import type { SigningIntent, SigningService } from './ports.js';

/**
 * True when a report names a transaction into this sale's escrow and the sale is not filed yet (open,
 * expired, cancelled, or refused by the ramp): a deposit confirmed in the wallet as the link expired
 * or the sale was cancelled is still checked (the service applies the order's window and grace, files
 * a payment after a cancel saying so, and hands one after a refusal to support), while guesses and
 * filed sales are turned away.
 */
export async function sentToEscrow(
  service: SigningService,
  intent: SigningIntent,
  hash: string,
): Promise<boolean> {
  const client = service.evmRuntime(intent.network)?.client;
  const unfiled = ['open', 'expired', 'cancelled', 'refused'].includes(intent.status);
  if (!intent.evm || !client || !unfiled || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return false;
  const tx = await client.getTransaction({ hash: hash as Hex }).catch(() => undefined);
  return !!tx?.to && isAddressEqual(tx.to, intent.evm.escrow as Address);
}

/** A reported hash, still being checked, that did go into the escrow: the sale needs no second deposit. */
export async function reportedDeposit(
  service: SigningService,
  intent: SigningIntent,
): Promise<string | undefined> {
  for (const { hash } of intent.pending) if (await sentToEscrow(service, intent, hash)) return hash;
  return undefined;
}
