/**
 * Rate alerts in the chat: `/alert USDT below 128` sets one (asking only what is missing: network,
 * side, level), `/alerts` lists them with a button each to change, renew or delete it. The store
 * (src/alerts/store/store.ts) answers the `alerts` effect; the ticker tells the user when a rate crosses.
 * Its state and button ids are in state.ts, how it shows alerts and the store's answers in views.ts.
 */
import type { Text } from '../../chat/types.js';
import { failureTexts } from '../../flows/failures.js';
import type { FlowDef, FlowStep } from '../../flows/flow.js';
import {
  button,
  isEffectResult,
  navRow,
  plainButton,
  rows,
  send,
  text,
  unhandled,
} from '../../flows/flow.js';
import { displayNetwork } from '../../flows/form/asset-steps.js';
import { listedSymbols, networksFor } from '../../flows/form/assets.js';
import { matchSymbol } from '../../flows/parse.js';
import { networkSchema } from '../../flows/schemas.js';
import type { Session } from '../../flows/session.js';
import type { EffectResult, Input } from '../../flows/types.js';
import { parseAlertWords, parseLevel } from './parse.js';

import { type AlertsState, at, MAX_ALERTS, sideSchema } from './state.js';
import { oneAlert, onOutcome, sideText } from './views.js';

export { alertsStateSchema } from './state.js';

function saving(session: Session, state: AlertsState): FlowStep {
  const next: AlertsState = { ...state, step: 'saving', assets: undefined };
  return at(session, next, [
    {
      type: 'alerts',
      request: {
        action: 'set',
        token: state.token!,
        network: state.network!,
        side: state.side!,
        level: state.level!,
        ...(state.slot ? { slot: state.slot } : {}),
      },
    },
  ]);
}

/** Asks the first thing still missing, or saves the alert once nothing is. */
function advance(session: Session, state: AlertsState, notes: Text[] = []): FlowStep {
  const assets = state.assets ?? [];
  const next = { ...state };
  if (next.token && assets.length) {
    const symbol = matchSymbol(next.token, listedSymbols(assets));
    if (!symbol) {
      notes.push(text('alerts-token-unknown', { token: next.token }));
      next.token = undefined;
      next.network = undefined;
    } else next.token = symbol;
  }
  if (!next.token) {
    const symbols = listedSymbols(assets).map((s) => plainButton(`al:tok:${s}`, s));
    return at(session, { ...next, step: 'token' }, [
      send([...notes, text('alerts-ask-token')], { buttons: [...rows(symbols), navRow(false)] }),
    ]);
  }
  const networks = assets.length ? networksFor(assets, next.token) : next.network ? [next.network] : [];
  if (next.network && !networks.includes(next.network)) {
    notes.push(text('alerts-not-on-network', { token: next.token, network: displayNetwork(next.network) }));
    next.network = undefined;
  }
  if (!next.network && networks.length === 1) next.network = networks[0];
  if (!next.network) {
    const buttons = networks.map((n) => plainButton(`al:net:${n}`, displayNetwork(n)));
    return at(session, { ...next, step: 'network' }, [
      send([...notes, text('alerts-ask-network', { token: next.token })], {
        buttons: [...rows(buttons), navRow()],
      }),
    ]);
  }
  if (!next.side) {
    return at(session, { ...next, step: 'side' }, [
      send(
        [...notes, text('alerts-ask-side', { token: next.token, network: displayNetwork(next.network) })],
        {
          buttons: [
            [button('al:side:below', 'alerts-button-below'), button('al:side:above', 'alerts-button-above')],
            navRow(),
          ],
        },
      ),
    ]);
  }
  if (next.level === undefined) {
    return at(session, { ...next, step: 'level' }, [
      send(
        [
          ...notes,
          text('alerts-ask-level', {
            token: next.token,
            network: displayNetwork(next.network),
            side: sideText(next.side),
          }),
        ],
        { buttons: [navRow()] },
      ),
    ]);
  }
  return saving(session, next);
}

function onResult(session: Session, state: AlertsState, input: EffectResult): FlowStep {
  if (input.kind === 'alerts') return onOutcome(session, state, input.outcome);
  if (input.kind === 'assets' && state.step === 'loading')
    return advance(session, { ...state, assets: input.assets.tokens });
  if (input.kind === 'effectFailed' && input.effect === 'alerts')
    return { session, effects: [], exit: [text('alerts-unavailable')] };
  if (input.kind === 'effectFailed' && input.effect === 'fetchAssets' && state.step === 'loading')
    return { session, effects: [], exit: failureTexts(input.error) };
  return unhandled(session);
}

/** Asks the store for the user's alerts. */
const listing = (session: Session): FlowStep =>
  at(session, { name: 'alerts', step: 'listing' }, [{ type: 'alerts', request: { action: 'list' } }]);

