/** Token amounts as decimal text and as base units (bigint). Pure. */

/** Decimal text to base units, rounding up any digits the token cannot hold (never asks for less). */
export function toBaseUnits(value: string, decimals: number): bigint {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!m || (m[1] === '' && !m[2])) throw new RangeError(`not a decimal amount: ${value}`);
  const frac = m[2] ?? '';
  const kept = frac.slice(0, decimals).padEnd(decimals, '0');
  let units = BigInt(`${m[1] || '0'}${kept}`);
  if (/[1-9]/.test(frac.slice(decimals))) units += 1n;
  return units;
}

/** Base units back to decimal text. */
export function fromBaseUnits(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals);
  const frac = decimals > 0 ? s.slice(s.length - decimals).replace(/0+$/, '') : '';
  return frac ? `${int}.${frac}` : int;
}
