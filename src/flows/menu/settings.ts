/** Settings: language (en/sw), the saved M-Pesa phone, and one saved wallet per network. */
import * as z from 'zod';
import type { Locale, Text } from '../../chat/types.js';
import { NETWORK_INFO } from '../../domain/networks.js';
import { NETWORKS, type Network } from '../../domain/types.js';
import { walletProblemText } from '../buy/buy-questions.js';
import type { FlowDef, FlowStep } from '../flow.js';
import {
  button,
  displayPhone,
  isEffectResult,
  navRow,
  plainButton,
  rows,
  send,
  text,
  unhandled,
  word,
} from '../flow.js';
import { parsePhone, parseWallet } from '../parse.js';
import { chooseLanguage } from '../router/language.js';
import { networkSchema } from '../schemas.js';
import type { Session } from '../session.js';
import type { Effect, Input } from '../types.js';
import { menuButton } from './menu.js';

export const SETTINGS_STEPS = ['main', 'language', 'phone', 'phone-edit', 'wallets', 'wallet-edit'] as const;

export const settingsStateSchema = z.object({
  name: z.literal('settings'),
  step: z.enum(SETTINGS_STEPS),
  network: networkSchema.optional(),
});
export type SettingsState = z.infer<typeof settingsStateSchema>;
type Step = SettingsState['step'];

const LANGUAGE_WORDS: Record<string, Locale> = {
  en: 'en',
  english: 'en',
  kiingereza: 'en',
  sw: 'sw',
  swahili: 'sw',
  kiswahili: 'sw',
};

const displayNetwork = (n: Network): string => NETWORK_INFO[n].displayName;

function view(session: Session, step: Step, network: Network | undefined, notes: Text[]): Effect {
  const { profile } = session;
  switch (step) {
    case 'main':
      return send(
        [
          ...notes,
          text('settings-title'),
          text('settings-language-current', { language: session.locale }),
          profile.phone
            ? text('settings-phone-current', { phone: displayPhone(profile.phone) })
            : text('settings-phone-none'),
          text('settings-wallets-count', { count: Object.keys(profile.wallets).length }),
        ],
        {
          buttons: [
            [button('set:lang', 'settings-button-language')],
            [button('set:phone', 'settings-button-phone')],
            [button('set:wallets', 'settings-button-wallets')],
            [menuButton()],
          ],
        },
      );
    case 'language':
      return send([...notes, text('settings-ask-language')], {
        buttons: [[plainButton('set:lang:en', 'English'), plainButton('set:lang:sw', 'Kiswahili')], navRow()],
      });
    case 'phone':
      return send(
        [
          ...notes,
          profile.phone
            ? text('settings-phone-current', { phone: displayPhone(profile.phone) })
            : text('settings-phone-none'),
        ],
        {
          buttons: [
            [button('set:phone:change', 'settings-button-change')],
            ...(profile.phone ? [[button('set:phone:delete', 'settings-button-delete')]] : []),
            navRow(),
          ],
        },
      );
    case 'phone-edit':
      return send([...notes, text('settings-ask-phone')], { buttons: [navRow()], requestPhone: true });
    case 'wallets': {
      const saved = NETWORKS.filter((n) => profile.wallets[n]);
      const lines = saved.map((n) =>
        text('settings-wallet-line', { network: displayNetwork(n), address: profile.wallets[n]! }),
      );
      return send(
        [
          ...notes,
          ...(lines.length ? lines : [text('settings-wallets-none')]),
          text('settings-ask-wallet-network'),
        ],
        {
          buttons: [...rows(NETWORKS.map((n) => plainButton(`set:w:${n}`, displayNetwork(n)))), navRow()],
        },
      );
    }
    case 'wallet-edit': {
      const n = network!;
      const saved = profile.wallets[n];
      return send(
        [
          ...notes,
          saved
            ? text('settings-wallet-line', { network: displayNetwork(n), address: saved })
            : text('settings-wallet-none-for', { network: displayNetwork(n) }),
          text('settings-ask-wallet', { network: displayNetwork(n) }),
        ],
        { buttons: [...(saved ? [[button(`set:wdel:${n}`, 'settings-button-delete')]] : []), navRow()] },
      );
    }
  }
}

const go = (session: Session, step: Step, network: Network | undefined, notes: Text[] = []): FlowStep => ({
  session: { ...session, flow: { name: 'settings', step, network } },
  effects: [view(session, step, network, notes)],
});

