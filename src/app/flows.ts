/**
 * The app's flow table: the core flows and the capabilities' flows (sell, support, savings, alerts, charts, receipts), in the router's
 * priority order, and the engine that runs them. Adding a flow is adding its definition and its
 * state schema here; the router, the main menu and the session schema follow.
 */

import { alertsFlow, alertsStateSchema } from '../alerts/flow/flow.js';
import { chartFlow, chartStateSchema } from '../charts/flow.js';
import { createConversationEngine, type Engine, type EngineDeps, type FlowModule } from '../engine/index.js';
import {
  buyFlow,
  CORE_FLOW_STATES,
  conversationOf,
  type FlowDef,
  type FlowState,
  type FlowStateSchema,
  helpFlow,
  historyFlow,
  menuFlow,
  quoteFlow,
  type Session,
  settingsFlow,
} from '../flows/index.js';
import { receiptsFlow, receiptsStateSchema } from '../receipts/flow.js';
import { savingsFlow, savingsStateSchema } from '../savings/flow.js';
import { sellFlow, sellStateSchema } from '../sell/flow.js';
import { statementFlow, statementStateSchema } from '../statements/flow.js';
import { supportFlow, supportStateSchema } from '../support/flow.js';
import { ticketFlow, ticketStateSchema } from '../support/ticket/ticket-flow.js';

/**
 * Every flow the router knows, in priority order for `startButtons` (a support flow claiming
 * "support:" must come before help, which answers those ids until then).
 */
export const FLOW_DEFS = [
  menuFlow,
  buyFlow,
  quoteFlow,
  historyFlow,
  supportFlow,
  ticketFlow,
  helpFlow,
  settingsFlow,
  sellFlow,
  savingsFlow,
  alertsFlow,
  chartFlow,
  receiptsFlow,
  statementFlow,
] as unknown as readonly FlowDef<FlowState>[];

const FLOW_STATES: readonly FlowStateSchema[] = [
  ...CORE_FLOW_STATES,
  sellStateSchema,
  supportStateSchema,
  ticketStateSchema,
  savingsStateSchema,
  alertsStateSchema,
  chartStateSchema,
  receiptsStateSchema,
  statementStateSchema,
];

/** The production flows as the engine runs them. */
export const appFlows: FlowModule<Session> = conversationOf({ defs: FLOW_DEFS, states: FLOW_STATES });

/** Validates a persisted session against every flow of the app. */
export const sessionSchema = appFlows.schema;

/** The conversation's transition over the app's flow table. */
export const transition = appFlows.transition;

/** Creates the engine over the production flows (or `deps.flow`, e.g. a flow under test). */
export function createEngine(
  deps: Omit<EngineDeps<Session>, 'flow'> & { flow?: FlowModule<Session> },
): Engine {
  return createConversationEngine({ ...deps, flow: deps.flow ?? appFlows });
}