/** Starts a new alert from what was typed or tapped: the listing is fetched to check token and network. */
function newAlert(session: Session, words: Partial<AlertsState>, notes: Text[] = []): FlowStep {
  const state: AlertsState = { name: 'alerts', step: 'loading', ...words };
  return at(
    session,
    state,
    notes.length ? [send(notes), { type: 'fetchAssets' }] : [{ type: 'fetchAssets' }],
  );
}

function fromWords(session: Session, typed: string): FlowStep {
  const w = parseAlertWords(typed);
  const notes = w.badLevel ? [text('alerts-level-invalid', { text: w.badLevel })] : [];
  return newAlert(
    session,
    {
      ...(w.token ? { token: w.token } : {}),
      ...(w.network ? { network: w.network } : {}),
      ...(w.side ? { side: w.side } : {}),
      ...(w.level !== undefined ? { level: w.level } : {}),
    },
    notes,
  );
}

const slotOf = (value: string): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= MAX_ALERTS ? n : undefined;
};

/** A button of this flow, from a message of any age: ids carry what they need. */
function onButton(session: Session, state: AlertsState | undefined, id: string): FlowStep {
  const [, kind = '', a = '', b = '', c = ''] = id.split(':');
  if (kind === 'list') return listing(session);
  if (kind === 'new') {
    const side = sideSchema.safeParse(a).data;
    const network = networkSchema.safeParse(c).data;
    return newAlert(session, side && b && network ? { side, token: b, network } : {});
  }
  const slot = slotOf(a);
  if (slot && kind === 'del')
    return at(session, { name: 'alerts', step: 'saving', listed: state?.listed }, [
      { type: 'alerts', request: { action: 'delete', slot } },
    ]);
  if (slot && kind === 'renew')
    return at(session, { name: 'alerts', step: 'saving', listed: state?.listed }, [
      { type: 'alerts', request: { action: 'renew', slot } },
    ]);
  const known = slot ? state?.listed?.find((x) => x.slot === slot) : undefined;
  if (known && kind === 'pick')
    return at(session, { ...state!, step: 'listing' }, [oneAlert(session, known)]);
  if (known && kind === 'chg')
    return advance(session, {
      name: 'alerts',
      step: 'level',
      slot,
      token: known.token,
      network: known.network,
      side: known.side,
      listed: state?.listed,
    });
  if (!state) return listing(session);
  if (kind === 'tok' && state.step === 'token') return advance(session, { ...state, token: a });
  if (kind === 'net' && state.step === 'network') {
    const network = networkSchema.safeParse(a).data;
    if (network) return advance(session, { ...state, network });
  }
  if (kind === 'side' && state.step === 'side') {
    const side = sideSchema.safeParse(a).data;
    if (side) return advance(session, { ...state, side });
  }
  // A stale tap (an old list): list again, so every button shown is current.
  return at(session, state, [send([text('core-button-stale')]), ...listing(session).effects]);
}

function onText(session: Session, state: AlertsState, typed: string): FlowStep {
  if (state.step === 'loading' || state.step === 'saving')
    return at(session, state, [send([text('buy-please-wait')])]);
  if (state.step === 'level') {
    const level = parseLevel(typed.replace(/\s+/g, ''));
    if (level !== undefined) return advance(session, { ...state, level });
  }
  const w = parseAlertWords(typed);
  const next: AlertsState = { ...state };
  if (w.side) next.side = w.side;
  if (w.level !== undefined) next.level = w.level;
  if (w.network) next.network = w.network;
  if (w.token && state.step === 'token') next.token = w.token;
  const used = Boolean(w.side || w.level !== undefined || w.network || (w.token && state.step === 'token'));
  if (used && state.step !== 'listing' && state.step !== 'shown') return advance(session, next);
  if (state.step === 'level')
    return at(session, state, [
      send([text('alerts-level-invalid', { text: typed })], { buttons: [navRow()] }),
    ]);
  return { session, effects: [], exit: [text('core-not-understood')] };
}

function handle(session: Session, state: AlertsState, input: Input): FlowStep {
  if (isEffectResult(input)) return onResult(session, state, input);
  if (input.kind === 'button') return onButton(session, state, input.id);
  if (input.kind === 'text') return onText(session, state, input.text);
  return at(session, state, [send([text('core-not-understood')])]);
}

export const alertsFlow: FlowDef<AlertsState> = {
  name: 'alerts',
  prefix: 'al',
  commands: ['alert', 'alerts', 'arifa', 'arifu'],
  startButtons: ['al:'],
  start(session, _ctx, how) {
    if (how.button) return onButton(session, undefined, how.button);
    const args = how.args?.trim() ?? '';
    // `/alerts` (or `/arifa` alone) lists; `/alert` with words sets one, alone it asks.
    if (!args && (how.command === 'alerts' || how.command === 'arifa')) return listing(session);
    return fromWords(session, args);
  },
  handle,
  back(session, state) {
    if (state.step === 'level' && !state.slot)
      return advance(session, { ...state, side: undefined, level: undefined });
    if (state.step === 'side') return advance(session, { ...state, network: undefined, side: undefined }, []);
    return { session, effects: [], exit: [] };
  },
};
