/** The persisted conversation state of one user, and its zod schema over a flow table. */
import * as z from 'zod';
import type { Locale } from '../chat/types.js';
import type { FlowState, FlowStateSchema } from './flow-state.js';
import { parsePhone } from './parse.js';
import { localeSchema, profileSchema } from './schemas.js';
import type { SessionBase } from './types.js';

/** Bump when the persisted shape changes incompatibly; older sessions are reset by the engine. */
export const SESSION_VERSION = 1;

export interface Session extends SessionBase {
  v: typeof SESSION_VERSION;
  /** The active flow and its step; `{ name: 'menu' }` at rest. */
  flow: FlowState;
}

/**
 * The session's schema, whole and cut along its stored parts (`v`, `locale`, `profile`; `flow`). A
 * failure means the engine resets to `initialSession` (text `core-state-reset`).
 */
export function sessionSchemaParts(states: readonly FlowStateSchema[]) {
  const [first, ...rest] = states;
  if (!first) throw new Error('a flow table needs at least one flow');
  const base = z.object({ v: z.literal(SESSION_VERSION), locale: localeSchema, profile: profileSchema });
  const flow = z.object({ flow: z.discriminatedUnion('name', [first, ...rest]) });
  return { whole: base.extend(flow.shape) as unknown as z.ZodType<Session>, base, flow };
}

/** A fresh session at the menu; a valid Kenyan phone hint (the WhatsApp sender) is saved. */
export function initialSession(hints: { locale?: Locale; phone?: string } = {}): Session {
  const phone = hints.phone ? parsePhone(hints.phone) : undefined;
  return {
    v: SESSION_VERSION,
    locale: hints.locale ?? 'en',
    profile: phone ? { phone, wallets: {} } : { wallets: {} },
    flow: { name: 'menu' },
  };
}
