/** A flow table made into what the engine runs: session version, schema, initial state, transition. */

import type * as z from 'zod';
import type { Locale } from '../../chat/types.js';
import { initialSession, SESSION_VERSION, type Session, sessionSchemaParts } from '../session.js';
import type { Transition } from '../types.js';
import type { FlowTable } from './registry.js';
import { createTransition } from './router.js';

/** The conversation over one flow table (structurally the engine's `FlowModule<Session>`). */
export interface Conversation {
  version: typeof SESSION_VERSION;
  schema: z.ZodType<Session>;
  initial: (hints?: { locale?: Locale; phone?: string }) => Session;
  transition: Transition<Session>;
  /** The schema cut along the session's stored parts, for the store to validate each once. */
  parts: { base: z.ZodType<unknown>; flow: z.ZodType<unknown> };
}

export function conversationOf(table: FlowTable): Conversation {
  const { whole, base, flow } = sessionSchemaParts(table.states);
  return {
    version: SESSION_VERSION,
    schema: whole,
    parts: { base, flow },
    initial: initialSession,
    transition: createTransition(table.defs),
  };
}
