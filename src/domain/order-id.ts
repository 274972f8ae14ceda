/** Ramp order ids as users and agents write them: `D-ri3b1-7H` (on-ramp), `WD-d6v5j-FB` (off-ramp). */
import type { Direction } from './types.js';

/** An order id as the tracker stores it: D- or WD- and dash-separated letters and digits. */
export const ORDER_ID_PATTERN = /^W?D-[A-Za-z0-9]{1,20}(?:-[A-Za-z0-9]{1,20}){0,3}$/;

const IN_TEXT = /(?<![A-Za-z0-9-])(W?D-[A-Za-z0-9]{1,20}(?:-[A-Za-z0-9]{1,20}){0,3})(?![A-Za-z0-9-])/i;

/** The first order id mentioned in a text, with its prefix in capitals ("wd-d6v5j-FB" -> "WD-d6v5j-FB"). */
export function findOrderId(text: string): string | undefined {
  const m = IN_TEXT.exec(text);
  if (!m?.[1]) return undefined;
  const id = m[1];
  const dash = id.indexOf('-');
  return `${id.slice(0, dash).toUpperCase()}${id.slice(dash)}`;
}

/** The direction an order id belongs to: D- on-ramp, WD- off-ramp. */
export const sideOfOrder = (orderId: string): Direction =>
  orderId.toUpperCase().startsWith('WD-') ? 'offramp' : 'onramp';
