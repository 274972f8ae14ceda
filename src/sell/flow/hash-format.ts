/**
 * The spelling of a transaction hash on each kind of chain, in one place: the chat, the page's report
 * and verification all read hashes with these. A leaf module (pure, no imports).
 */

/** An EVM transaction hash: `0x` and 64 hex digits. */
export const EVM_HASH = /^0x[0-9a-fA-F]{64}$/;
/** An Algorand transaction id: 52 base32 characters (A–Z, 2–7), the last one A or Q. */
export const ALGORAND_TXID = /^[A-Z2-7]{51}[AQ]$/;

/** The EVM hash in lower case, or undefined when the text is not one. */
export const evmHash = (text: string): string | undefined => {
  const t = text.trim();
  return EVM_HASH.test(t) ? t.toLowerCase() : undefined;
};

/** The Algorand transaction id in upper case, or undefined when the text is not one. */
export const algorandTxId = (text: string): string | undefined => {
  const t = text.trim().toUpperCase();
  return ALGORAND_TXID.test(t) ? t : undefined;
};
