/**
 * The channel-agnostic conversation core: pure flows over a persisted Session.
 * `transition(session, input, ctx)` returns the next session and the effects to carry out.
 */
export { BUY_STEPS, type BuyState, buyConfirmButtonId, buyFlow, buyOrderKey } from './buy.js';
export { type Conversation, conversationOf } from './conversation.js';
export { failureTexts } from './failures.js';
export {
  button,
  displayPhone,
  type FlowDef,
  type FlowStart,
  type FlowStep,
  MENU_MAIN,
  makeFlowId,
  NAV_BACK,
  NAV_CANCEL,
  navRow,
  plainButton,
  rows,
  send,
  text,
  unhandled,
} from './flow.js';
export { helpFlow, SUPPORT_OPEN, TICKET_NEW } from './help.js';
export { historyFlow } from './history.js';
export { menuFlow, menuMessage } from './menu.js';
export * from './parse.js';
export { quoteFlow } from './quote.js';
export { feeInTokens, onrampTotalKes, quoteTexts, rateMovePct, withinLimits } from './quote-view.js';
export {
  CORE_FLOW_DEFS,
  CORE_FLOW_STATES,
  type FlowState,
  type FlowStateSchema,
  type FlowTable,
} from './registry.js';
export { createTransition } from './router.js';
export { initialSession, SESSION_VERSION, type Session, sessionSchemaOf } from './session.js';
export { settingsFlow } from './settings.js';
