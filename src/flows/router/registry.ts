/**
 * The core flows (menu, buy, quote, history, help, settings) and the shape every flow state
 * shares. flows/ knows no capability above it: the app assembles the whole table, core flows plus
 * sell and support, in src/app/flows.ts, and builds the router and the session schema from it.
 */
import { buyStateSchema } from '../buy/buy.js';
import type { FlowDef } from '../flow.js';
import type { FlowState, FlowStateSchema } from '../flow-state.js';
import { helpStateSchema } from '../menu/help.js';
import { historyStateSchema } from '../menu/history.js';
import { menuStateSchema } from '../menu/menu.js';
import { settingsStateSchema } from '../menu/settings.js';
import { quoteStateSchema } from '../quote/quote.js';

/** A flow table: the definitions in priority order and the schema of each flow's state. */
export interface FlowTable {
  defs: readonly FlowDef<FlowState>[];
  states: readonly FlowStateSchema[];
}

/** The persisted-state schemas of the core flows. */
export const CORE_FLOW_STATES: readonly FlowStateSchema[] = [
  menuStateSchema,
  buyStateSchema,
  quoteStateSchema,
  historyStateSchema,
  helpStateSchema,
  settingsStateSchema,
];

export type { FlowState, FlowStateSchema } from '../flow-state.js';
