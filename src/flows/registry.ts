/**
 * The flow table. Adding a flow (sell, support) is adding its state schema to FLOW_STATE_SCHEMAS
 * and its definition to FLOW_DEFS; the router, the main menu and the session schema follow.
 */
import { z } from 'zod';
import { sellFlow, sellStateSchema } from '../sell/flow.js';
import { supportFlow, supportStateSchema } from '../support/flow.js';
import { ticketFlow, ticketStateSchema } from '../support/ticket-flow.js';
import { buyFlow, buyStateSchema } from './buy.js';
import type { FlowDef } from './flow.js';
import { helpFlow, helpStateSchema } from './help.js';
import { historyFlow, historyStateSchema } from './history.js';
import { menuFlow, menuStateSchema } from './menu.js';
import { quoteFlow, quoteStateSchema } from './quote.js';
import { settingsFlow, settingsStateSchema } from './settings.js';

/** Each flow's persisted state; `name` is the discriminator. */
export const flowStateSchema = z.discriminatedUnion('name', [
  menuStateSchema,
  buyStateSchema,
  quoteStateSchema,
  historyStateSchema,
  helpStateSchema,
  settingsStateSchema,
  sellStateSchema,
  supportStateSchema,
  ticketStateSchema,
]);
export type FlowState = z.infer<typeof flowStateSchema>;

/**
 * Every flow the router knows, in priority order for `startButtons` (a support flow claiming
 * "support:" must come before help, which answers those ids until then).
 */
export const FLOW_DEFS: readonly FlowDef<FlowState>[] = [
  menuFlow,
  buyFlow,
  quoteFlow,
  historyFlow,
  supportFlow,
  ticketFlow,
  helpFlow,
  settingsFlow,
  sellFlow,
] as FlowDef<FlowState>[];
