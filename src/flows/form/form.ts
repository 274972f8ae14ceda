/**
 * The ordered ask-steps form behind buy, sell and quote. A flow describes its form once
 * (`OrderForm`: the steps in order, the fields each fills, its own questions and words); these
 * functions ask the first unfilled step, read typed words, shared contacts and taps, step back,
 * quote once everything is filled, and re-quote at Confirm.
 */
export {
  answerForm,
  answerTap,
  answerWords,
  applyWords,
  assetsLoaded,
  fillWalletAndPhone,
  tappedAsset,
} from './form-answers.js';
export { confirmSummary, quoted, quoteFailed, requoted, requoteFailed } from './form-quotes.js';
export {
  askAgain,
  askNextOrQuote,
  at,
  clearStep,
  missingStep,
  pleaseWait,
  startForm,
  stepBack,
} from './form-steps.js';
export type { AssetStep, ConfirmForm, OrderForm } from './form-types.js';
