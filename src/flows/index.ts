/**
 * The channel-agnostic conversation core: pure flows over a persisted Session.
 * `transition(session, input, ctx)` returns the next session and the effects to carry out.
 */
export { BUY_STEPS, type BuyState, buyConfirmButtonId, buyFlow, buyOrderKey } from './buy/buy.js';
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
export { helpFlow, SUPPORT_OPEN, TICKET_NEW } from './menu/help.js';
export { historyFlow } from './menu/history.js';
export { menuFlow, menuMessage } from './menu/menu.js';
export { settingsFlow } from './menu/settings.js';
export * from './parse.js';
export { quoteFlow } from './quote/quote.js';
export { feeInTokens, onrampTotalKes, quoteTexts, rateMovePct, withinLimits } from './quote/quote-view.js';
export { type Conversation, conversationOf } from './router/conversation.js';
export {
  CORE_FLOW_DEFS,
  CORE_FLOW_STATES,
  type FlowState,
  type FlowStateSchema,
  type FlowTable,
} from './router/registry.js';
export { createTransition } from './router/router.js';
export { initialSession, SESSION_VERSION, type Session, sessionSchemaOf } from './session.js';
