/**
 * The support chat's middleware: messages in a case topic from agents become desk actions
 * (`/status`, `/ticket`, `/resolve <message>`, `/reopen`, anything else is relayed to the user);
 * everyone else is refused in the topic and nothing happens. Other chats pass through.
 */
import type { Bot, Context } from 'grammy';
import type { Logger } from '../log/logger.js';
import type { AgentGate } from './agents.js';
import type { Desk } from './desk.js';

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

/** Installs the support chat's handlers on the bot (call before the bot starts). */
export function installSupportChat(opts: {
  bot: Bot;
  chatId: string;
  desk: Desk;
  gate: AgentGate;
  logger: Logger;
}): void {
  const { bot, chatId, desk, gate } = opts;
  const log = opts.logger.child({ component: 'support-chat' });

  bot.on('message', async (ctx, next) => {
    if (String(ctx.chat.id) !== chatId) return next();
    const threadId = ctx.message.message_thread_id;
    const from = ctx.from;
    if (!threadId || !from || from.is_bot) return;
    const c = await desk.caseByTopic(chatId, threadId);
    if (!c) return;
    const text = ctx.message.text;
    const content = text ?? ctx.message.caption;
    const serviceMessage = content === undefined && !hasMedia(ctx);
    if (serviceMessage) return;

    if (!(await gate.isAgent(from.id))) {
      log.warn({ caseId: c.id, userId: from.id }, 'a non-agent tried to act in a case topic; refused');
      await desk.say(c.id, [{ id: 'support-topic-not-agent' }]);
      return;
    }
    const agentId = String(from.id);
    if (text === undefined) {
      await desk.say(c.id, [{ id: 'support-topic-non-text' }]);
      return;
    }
    const command = commandOf(ctx, text);
    if (command) {
      switch (command.name) {
        case 'status':
          return desk.agentStatus(c.id, agentId);
        case 'ticket':
          return desk.agentTicket(c.id, agentId);
        case 'resolve':
        case 'close':
          if (!command.args) return desk.say(c.id, [{ id: 'support-topic-resolve-usage' }]);
          return desk.agentResolve(c.id, agentId, command.args.slice(0, MAX_AGENT_CHARS));
        case 'reopen':
          return desk.agentReopen(c.id, agentId);
        case '':
          return;
        default:
          return desk.say(c.id, [{ id: 'support-topic-help' }]);
      }
    }
    const message = text.trim();
    if (!message) return;
    await desk.agentMessage(c.id, agentId, message.slice(0, MAX_AGENT_CHARS));
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
