/** What the engine and the claim reconciler may write to the log about a user or an error. */
import type { UserRef } from '../chat/types.js';
import { userKey } from '../chat/types.js';
import { maskPhone } from '../domain/phone.js';

/** A user reference safe to log: WhatsApp ids are phone numbers, so they are masked. */
export const loggableUser = (u: UserRef): string =>
  u.channel === 'whatsapp' ? `${u.channel}:${maskPhone(u.id)}` : userKey(u);

/** Name and message only: never the whole error (its cause may carry request data). */
export function errSummary(err: unknown): { name: string; message: string } {
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'unknown', message: String(err) };
}
