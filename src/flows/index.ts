/**
 * The channel-agnostic conversation core: pure flows over a persisted Session.
 * `transition(session, input, ctx)` returns the next session and the effects to carry out.
 */
export { buyFlow, buyOrderKey } from './buy/buy.js';

export { displayPhone, type FlowDef, send, text } from './flow.js';
export { helpFlow } from './menu/help.js';
export { historyFlow } from './menu/history.js';
export { menuFlow } from './menu/menu.js';
export { settingsFlow } from './menu/settings.js';
export * from './parse.js';
export { quoteFlow } from './quote/quote.js';
export { feeInTokens } from './quote/quote-view.js';
export { conversationOf } from './router/conversation.js';
export { CORE_FLOW_STATES, type FlowState, type FlowStateSchema } from './router/registry.js';
export { createTransition } from './router/router.js';
export { initialSession, SESSION_VERSION, type Session } from './session.js';
