/**
 * Standing buys in chat: `/save 500 KES USDT every friday` (or `/weka 500 USDT kila ijumaa`, or the
 * menu) asks what is missing (network, wallet, phone: the saved ones first), shows a summary with
 * the first run's date and creates the plan on Confirm; `/savings` lists them with Pause, Resume,
 * Change and Cancel. A reminder's Pay now takes a fresh quote, says the exact amounts and sends the
 * STK push once per run (the idempotency key `save:<plan>:<period>`); Skip lets the run pass. Pure:
 * the plans live behind the `savings` effect (src/savings/effects.ts). The state is in flow-state.ts,
 * the questions of a new plan in flow-draft.ts, how plans are shown in flow-views.ts.
 */
import { NETWORK_INFO } from '../domain/networks.js';
import { NETWORKS, type Network } from '../domain/types.js';
import { orderFailedTexts } from '../flows/buy/buy-order.js';
import { isThirdPartyPhone } from '../flows/buy/buy-questions.js';
import { failureTexts } from '../flows/failures.js';
import type { FlowDef, FlowStep } from '../flows/flow.js';
import {
  button,
  displayPhone,
  isEffectResult,
  navRow,
  send,
  shortAddress,
  text,
  unhandled,
  word,
  YES_WORDS,
} from '../flows/flow.js';
import { menuButton } from '../flows/menu/menu.js';
import { parseKesAmount, parsePhone, parseWallet } from '../flows/parse.js';
import { amountOutside, KNOWN_LIMITS, onrampTotalKes } from '../flows/quote/quote-view.js';
import type { Session } from '../flows/session.js';
import type { Effect, FlowContext, Input, SavingsOutcome } from '../flows/types.js';
import { formatKes, formatToken } from '../i18n/format.js';
import { advance, create, withAssets } from './flow-draft.js';
import { ask, at, exit, request, type SavingsState, weekdayOf } from './flow-state.js';
import { listed, when } from './flow-views.js';
import { cadenceOf, readScheduleWords } from './flow-words.js';
import { cadenceText } from './schedule.js';

export { savingsStateSchema } from './flow-state.js';

/** The pay run is ready: say the exact amounts, then the STK push once per run. */
function pay(
  session: Session,
  state: SavingsState,
  o: Extract<SavingsOutcome, { action: 'payReady' }>,
  ctx: FlowContext,
): FlowStep {
  const { plan, quote, token, phone } = o;
  const total = onrampTotalKes(quote);
  const order: Effect = {
    type: 'createOnrampOrder',
    request: { phone, amountKes: plan.amountKes, userAddress: plan.wallet, tokenAddress: token.address },
    idempotencyKey: `save:${plan.id}:${o.runId}`,
    ...(isThirdPartyPhone(session, phone) ? { thirdParty: true } : {}),
    track: {
      side: 'onramp',
      user: ctx.user,
      network: plan.network,
      walletAddress: plan.wallet,
      token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
      amountKes: plan.amountKes,
      paidKes: total,
      tokenAmount: quote.outputAmount,
      phone,
      plan: `${plan.id}:${o.runNo}`,
    },
  };
  return at(session, { ...state, step: 'paying', planId: plan.id, runId: o.runId }, [
    send([
      text('savings-paying', {
        run: o.runNo,
        total: formatKes(session.locale, total),
        fee: formatKes(session.locale, quote.fee.kes),
        amount: formatToken(session.locale, quote.outputAmount, token.symbol),
        wallet: shortAddress(plan.wallet),
        phone: displayPhone(phone),
      }),
    ]),
    order,
  ]);
}

const UPDATED = { pause: 'savings-paused', resume: 'savings-resumed', cancel: 'savings-cancelled' } as const;

