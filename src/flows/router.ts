/**
 * The router: global inputs first (/start, /menu, cancel, back, /help, a flow's global keywords,
 * menu:* buttons), then the active flow. Table-driven: the app hands in its flow table.
 */
import type { FlowDef, FlowStart, FlowStep } from './flow.js';
import { isEffectResult, MENU_MAIN, NAV_BACK, NAV_CANCEL, text, word } from './flow.js';
import type { FlowState } from './flow-state.js';
import { menuFlow, menuMessage } from './menu.js';
import { parsePhone } from './parse.js';
import type { Session } from './session.js';
import type { Effect, FlowContext, Input, Step, Transition } from './types.js';

const CANCEL_WORDS = ['cancel', 'ghairi', 'acha', 'sitisha', 'stop'];
const BACK_WORDS = ['back', 'rudi', 'nyuma'];
const MENU_WORDS = ['menu', 'menyu', 'orodha', 'home', 'mwanzo'];
const HELP_WORDS = ['help', 'msaada'];

type Def = FlowDef<FlowState>;

/** Builds the transition for a flow table (the app's in src/app/flows.ts; tests pass their own). */
export function createTransition(defs: readonly Def[]): Transition<Session> {
  const byName = (name: string): Def | undefined => defs.find((d) => d.name === name);
  const active = (session: Session): Def => byName(session.flow.name) ?? (menuFlow as Def);
  const toMenu = (session: Session, texts = [] as FlowStep['exit']): FlowStep => ({
    session,
    effects: [],
    exit: texts,
  });

  const startFlow = (session: Session, ctx: FlowContext, name: string, how: FlowStart): FlowStep => {
    const def = byName(name);
    if (!def) return toMenu(session, [text('core-unavailable')]);
    return def.start(session, ctx, how);
  };

  const cancel = (session: Session, ctx: FlowContext): FlowStep => {
    const def = active(session);
    if (def.name === 'menu') return toMenu(session, [text('core-nothing-to-cancel')]);
    return def.cancel?.(session, session.flow, ctx) ?? toMenu(session, [text('core-cancelled')]);
  };

  const back = (session: Session, ctx: FlowContext): FlowStep => {
    const def = active(session);
    return def.back?.(session, session.flow, ctx) ?? toMenu(session, []);
  };

  const command = (session: Session, ctx: FlowContext, name: string, args: string): FlowStep => {
    const cmd = name.replace(/^\//, '').split('@')[0]!.toLowerCase();
    if (cmd === 'start') return toMenu(session, [text('core-welcome')]);
    if (cmd === 'menu') return toMenu(session, []);
    if (cmd === 'cancel' || cmd === 'ghairi') return cancel(session, ctx);
    if (cmd === 'back' || cmd === 'rudi') return back(session, ctx);
    const def = defs.find((d) => d.commands?.includes(cmd));
    if (def) return def.start(session, ctx, { command: cmd, args: args.trim() || undefined });
    return toMenu(session, [text('core-unknown-command', { command: `/${cmd}` })]);
  };

  const route = (session: Session, input: Input, ctx: FlowContext): FlowStep => {
    const def = active(session);
    if (isEffectResult(input)) {
      const step = def.handle(session, session.flow, input, ctx);
      if (!step.unhandled) return step;
      for (const d of defs) {
        const orphan = d.orphan?.(session, input, ctx);
        if (orphan) return orphan;
      }
      return { session, effects: [] };
    }
    if (input.kind === 'command') return command(session, ctx, input.command, input.args);
    if (input.kind === 'text') {
      const typed = input.text.trim();
      const slash = /^\/([a-zA-Z_]+)(?:@\w+)?(?:\s+([\s\S]*))?$/.exec(typed);
      if (slash) return command(session, ctx, slash[1]!, slash[2] ?? '');
      const w = word(typed);
      if (CANCEL_WORDS.includes(w)) return cancel(session, ctx);
      if (BACK_WORDS.includes(w)) return back(session, ctx);
      if (MENU_WORDS.includes(w)) return toMenu(session, []);
      if (HELP_WORDS.includes(w) && byName('help')) return startFlow(session, ctx, 'help', {});
      const called = defs.find((d) => d.globalKeywords?.includes(w));
      if (called && called.name !== def.name && !def.takesFreeText?.(session.flow))
        return called.start(session, ctx, {});
      if (def.name === 'menu') {
        for (const d of defs) {
          const recognised = d.idleText?.(session, typed, ctx);
          if (recognised) return recognised;
        }
        const [first = '', ...rest] = typed.split(/\s+/);
        const target = defs.find((d) => d.keywords?.includes(word(first)));
        if (target) return target.start(session, ctx, { args: rest.join(' ') || undefined });
      }
    }
    if (input.kind === 'button') {
      const id = input.id;
      if (id === MENU_MAIN) return toMenu(session, []);
      if (id === NAV_BACK) return back(session, ctx);
      if (id === NAV_CANCEL) return cancel(session, ctx);
      if (id.startsWith('menu:')) {
        const [, name = '', ...args] = id.split(':');
        return startFlow(session, ctx, name, { button: id, args: args.join(':') || undefined });
      }
      const prefix = id.split(':')[0];
      if (prefix !== def.prefix) {
        const starter = defs.find((d) =>
          d.startButtons?.some((b) => (b.endsWith(':') ? id.startsWith(b) : id === b)),
        );
        if (starter) return starter.start(session, ctx, { button: id });
        return toMenu(session, [text('core-button-stale')]);
      }
    }
    return def.handle(session, session.flow, input, ctx);
  };

  /** Applies hand-overs and exits: at most a few hops, then the main menu. */
  const finish = (step: FlowStep, ctx: FlowContext, hops = 0): Step<Session> => {
    if (step.start && hops < 3) {
      const next = startFlow(step.session, ctx, step.start.flow, step.start.how ?? {});
      return finish({ ...next, effects: [...step.effects, ...next.effects] }, ctx, hops + 1);
    }
    if (step.exit || step.start) {
      const effects: Effect[] = [...step.effects, menuMessage(defs, step.exit ?? [])];
      return { state: { ...step.session, flow: { name: 'menu' } }, effects };
    }
    return { state: step.session, effects: step.effects };
  };

  return (session, input, ctx) => finish(route(withOwnPhone(session, input, ctx), input, ctx), ctx);
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
