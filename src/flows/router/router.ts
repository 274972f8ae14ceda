/**
 * The router: global inputs first (/start, /menu, cancel, back, /help, a flow's global keywords,
 * menu:* buttons), then the active flow. Table-driven: the app hands in its flow table.
 */
import type { Locale } from '../../chat/types.js';
import type { FlowDef, FlowStart, FlowStep } from '../flow.js';
import { button, isEffectResult, MENU_MAIN, NAV_BACK, NAV_CANCEL, text, word } from '../flow.js';
import type { FlowState } from '../flow-state.js';
import { isGreeting, menuFlow, menuMessage } from '../menu/menu.js';
import { parsePhone } from '../parse.js';
import type { Session } from '../session.js';
import type { Effect, EffectResult, FlowContext, Input, Step, Transition } from '../types.js';
import { chooseLanguage, followUserLanguage } from './language.js';

const CANCEL_WORDS = ['cancel', 'ghairi', 'acha', 'sitisha', 'stop'];
const BACK_WORDS = ['back', 'rudi', 'nyuma'];
const MENU_WORDS = ['menu', 'menyu', 'orodha', 'home', 'mwanzo'];
const HELP_WORDS = ['help', 'msaada'];
/** "nataka kununua", "I want to buy": what follows names the flow. */
const WANT = /^(?:nataka|ningependa|naomba|i\s+want\s+to|i'?d\s+like\s+to|i\s+would\s+like\s+to)\s+/i;

type Def = FlowDef<FlowState>;

/** The flow table as the router reads it. */
interface Table {
  defs: readonly Def[];
  byName(name: string): Def | undefined;
  /** The active flow (the menu when the session names a flow the table lacks). */
  active(session: Session): Def;
}

/** Builds the transition for a flow table (the app's in src/app/flows.ts; tests pass their own). */
export function createTransition(defs: readonly Def[]): Transition<Session> {
  const byName = (name: string): Def | undefined => defs.find((d) => d.name === name);
  const table: Table = { defs, byName, active: (session) => byName(session.flow.name) ?? (menuFlow as Def) };
  return (session, input, ctx) => {
    const own = withOwnPhone(followUserLanguage(session, input), input, ctx);
    return finish(table, route(table, own, input, ctx), ctx);
  };
}

const toMenu = (session: Session, texts = [] as FlowStep['exit']): FlowStep => ({
  session,
  effects: [],
  exit: texts,
});

function startFlow(t: Table, session: Session, ctx: FlowContext, name: string, how: FlowStart): FlowStep {
  const def = t.byName(name);
  if (!def) return toMenu(session, [text('core-unavailable')]);
  return def.start(session, ctx, how);
}

function cancel(t: Table, session: Session, ctx: FlowContext): FlowStep {
  const def = t.active(session);
  if (def.name === 'menu') {
    for (const d of t.defs) {
      const ended = d.idleCancel?.(session, ctx);
      if (ended) return ended;
    }
    return toMenu(session, [text('core-nothing-to-cancel')]);
  }
  return def.cancel?.(session, session.flow, ctx) ?? toMenu(session, [text('core-cancelled')]);
}

function back(t: Table, session: Session, ctx: FlowContext): FlowStep {
  return t.active(session).back?.(session, session.flow, ctx) ?? toMenu(session, []);
}

function command(t: Table, session: Session, ctx: FlowContext, name: string, args: string): FlowStep {
  const cmd = name.replace(/^\//, '').split('@')[0]!.toLowerCase();
  if (cmd === 'start') return greet(t, session, ctx, true);
  if (cmd === 'menu') return toMenu(session, []);
  if (cmd === 'cancel' || cmd === 'ghairi') return cancel(t, session, ctx);
  if (cmd === 'back' || cmd === 'rudi') return back(t, session, ctx);
  const def = t.defs.find((d) => d.commands?.includes(cmd));
  if (def) return def.start(session, ctx, { command: cmd, args: args.trim() || undefined });
  return toMenu(session, [text('core-unknown-command', { command: `/${cmd}` })]);
}

/** An effect result goes to the active flow; one it does not claim is offered to every flow's `orphan`. */
function routeResult(t: Table, session: Session, input: EffectResult, ctx: FlowContext): FlowStep {
  const step = t.active(session).handle(session, session.flow, input, ctx);
  if (!step.unhandled) return step;
  for (const d of t.defs) {
    const orphan = d.orphan?.(session, input, ctx);
    if (orphan) return orphan;
  }
  return { session, effects: [] };
}

/** Typed text: a slash command, a global word, a flow's global keyword, or what the menu recognises. */
function routeText(t: Table, session: Session, typed: string, ctx: FlowContext): FlowStep | undefined {
  const def = t.active(session);
  const slash = /^\/([a-zA-Z_]+)(?:@\w+)?(?:\s+([\s\S]*))?$/.exec(typed);
  if (slash) return command(t, session, ctx, slash[1]!, slash[2] ?? '');
  const w = word(typed);
  if (CANCEL_WORDS.includes(w)) return cancel(t, session, ctx);
  if (BACK_WORDS.includes(w)) return back(t, session, ctx);
  if (MENU_WORDS.includes(w)) return toMenu(session, []);
  if (HELP_WORDS.includes(w) && t.byName('help')) return startFlow(t, session, ctx, 'help', {});
  const called = t.defs.find((d) => d.globalKeywords?.includes(w));
  if (called && called.name !== def.name && !def.takesFreeText?.(session.flow))
    return called.start(session, ctx, {});
  if (def.name !== 'menu') return undefined;
  if (isGreeting(typed)) return greet(t, session, ctx, !session.profile.welcomed);
  for (const d of t.defs) {
    const recognised = d.idleText?.(session, typed, ctx);
    if (recognised) return recognised;
  }
  const [first = '', ...rest] = typed.replace(WANT, '').split(/\s+/);
  const target = t.defs.find((d) => d.keywords?.includes(word(first)));
  if (target) return target.start(session, ctx, { args: rest.join(' ') || undefined });
  if (!typed || isGreeting(typed)) return undefined;
  for (const d of t.defs) {
    const taken = d.unclaimedText?.(session, typed, ctx);
    if (taken) return taken;
  }
  return undefined;
}

const LANGUAGE_SWITCH = /^lang:(en|sw)$/;

/** The one-tap switch to the other language, labelled in that language. */
const languageSwitch = (current: Locale) =>
  button(`lang:${current === 'sw' ? 'en' : 'sw'}`, 'core-button-switch-language');

/**
 * A greeting or /start at the menu: the welcome (what the bot does) the first time and on /start,
 * else a short hello; either way the menu with a one-tap switch to the other language.
 */
function greet(t: Table, session: Session, ctx: FlowContext, welcome: boolean): FlowStep {
  const profile = welcome ? { ...session.profile, welcomed: true } : session.profile;
  const next: Session = { ...session, profile, flow: { name: 'menu' } };
  const hello = text(welcome ? 'core-welcome' : 'core-greeting');
  return {
    session: next,
    effects: [menuMessage(t.defs, [hello], next, ctx, [languageSwitch(session.locale)])],
  };
}

/** A tap: the menu and navigation, another flow's start button, or a stale button of a flow left behind. */
function routeButton(
  t: Table,
  session: Session,
  { id, on }: { id: string; on?: string },
  ctx: FlowContext,
): FlowStep | undefined {
  if (id === MENU_MAIN) return toMenu(session, []);
  const chosen = LANGUAGE_SWITCH.exec(id)?.[1] as Locale | undefined;
  if (chosen) return toMenu(chooseLanguage(session, chosen), [text('settings-language-saved')]);
  if (id === NAV_BACK) return back(t, session, ctx);
  if (id === NAV_CANCEL) return cancel(t, session, ctx);
  if (id.startsWith('menu:')) {
    const [, name = '', ...args] = id.split(':');
    return startFlow(t, session, ctx, name, { button: id, args: args.join(':') || undefined });
  }
  if (id.split(':')[0] === t.active(session).prefix) return undefined;
  const starter = t.defs.find((d) =>
    d.startButtons?.some((b) => (b.endsWith(':') ? id.startsWith(b) : id === b)),
  );
  if (starter) return starter.start(session, ctx, { button: id, ...(on ? { on } : {}) });
  return toMenu(session, [text('core-button-stale')]);
}

function route(t: Table, session: Session, input: Input, ctx: FlowContext): FlowStep {
  if (isEffectResult(input)) return routeResult(t, session, input, ctx);
  if (input.kind === 'command') return command(t, session, ctx, input.command, input.args);
  const routed =
    input.kind === 'text'
      ? routeText(t, session, input.text.trim(), ctx)
      : input.kind === 'button'
        ? routeButton(t, session, input, ctx)
        : undefined;
  return routed ?? t.active(session).handle(session, session.flow, input, ctx);
}

/** Applies hand-overs and exits: at most a few hops, then the main menu. */
function finish(t: Table, step: FlowStep, ctx: FlowContext, hops = 0): Step<Session> {
  if (step.start && hops < 3) {
    const next = startFlow(t, step.session, ctx, step.start.flow, step.start.how ?? {});
    return finish(t, { ...next, effects: [...step.effects, ...next.effects] }, ctx, hops + 1);
  }
  if (step.exit || step.start) {
    const atMenu: Session = { ...step.session, flow: { name: 'menu' } };
    const menu = menuMessage(t.defs, step.exit ?? [], atMenu, ctx);
    const shown =
      step.exitAs && menu.type === 'send' ? { ...menu, message: { ...menu.message, ...step.exitAs } } : menu;
    const effects: Effect[] = [...step.effects, shown];
    return { state: atMenu, effects };
  }
  return { state: step.session, effects: step.effects };
}

/**
 * Records the number the channel proves is the user's own: a shared Telegram contact, the WhatsApp
 * sender; in the terminal chat every typed number is the operator's own. An STK push to any other
 * number is a third party's, confirmed as such and rate limited (src/limits).
 */
function withOwnPhone(session: Session, input: Input, ctx: FlowContext): Session {
  const profile = session.profile;
  let ownPhone = profile.ownPhone;
  if (input.kind === 'contact') ownPhone = parsePhone(input.phone) ?? ownPhone;
  else if (ctx.user.channel === 'whatsapp' && !ownPhone) ownPhone = parsePhone(ctx.user.id);
  const ownsTypedPhones = ctx.user.channel === 'terminal' || undefined;
  if (ownPhone === profile.ownPhone && ownsTypedPhones === profile.ownsTypedPhones) return session;
  return {
    ...session,
    profile: {
      ...profile,
      ...(ownPhone ? { ownPhone } : {}),
      ...(ownsTypedPhones ? { ownsTypedPhones } : {}),
    },
  };
}
