/** HTTP status of an algod/indexer error thrown by algosdk, when the node answered. */
export function nodeErrorStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const status = (err as { status?: unknown; response?: { status?: unknown } }).status;
  if (typeof status === 'number') return status;
  const inner = (err as { response?: { status?: unknown } }).response?.status;
  return typeof inner === 'number' ? inner : undefined;
}

export const isNotFound = (err: unknown) => nodeErrorStatus(err) === 404;
