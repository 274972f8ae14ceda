/** A flow table made into what the engine runs: session version, schema, initial state, transition. */

import type * as z from 'zod';
import type { Locale } from '../../chat/types.js';
import { initialSession, SESSION_VERSION, type Session, sessionSchemaOf } from '../session.js';
import type { Transition } from '../types.js';
import type { FlowTable } from './registry.js';
import { createTransition } from './router.js';

/** The conversation over one flow table (structurally the engine's `FlowModule<Session>`). */
export interface Conversation {
  version: typeof SESSION_VERSION;
  schema: z.ZodType<Session>;
  initial: (hints?: { locale?: Locale; phone?: string }) => Session;
  transition: Transition<Session>;
}

export function conversationOf(table: FlowTable): Conversation {
  return {
    version: SESSION_VERSION,
    schema: sessionSchemaOf(table.states),
    initial: initialSession,
    transition: createTransition(table.defs),
  };
}
