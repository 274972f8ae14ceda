/**
 * The support chat's middleware: messages in a case topic from agents become desk actions
 * (`/status [order]`, `/ticket [order|manual]`, `/resolve <message>`, `/reopen`, `/remind
 * [minutes]`, anything else is relayed to the user), and so do the buttons under the card
 * (`desk:<action>:<caseId>`); `/cases` lists the open cases, oldest first. Everyone else is refused
 * and nothing happens. Other chats pass through.
 */
import type { Bot, Context } from 'grammy';
import type { Logger } from '../log/logger.js';
import type { AgentGate } from './agents.js';
import type { AgentRef, Desk } from './desk.js';

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

/** Installs the support chat's handlers on the bot (call before the bot starts). */
export function installSupportChat(opts: {
  bot: Bot;
  chatId: string;
  desk: Desk;
  gate: AgentGate;
  logger: Logger;
  /** A desk text in the desk's language, plain (the alert a non-agent gets for a button). */
  say?: (id: string) => string;
}): void {
  const { bot, chatId, desk, gate } = opts;
  const notAgentAlert = opts.say?.('support-button-not-agent') ?? 'support-button-not-agent';
  const log = opts.logger.child({ component: 'support-chat' });

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
    if (String(ctx.chat.id) !== chatId) return next();
    const threadId = ctx.message.message_thread_id;
    const from = ctx.from;
    if (!from || from.is_bot) return;
    const text = ctx.message.text;
    const asked = text !== undefined ? commandOf(ctx, text) : undefined;
    if (asked?.name === 'cases') {
      if (!(await gate.isAgent(from.id))) return;
      const c = threadId ? await desk.caseByTopic(chatId, threadId) : undefined;
      await desk.postList(c ? threadId : undefined, await desk.openCases());
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
      await desk.say(c.id, [{ id: 'support-topic-not-agent' }]);
      return;
    }
    const agent = agentOf(from);
    if (text === undefined) {
      await desk.say(c.id, [{ id: 'support-topic-non-text' }]);
      return;
    }
    if (asked) return command(c.id, agent, asked);
    const message = text.trim();
    if (!message) return;
    await desk.agentMessage(c.id, agent, message.slice(0, MAX_AGENT_CHARS));
  });

  // The buttons under the card and the desk's posts: `desk:<action>:<caseId>`, for agents only.
  bot.on('callback_query:data', async (ctx, next) => {
    const chat = ctx.callbackQuery.message?.chat.id;
    if (chat === undefined || String(chat) !== chatId) return next();
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
  });
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
