/**
 * Standing buys in chat: `/save 500 KES USDT every friday` (or `/weka 500 USDT kila ijumaa`, or the
 * menu) asks what is missing (network, wallet, phone: the saved ones first), shows a summary with
 * the first run's date and creates the plan on Confirm; `/savings` lists them with Pause, Resume,
 * Change and Cancel. A reminder's Pay now takes a fresh quote, says the exact amounts and sends the
 * STK push once per run (the idempotency key `save:<plan>:<period>`); Skip lets the run pass. Pure:
 * the plans live behind the `savings` effect (src/savings/effects.ts).
 */
import { z } from 'zod';
import type { Button, Text } from '../chat/types.js';
import { NETWORK_INFO } from '../domain/networks.js';
import { NETWORKS, type Network, type TokenInfo } from '../domain/types.js';
import { listedSymbols, networksFor } from '../flows/assets.js';
import { orderFailedTexts } from '../flows/buy-order.js';
import { isThirdPartyPhone } from '../flows/buy-questions.js';
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
import { menuButton } from '../flows/menu.js';
import { parseKesAmount, parseOrderWords, parsePhone, parseWallet } from '../flows/parse.js';
import { amountOutside, KNOWN_LIMITS, onrampTotalKes } from '../flows/quote-view.js';
import type { Session } from '../flows/session.js';
import type { Effect, FlowContext, Input, PlanView, SavingsOutcome } from '../flows/types.js';
import { formatDateTime, formatKes, formatToken } from '../i18n/format.js';
import { cadenceOf, readScheduleWords } from './flow-words.js';
import { type Cadence, cadenceText, NAIROBI_OFFSET_MS, nextDue, parseCadence } from './schedule.js';

/** What a new plan has so far. */
const draftSchema = z.object({
  amountKes: z.number().int().positive(),
  cadence: z.string().max(8),
  token: z.string().max(20).optional(),
  network: z.enum(NETWORKS).optional(),
  wallet: z.string().max(80).optional(),
  phone: z.string().max(16).optional(),
  /** The words not yet read (token, network, wallet), until the listed assets came. */
  words: z.string().max(300).optional(),
});
type Draft = z.infer<typeof draftSchema>;

export const savingsStateSchema = z.object({
  name: z.literal('savings'),
  step: z.enum(['assets', 'network', 'wallet', 'phone', 'confirm', 'waiting', 'paying', 'change']),
  draft: draftSchema.optional(),
  /** Pay / change: the plan and run at hand. */
  planId: z.string().max(24).optional(),
  runId: z.string().max(12).optional(),
  tokens: z
    .array(z.object({ symbol: z.string(), network: z.enum(NETWORKS) }))
    .max(60)
    .optional(),
});
export type SavingsState = z.infer<typeof savingsStateSchema>;

const at = (session: Session, state: SavingsState, effects: Effect[] = []): FlowStep => ({
  session: { ...session, flow: state },
  effects,
});
const ask = (session: Session, state: SavingsState, texts: Text[], buttons: Button[][] = [navRow(false)]) =>
  at(session, state, [send(texts, { buttons })]);
const request = (session: Session, state: SavingsState, r: Extract<Effect, { type: 'savings' }>['request']) =>
  at(session, { ...state, step: state.step === 'paying' ? 'paying' : 'waiting' }, [
    { type: 'savings', request: r },
  ]);
const exit = (session: Session, texts: Text[]): FlowStep => ({ session, effects: [], exit: texts });

/** The user's weekday in Nairobi (1 Monday … 7 Sunday): "weekly" alone means this day. */
const weekdayOf = (now: number) => new Date(now + NAIROBI_OFFSET_MS).getUTCDay() || 7;

/** How a cadence reads: "every Friday at 09:00" (the locale's words). */
export function cadenceTexts(c: Cadence): Text {
  const hour = `${String(c.hour).padStart(2, '0')}:00`;
  if (c.every === 'daily') return text('savings-every-day', { hour });
  if (c.every === 'weekly') return text('savings-every-week', { day: c.day, hour });
  return text('savings-every-month', { day: c.day, hour });
}

const when = (locale: Session['locale'], ms: number) => formatDateTime(locale, new Date(ms).toISOString());

/** One plan in the list, with its buttons. */
function planLines(session: Session, p: PlanView, index: number): { texts: Text[]; buttons: Button[] } {
  const c = parseCadence(p.cadence)!;
  const texts: Text[] = [
    text(p.status === 'active' ? 'savings-list-plan' : 'savings-list-plan-paused', {
      n: index + 1,
      kes: formatKes(session.locale, p.amountKes),
      token: p.token,
      network: NETWORK_INFO[p.network].displayName,
      wallet: shortAddress(p.wallet),
      next: p.nextDue ? when(session.locale, p.nextDue) : '-',
    }),
    cadenceTexts(c),
    ...p.recent.map((r) =>
      text(`savings-run-${r.status}`, { run: r.no, period: r.period, orderId: r.orderId ?? '-' }),
    ),
  ];
  const n = String(index + 1);
  const buttons = [
    p.status === 'active'
      ? button(`save:pause:${p.id}`, 'savings-button-pause', { n })
      : button(`save:resume:${p.id}`, 'savings-button-resume', { n }),
    button(`save:change:${p.id}`, 'savings-button-change', { n }),
    button(`save:cancel:${p.id}`, 'savings-button-cancel', { n }),
  ];
  return { texts, buttons };
}

