/**
 * Decimal text arithmetic on bigints, so token amounts never round-trip through floats.
 * Accepts plain decimals ("0.7738740133106331", "-12", ".5") and exponent forms ("1e-7").
 */

interface Fixed {
  units: bigint;
  scale: number;
}

const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const EXPONENT = /^([+-]?\d*(?:\.\d*)?)[eE]([+-]?\d+)$/;

function parseFixed(value: string | number): Fixed | undefined {
  let text = typeof value === 'number' ? numberToText(value) : value.trim().replace(/_/g, '');
  if (text === undefined) return undefined;
  const exp = EXPONENT.exec(text);
  if (exp) {
    const base = parseFixed(exp[1]!);
    if (!base) return undefined;
    const shift = Number(exp[2]);
    if (shift >= 0) return { units: base.units * 10n ** BigInt(shift), scale: base.scale };
    return { units: base.units, scale: base.scale - shift };
  }
  const m = PLAIN.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  text = `${m[2] || '0'}${frac}`;
  const units = BigInt(text) * (m[1] === '-' ? -1n : 1n);
  return { units, scale: frac.length };
}

function numberToText(n: number): string | undefined {
  return Number.isFinite(n) ? String(n) : undefined;
}

function toText({ units, scale }: Fixed): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = scale > 0 ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  const out = frac ? `${int}.${frac}` : int;
  return negative && out !== '0' ? `-${out}` : out;
}

function align(a: Fixed, b: Fixed): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

/** Canonical plain form: no exponent, no trailing zeros ("1e-7" -> "0.0000001", "2.50" -> "2.5"). */
export function normalizeDecimal(value: string | number): string | undefined {
  const f = parseFixed(value);
  return f ? toText(f) : undefined;
}

/** Exact sum of two decimal texts. */
export function addDecimals(a: string | number, b: string | number): string | undefined {
  const fa = parseFixed(a);
  const fb = parseFixed(b);
  if (!fa || !fb) return undefined;
  const [x, y, scale] = align(fa, fb);
  return toText({ units: x + y, scale });
}

/** -1, 0 or 1; undefined when either is not a decimal. */
export function compareDecimals(a: string | number, b: string | number): -1 | 0 | 1 | undefined {
  const fa = parseFixed(a);
  const fb = parseFixed(b);
  if (!fa || !fb) return undefined;
  const [x, y] = align(fa, fb);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Rounds half away from zero to at most `dp` decimals, keeping the text exact otherwise. */
export function roundDecimal(value: string | number, dp: number): string | undefined {
  const f = parseFixed(value);
  if (!f) return undefined;
  if (f.scale <= dp) return toText(f);
  const drop = 10n ** BigInt(f.scale - dp);
  const negative = f.units < 0n;
  const abs = negative ? -f.units : f.units;
  let kept = abs / drop;
  if ((abs % drop) * 2n >= drop) kept += 1n;
  return toText({ units: negative ? -kept : kept, scale: dp });
}
