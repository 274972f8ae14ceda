/**
 * A new standing buy: `/save …` read, then the next question the draft needs (token, network, wallet,
 * phone) against the listed assets, until the summary.
 */
import type { Text } from '../chat/types.js';
import { NETWORK_INFO } from '../domain/networks.js';
import type { TokenInfo } from '../domain/types.js';
import type { FlowStep } from '../flows/flow.js';
import { button, navRow, send, text } from '../flows/flow.js';
import { listedSymbols, networksFor } from '../flows/form/assets.js';
import { parseKesAmount, parseOrderWords, parseWallet } from '../flows/parse.js';
import { amountOutside, KNOWN_LIMITS } from '../flows/quote/quote-view.js';
import type { Session } from '../flows/session.js';
import type { FlowContext } from '../flows/types.js';
import { ask, at, type Draft, exit, type SavingsState, weekdayOf } from './flow-state.js';
import { summary } from './flow-views.js';
import { cadenceOf, readScheduleWords } from './flow-words.js';
import { cadenceText } from './schedule.js';
/** The next question the draft needs, or the summary. */
export function advance(
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
export function withAssets(
  session: Session,
  state: SavingsState,
  tokens: TokenInfo[],
  ctx: FlowContext,
): FlowStep {
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
export function create(session: Session, args: string, ctx: FlowContext): FlowStep {
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