/** The language chosen: kept from then on; back to the menu, the user's business here is done. */
function setLocale(session: Session, locale: Locale): FlowStep {
  return { session: chooseLanguage(session, locale), effects: [], exit: [text('settings-language-saved')] };
}

function onButton(session: Session, state: SettingsState, id: string): FlowStep {
  const [, kind, value] = id.split(':');
  switch (kind) {
    case 'lang':
      if (value === 'en' || value === 'sw') return setLocale(session, value);
      return go(session, 'language', undefined);
    case 'phone':
      if (value === 'change') return go(session, 'phone-edit', undefined);
      if (value === 'delete') {
        const { phone: _removed, ...profile } = session.profile;
        return go({ ...session, profile }, 'main', undefined, [text('settings-phone-deleted')]);
      }
      return go(session, 'phone', undefined);
    case 'wallets':
      return go(session, 'wallets', undefined);
    case 'w': {
      const network = networkSchema.safeParse(value);
      if (network.success) return go(session, 'wallet-edit', network.data);
      break;
    }
    case 'wdel': {
      const network = networkSchema.safeParse(value);
      if (network.success) {
        const { [network.data]: _removed, ...wallets } = session.profile.wallets;
        return go({ ...session, profile: { ...session.profile, wallets } }, 'wallets', undefined, [
          text('settings-wallet-deleted', { network: displayNetwork(network.data) }),
        ]);
      }
      break;
    }
  }
  return go(session, state.step, state.network, [text('core-button-stale')]);
}

function savePhone(session: Session, typed: string): FlowStep {
  const phone = parsePhone(typed);
  if (!phone)
    return go(session, 'phone-edit', undefined, [text('core-phone-invalid', { phone: typed.trim() })]);
  return go({ ...session, profile: { ...session.profile, phone } }, 'main', undefined, [
    text('settings-phone-saved'),
  ]);
}

function handle(session: Session, state: SettingsState, input: Input): FlowStep {
  if (isEffectResult(input)) return unhandled(session);
  if (input.kind === 'button') return onButton(session, state, input.id);
  if (input.kind === 'contact') return savePhone(session, input.phone);
  if (input.kind !== 'text') return go(session, state.step, state.network, [text('core-not-understood')]);
  const typed = input.text;
  const locale = LANGUAGE_WORDS[word(typed)];
  if (locale && (state.step === 'language' || state.step === 'main')) return setLocale(session, locale);
  if (state.step === 'phone-edit' || (state.step === 'phone' && /\d/.test(typed)))
    return savePhone(session, typed);
  if (state.step === 'wallet-edit' && state.network) {
    const wallet = parseWallet(state.network, typed);
    const network = displayNetwork(state.network);
    if (!wallet.ok) {
      // The buy's words: Algorand's checksum is not about capital letters; an address of the other
      // family of networks is named as such.
      const note = walletProblemText(wallet.problem, state.network, typed.trim());
      return go(session, 'wallet-edit', state.network, [note]);
    }
    const wallets = { ...session.profile.wallets, [state.network]: wallet.value };
    return go({ ...session, profile: { ...session.profile, wallets } }, 'wallets', undefined, [
      text('settings-wallet-saved', { network }),
    ]);
  }
  return go(session, state.step, state.network, [text('core-not-understood')]);
}

const PARENT: Record<Step, Step | undefined> = {
  main: undefined,
  language: 'main',
  phone: 'main',
  'phone-edit': 'phone',
  wallets: 'main',
  'wallet-edit': 'wallets',
};

export const settingsFlow: FlowDef<SettingsState> = {
  name: 'settings',
  prefix: 'set',
  commands: ['settings', 'language', 'lugha', 'mipangilio'],
  keywords: ['settings', 'mipangilio', 'language', 'lugha'],
  menu: { order: 60, label: text('core-menu-settings') },
  start(session, _ctx, how) {
    const wantsLanguage = how.command === 'language' || how.command === 'lugha';
    if (wantsLanguage && how.args) {
      const locale = LANGUAGE_WORDS[word(how.args)];
      if (locale) return setLocale(session, locale);
    }
    return go(session, wantsLanguage ? 'language' : 'main', undefined);
  },
  handle,
  back(session, state) {
    const parent = PARENT[state.step];
    if (!parent) return { session, effects: [], exit: [] };
    return go(session, parent, undefined);
  },
};
