/** Kenyan phone numbers as the ramp wants them: `254` and nine digits. */

const KENYAN = /^254[17]\d{8}$/;

/**
 * Normalises `07…`, `01…`, `7…`, `1…`, `+254…`, `254…` (spaces, dashes, dots and brackets allowed)
 * to `254XXXXXXXXX`; returns undefined when it is not a Kenyan mobile number.
 */
export function normalizeKenyanPhone(input: string): string | undefined {
  const compact = input.trim().replace(/[\s\-.()]/g, '');
  let digits: string;
  if (/^\+254\d{9}$/.test(compact)) digits = compact.slice(1);
  else if (/^254\d{9}$/.test(compact)) digits = compact;
  else if (/^0[17]\d{8}$/.test(compact)) digits = `254${compact.slice(1)}`;
  else if (/^[17]\d{8}$/.test(compact)) digits = `254${compact}`;
  else return undefined;
  return KENYAN.test(digits) ? digits : undefined;
}

/** `254712345678` -> `2547••••5678`; anything else keeps only its last 2 characters. */
export function maskPhone(phone: string): string {
  const p = String(phone);
  if (p.length >= 8) return `${p.slice(0, 4)}${'•'.repeat(p.length - 8)}${p.slice(-4)}`;
  return `${'•'.repeat(Math.max(0, p.length - 2))}${p.slice(-2)}`;
}
