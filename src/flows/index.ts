/**
 * The channel-agnostic conversation core: pure flows over a persisted Session.
 * `transition(session, input, ctx)` returns the next session and the effects to carry out.
 */
export { BUY_STEPS, type BuyState, buyConfirmButtonId, buyFlow, buyOrderKey } from './buy.js';
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
export { FLOW_DEFS, type FlowState, flowStateSchema } from './registry.js';
export { createTransition, transition } from './router.js';
export { initialSession, SESSION_VERSION, type Session, sessionSchema } from './session.js';
export { settingsFlow } from './settings.js';
