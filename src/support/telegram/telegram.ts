/**
 * The support groups' middleware: messages in a case topic from agents become desk actions
 * (`/status [order]`, `/ticket [order|manual]`, `/resolve <message>`, `/reopen`, `/remind
 * [minutes]`, anything else is relayed to the user), and so do the buttons under the card
 * (`desk:<action>:<caseId>`); `/cases` lists the open cases, oldest first. Everyone else is refused
 * and nothing happens. Other chats pass through.
 *
 * An agent is acknowledged at once at no cost to the group's budget (a button's answer, a 👀
 * reaction on their message), and the action runs in the background, in order per case: a group's
 * updates are handled one at a time, so an action waiting on the ramp or a user's chat would
 * otherwise hold every other agent's press.
 */
import type { Bot, Context } from 'grammy';
import type { Logger } from '../../log/logger.js';
import type { AgentRef, Desk } from '../desk.js';
import type { AgentGate } from './agents.js';

/** The longest agent message relayed (the user's channel adds a short prefix). */
export const MAX_AGENT_CHARS = 3500;

type Command = { name: string; args: string };

function commandOf(ctx: Context, text: string): Command | undefined {
  const first = ctx.message?.entities?.[0];
  if (first?.type !== 'bot_command' || first.offset !== 0) return undefined;
  const [name = '', mention] = text.slice(1, first.length).split('@');
  if (mention && mention.toLowerCase() !== ctx.me.username.toLowerCase()) return { name: '', args: '' };
  return { name: name.toLowerCase(), args: text.slice(first.length).trim() };
}

/** The agent as the update names them: their Telegram id and first name (else @username). */
function agentOf(from: { id: number; first_name?: string; username?: string }): AgentRef {
  const name = from.first_name?.trim() || (from.username ? `@${from.username}` : undefined);
  return { id: String(from.id), ...(name ? { name: name.slice(0, 64) } : {}) };
}

/** How long the reminder button waits before checking the order again. */
export const REMIND_MS = 30 * 60_000;

/** The reaction that tells an agent their message was seen (one of Telegram's allowed reactions). */
export const SEEN_REACTION = '👀';