function fromOutcome(session: Session, state: SavingsState, o: SavingsOutcome, ctx: FlowContext): FlowStep {
  switch (o.action) {
    case 'created': {
      const profile = {
        ...session.profile,
        phone: state.draft?.phone ?? session.profile.phone,
        wallets: { ...session.profile.wallets, [o.plan.network]: o.plan.wallet },
      };
      return exit({ ...session, profile }, [
        text('savings-created', { first: when(session.locale, o.plan.nextDue ?? ctx.now) }),
      ]);
    }
    case 'list':
      return listed(session, o.plans);
    case 'updated':
      if (o.change === 'change')
        return exit(session, [
          text('savings-changed', { next: o.plan.nextDue ? when(session.locale, o.plan.nextDue) : '-' }),
        ]);
      return exit(session, [
        text(UPDATED[o.change], { next: o.plan.nextDue ? when(session.locale, o.plan.nextDue) : '-' }),
      ]);
    case 'tooMany':
      return exit(session, [text('savings-too-many', { max: o.max })]);
    case 'notFound':
      return exit(session, [text('savings-not-found')]);
    case 'payReady':
      return pay(session, state, o, ctx);
    case 'runClosed':
      return exit(session, [text(`savings-run-closed-${o.reason}`, { orderId: o.orderId ?? '-' })]);
    case 'skipped':
      return exit(session, [text('savings-skipped', { run: o.runNo })]);
    case 'invalid':
      return exit(session, [text(`savings-invalid-${o.problem}`, { token: o.plan.token })]);
    case 'runs':
    case 'noted':
      return { session, effects: [] };
  }
}

function handleResult(session: Session, state: SavingsState, input: Input, ctx: FlowContext): FlowStep {
  if (input.kind === 'assets' && state.step === 'assets')
    return withAssets(session, state, input.assets.tokens, ctx);
  if (input.kind === 'savings') return fromOutcome(session, state, input.outcome, ctx);
  if (input.kind === 'onrampCreated' && state.step === 'paying' && state.planId && state.runId) {
    return at(session, { name: 'savings', step: 'waiting' }, [
      send([text('buy-stk-sent-short', { orderId: input.orderId }), text('buy-never-pin')], {
        buttons: [[menuButton()]],
      }),
      {
        type: 'savings',
        request: { action: 'paid', planId: state.planId, runId: state.runId, orderId: input.orderId },
      },
    ]);
  }
  if (input.kind === 'effectFailed') {
    if (input.effect === 'createOnrampOrder') return exit(session, orderFailedTexts(input.error));
    if (input.effect === 'savings' || input.effect === 'fetchAssets')
      return exit(session, failureTexts(input.error));
  }
  return unhandled(session);
}

/** A button of this flow: a reminder's Pay/Skip, a plan's Pause/Resume/Change/Cancel, Confirm. */
function tapped(session: Session, state: SavingsState | undefined, id: string, ctx: FlowContext): FlowStep {
  const [, kind = '', planId = '', runId = ''] = id.split(':');
  const base: SavingsState = state ?? { name: 'savings', step: 'waiting' };
  if (kind === 'pay' && planId && runId)
    return request(
      session,
      { name: 'savings', step: 'paying', planId, runId },
      { action: 'pay', planId, runId },
    );
  if (kind === 'skip' && planId && runId) return request(session, base, { action: 'skip', planId, runId });
  if (kind === 'list') return request(session, base, { action: 'list' });
  if ((kind === 'pause' || kind === 'resume' || kind === 'cancel') && planId)
    return request(session, base, { action: kind, planId });
  if (kind === 'change' && planId)
    return ask(session, { name: 'savings', step: 'change', planId }, [text('savings-change-ask')]);
  if (
    kind === 'net' &&
    state?.step === 'network' &&
    state.draft &&
    (NETWORKS as readonly string[]).includes(planId)
  )
    return advance(session, state, { ...state.draft, network: planId as Network }, ctx);
  if (kind === 'confirm' && state?.step === 'confirm' && state.draft) {
    const d = state.draft;
    return request(session, state, {
      action: 'create',
      plan: {
        amountKes: d.amountKes,
        token: d.token!,
        network: d.network!,
        wallet: d.wallet!,
        phone: d.phone!,
        cadence: d.cadence,
      },
    });
  }
  return exit(session, [text('core-button-stale')]);
}

