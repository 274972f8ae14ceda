/**
 * The core flows (menu, buy, quote, history, help, settings) and the shape every flow state
 * shares. flows/ knows no capability above it: the app assembles the whole table, core flows plus
 * sell and support, in src/app/flows.ts, and builds the router and the session schema from it.
 */
import type { z } from 'zod';
import { buyFlow, buyStateSchema } from './buy.js';
import type { FlowDef } from './flow.js';
import { helpFlow, helpStateSchema } from './help.js';
import { historyFlow, historyStateSchema } from './history.js';
import { menuFlow, menuStateSchema } from './menu.js';
import { quoteFlow, quoteStateSchema } from './quote.js';
import { settingsFlow, settingsStateSchema } from './settings.js';

/**
 * A flow's persisted state: `name` says which flow; each flow's own schema says the rest (a flow
 * reads its state through its own type, `FlowDef<S>`, never through this one).
 */
export interface FlowState {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: the fields belong to each flow's own state type
  [field: string]: any;
}

/** A flow's persisted-state schema: an object with a literal `name`, the table's discriminator. */
export type FlowStateSchema = z.ZodObject<{ name: z.ZodLiteral<string> } & z.ZodRawShape>;

/** A flow table: the definitions in priority order and the schema of each flow's state. */
export interface FlowTable {
  defs: readonly FlowDef<FlowState>[];
  states: readonly FlowStateSchema[];
}

/** The core flows, in the router's priority order. */
export const CORE_FLOW_DEFS = [
  menuFlow,
  buyFlow,
  quoteFlow,
  historyFlow,
  helpFlow,
  settingsFlow,
] as unknown as readonly FlowDef<FlowState>[];

/** The persisted-state schemas of the core flows. */
export const CORE_FLOW_STATES: readonly FlowStateSchema[] = [
  menuStateSchema,
  buyStateSchema,
  quoteStateSchema,
  historyStateSchema,
  helpStateSchema,
  settingsStateSchema,
];