/** Installs the support groups' handlers on the bot (call before the bot starts). */
export function installSupportChat(opts: {
  bot: Bot;
  /** The support groups, each with who may act in it. */
  groups: Array<{ chatId: string; gate: AgentGate }>;
  desk: Desk;
  logger: Logger;
  /** A desk text in the desk's language, plain (the alert a non-agent gets for a button). */
  say?: (id: string) => string;
}): { idle(): Promise<void> } {
  const { bot, desk } = opts;
  const gates = new Map(opts.groups.map((g) => [g.chatId, g.gate]));
  const notAgentAlert = opts.say?.('support-button-not-agent') ?? 'support-button-not-agent';
  const log = opts.logger.child({ component: 'support-chat' });
  const chains = new Map<string, Promise<void>>();

  /** Runs a case's action after its earlier ones, without holding the group's other updates. */
  function dispatch(caseId: string, action: () => Promise<void>): void {
    const tail = (chains.get(caseId) ?? Promise.resolve())
      .then(action)
      .catch((err: unknown) => log.error({ caseId, err: String(err) }, 'a support action failed'));
    chains.set(caseId, tail);
    void tail.then(() => {
      if (chains.get(caseId) === tail) chains.delete(caseId);
    });
  }

  /** A command in a case topic (or `/cases` anywhere in the chat). */
  async function command(caseId: string, agent: AgentRef, c: Command): Promise<void> {
    switch (c.name) {
      case 'status':
        return desk.agentStatus(caseId, agent, c.args || undefined);
      case 'ticket':
        return desk.agentTicket(caseId, agent, c.args || undefined);
      case 'resolve':
      case 'close':
        if (!c.args) return desk.say(caseId, [{ id: 'support-topic-resolve-usage' }]);
        return desk.agentResolve(caseId, agent, c.args.slice(0, MAX_AGENT_CHARS));
      case 'reopen':
        return desk.agentReopen(caseId, agent);
      case 'remind': {
        const minutes = Number.parseInt(c.args, 10);
        const ms = Number.isFinite(minutes) && minutes > 0 ? Math.min(minutes, 24 * 60) * 60_000 : REMIND_MS;
        return desk.agentRemind(caseId, agent, ms);
      }
      case '':
        return;
      default:
        return desk.say(caseId, [{ id: 'support-topic-help' }]);
    }
  }

  bot.on('message', async (ctx, next) => {
    const chatId = String(ctx.chat.id);
    const gate = gates.get(chatId);
    if (!gate) return next();
    const threadId = ctx.message.message_thread_id;
    const from = ctx.from;
    if (!from || from.is_bot) return;
    const text = ctx.message.text;
    const asked = text !== undefined ? commandOf(ctx, text) : undefined;
    if (asked?.name === 'cases') {
      if (!(await gate.isAgent(from.id))) return;
      const c = threadId ? await desk.caseByTopic(chatId, threadId) : undefined;
      await ctx.react(SEEN_REACTION).catch(() => {});
      dispatch(`list:${chatId}`, async () =>
        desk.postList(chatId, c ? threadId : undefined, await desk.openCases()),
      );
      return;
    }
    if (!threadId) return;
    const c = await desk.caseByTopic(chatId, threadId);
    if (!c) return;
    const content = text ?? ctx.message.caption;
    const serviceMessage = content === undefined && !hasMedia(ctx);
    if (serviceMessage) return;

    if (!(await gate.isAgent(from.id))) {
      log.warn({ caseId: c.id, userId: from.id }, 'a non-agent tried to act in a case topic; refused');
      dispatch(c.id, () => desk.say(c.id, [{ id: 'support-topic-not-agent' }]));
      return;
    }
    const agent = agentOf(from);
    await ctx.react(SEEN_REACTION).catch(() => {});
    if (text === undefined) {
      dispatch(c.id, () => desk.say(c.id, [{ id: 'support-topic-non-text' }]));
      return;
    }
    if (asked) return dispatch(c.id, () => command(c.id, agent, asked));
    const message = text.trim();
    if (!message) return;
    const messageId = ctx.message.message_id;
    dispatch(c.id, () => desk.agentMessage(c.id, agent, message.slice(0, MAX_AGENT_CHARS), messageId));
  });

  // The buttons under the card and the desk's posts: `desk:<action>:<caseId>`, for agents only.
  bot.on('callback_query:data', async (ctx, next) => {
    const chat = ctx.callbackQuery.message?.chat.id;
    const gate = chat === undefined ? undefined : gates.get(String(chat));
    if (!gate) return next();
    const [kind, action = '', caseId = ''] = ctx.callbackQuery.data.split(':');
    if (kind !== 'desk' || !caseId) {
      await ctx.answerCallbackQuery().catch(() => {});
      return;
    }
    if (!(await gate.isAgent(ctx.from.id))) {
      log.warn({ caseId, userId: ctx.from.id, action }, 'a non-agent pressed a desk button; refused');
      await ctx.answerCallbackQuery({ text: notAgentAlert, show_alert: true }).catch(() => {});
      return;
    }
    await ctx.answerCallbackQuery().catch(() => {});
    const agent = agentOf(ctx.from);
    dispatch(caseId, () => button(caseId, agent, action));
  });

  async function button(caseId: string, agent: AgentRef, action: string): Promise<void> {
    switch (action) {
      case 'status':
        return desk.agentStatus(caseId, agent);
      case 'ticket':
        return desk.agentTicket(caseId, agent);
      case 'manual':
        return desk.agentTicket(caseId, agent, 'manual');
      case 'resolve':
        return desk.agentResolve(caseId, agent);
      case 'reopen':
        return desk.agentReopen(caseId, agent);
      case 'remind':
        return desk.agentRemind(caseId, agent, REMIND_MS);
    }
  }

  return {
    async idle() {
      while (chains.size) await Promise.all([...chains.values()]);
    },
  };
}

function hasMedia(ctx: Context): boolean {
  const m = ctx.message;
  return Boolean(
    m &&
      (m.photo ||
        m.document ||
        m.video ||
        m.voice ||
        m.audio ||
        m.sticker ||
        m.animation ||
        m.video_note ||
        m.contact ||
        m.location),
  );
}