function listed(session: Session, plans: PlanView[]): FlowStep {
  if (!plans.length) return exit(session, [text('savings-list-empty'), text('savings-usage')]);
  const parts = plans.map((p, i) => planLines(session, p, i));
  return at(session, { name: 'savings', step: 'waiting' }, [
    send([text('savings-list-title'), ...parts.flatMap((p) => p.texts)], {
      buttons: [...parts.map((p) => p.buttons), [menuButton()]],
    }),
  ]);
}

/** The summary before Confirm: what, how often, where, from which phone, and the first run. */
function summary(session: Session, state: SavingsState, d: Draft, ctx: FlowContext): FlowStep {
  const c = parseCadence(d.cadence)!;
  return ask(
    session,
    { ...state, step: 'confirm', draft: d },
    [
      text('savings-summary', {
        kes: formatKes(session.locale, d.amountKes),
        token: d.token!,
        network: NETWORK_INFO[d.network!].displayName,
        wallet: d.wallet!,
        phone: displayPhone(d.phone!),
        first: when(session.locale, nextDue(c, ctx.now)),
      }),
      cadenceTexts(c),
      text('savings-summary-note'),
    ],
    [[button('save:confirm', 'savings-button-confirm')], navRow(false)],
  );
}

/** The next question the draft needs, or the summary. */
function advance(
  session: Session,
  state: SavingsState,
  d: Draft,
  ctx: FlowContext,
  notes: Text[] = [],
): FlowStep {
  const tokens = state.tokens ?? [];
  if (!d.token) return exit(session, [...notes, text('savings-usage')]);
  if (!d.network) {
    const nets = networksFor(tokens as TokenInfo[], d.token);
    const last = session.profile.lastBuy;
    if (nets.length === 1) d = { ...d, network: nets[0] };
    else if (last && last.token === d.token && nets.includes(last.network))
      d = { ...d, network: last.network };
    else
      return ask(
        session,
        { ...state, step: 'network', draft: d },
        [...notes, text('buy-ask-network', { token: d.token })],
        [
          nets.map((n) => button(`save:net:${n}`, 'core-plain', { text: NETWORK_INFO[n].displayName })),
          navRow(false),
        ],
      );
  }
  const network = d.network!;
  if (!d.wallet && session.profile.wallets[network]) d = { ...d, wallet: session.profile.wallets[network] };
  if (!d.wallet)
    return ask(session, { ...state, step: 'wallet', draft: d }, [
      ...notes,
      text('buy-ask-wallet', { network: NETWORK_INFO[network].displayName }),
    ]);
  if (!d.phone && session.profile.phone) d = { ...d, phone: session.profile.phone };
  if (!d.phone)
    return at(session, { ...state, step: 'phone', draft: d }, [
      send([...notes, text('buy-ask-phone')], { requestPhone: true, buttons: [navRow(false)] }),
    ]);
  return summary(session, state, d, ctx);
}

/** The listed assets came: read the token, network and wallet words against them. */
function withAssets(session: Session, state: SavingsState, tokens: TokenInfo[], ctx: FlowContext): FlowStep {
  const d = state.draft!;
  const symbols = listedSymbols(tokens);
  const words = parseOrderWords(d.words ?? '', symbols);
  const next: SavingsState = {
    ...state,
    tokens: tokens.map((t) => ({ symbol: t.symbol, network: t.network })),
  };
  const token = words.token;
  if (!token)
    return exit(session, [text('savings-no-token', { tokens: symbols.join(', ') }), text('savings-usage')]);
  const nets = networksFor(tokens, token);
  if (words.network && !nets.includes(words.network))
    return exit(session, [
      text('savings-not-on-network', { token, network: NETWORK_INFO[words.network].displayName }),
    ]);
  let draft: Draft = {
    amountKes: d.amountKes,
    cadence: d.cadence,
    token,
    ...(words.network ? { network: words.network } : {}),
  };
  const notes: Text[] = [];
  if (words.wallet && draft.network) {
    const w = parseWallet(draft.network, words.wallet);
    if (w.ok) draft = { ...draft, wallet: w.value };
    else
      notes.push(
        text('buy-wallet-wrong-format', {
          address: words.wallet,
          network: NETWORK_INFO[draft.network].displayName,
        }),
      );
  }
  if (words.phone) draft = { ...draft, phone: words.phone };
  return advance(session, next, draft, ctx, notes);
}

/** `/save 500 KES USDT every friday`: the amount and schedule now, the rest once the assets are listed. */
function create(session: Session, args: string, ctx: FlowContext): FlowStep {
  const sched = readScheduleWords(args);
  if (sched.bad)
    return exit(session, [text('savings-bad-schedule', { word: sched.bad }), text('savings-usage')]);
  const cadence = cadenceOf(sched, weekdayOf(ctx.now));
  const amountWord = parseOrderWords(sched.rest, []).amount;
  const amount = amountWord ? parseKesAmount(amountWord.text) : undefined;
  if (!amount?.ok || !cadence) return exit(session, [text('savings-usage')]);
  // A plan no run could ever pay (an STK push takes KES 1 to 10,000) is refused now, not at each run.
  const outside = amountOutside('buy-amount-outside', amount.value, KNOWN_LIMITS.onramp);
  if (outside) return exit(session, [outside, text('savings-usage')]);
  return at(
    session,
    {
      name: 'savings',
      step: 'assets',
      draft: { amountKes: amount.value, cadence: cadenceText(cadence), words: sched.rest },
    },
    [{ type: 'fetchAssets' }],
  );
}

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