/** Typed text at a question: a wallet, a phone, or a plan's new amount or day. */
function typed(session: Session, state: SavingsState, input: string, ctx: FlowContext): FlowStep {
  const d = state.draft;
  if (state.step === 'wallet' && d?.network) {
    const w = parseWallet(d.network, input);
    if (!w.ok)
      return ask(session, state, [
        text('buy-wallet-wrong-format', {
          address: input.trim(),
          network: NETWORK_INFO[d.network].displayName,
        }),
      ]);
    return advance(session, state, { ...d, wallet: w.value }, ctx);
  }
  if (state.step === 'phone' && d) {
    const phone = parsePhone(input);
    if (!phone) return ask(session, state, [text('buy-phone-invalid', { phone: input.trim() })]);
    return advance(session, state, { ...d, phone }, ctx);
  }
  if (state.step === 'change' && state.planId) {
    const sched = readScheduleWords(input);
    const cadence = cadenceOf(sched, weekdayOf(ctx.now));
    const amount = sched.rest ? parseKesAmount(sched.rest) : undefined;
    if ((!cadence && !amount?.ok) || (amount && !amount.ok) || sched.bad)
      return ask(session, state, [text('savings-change-ask')]);
    const outside = amount?.ok
      ? amountOutside('buy-amount-outside', amount.value, KNOWN_LIMITS.onramp)
      : undefined;
    if (outside) return ask(session, state, [outside]);
    return request(session, state, {
      action: 'change',
      planId: state.planId,
      ...(amount?.ok ? { amountKes: amount.value } : {}),
      ...(cadence ? { cadence: cadenceText(cadence) } : {}),
    });
  }
  if (state.step === 'confirm' && YES_WORDS.includes(word(input)))
    return tapped(session, state, 'save:confirm', ctx);
  if (state.step === 'confirm')
    return ask(
      session,
      state,
      [text('savings-tap-confirm')],
      [[button('save:confirm', 'savings-button-confirm')], navRow(false)],
    );
  return at(session, state, [send([text('buy-please-wait')], { buttons: [[menuButton()]] })]);
}

export const savingsFlow: FlowDef<SavingsState> = {
  name: 'savings',
  prefix: 'save',
  commands: ['save', 'savings', 'weka', 'akiba'],
  keywords: ['save', 'savings', 'akiba'],
  menu: { order: 70, label: text('savings-menu') },
  startButtons: ['save:'],
  start(session, ctx, how) {
    if (how.button?.startsWith('save:')) return tapped(session, undefined, how.button, ctx);
    const args = (how.args ?? '').trim();
    if (!args || how.command === 'savings')
      return request(session, { name: 'savings', step: 'waiting' }, { action: 'list' });
    return create(session, args, ctx);
  },
  takesFreeText: (state) => state.step === 'wallet' || state.step === 'phone' || state.step === 'change',
  handle(session, state, input, ctx) {
    if (isEffectResult(input)) return handleResult(session, state, input, ctx);
    if (input.kind === 'button') {
      if (input.id.startsWith('save:')) return tapped(session, state, input.id, ctx);
      return unhandled(session);
    }
    if (input.kind === 'contact' && state.step === 'phone') return typed(session, state, input.phone, ctx);
    if (input.kind === 'text') return typed(session, state, input.text, ctx);
    return at(session, state);
  },
  orphan(session, input, ctx) {
    // A savings answer after the user moved on (a Skip tapped from the menu): still said.
    if (input.kind !== 'savings') return undefined;
    const step = fromOutcome(session, { name: 'savings', step: 'waiting' }, input.outcome, ctx);
    return { session, effects: [...step.effects, ...(step.exit ? [send(step.exit)] : [])] };
  },
};
