/** Reading what the bot sent in the fake's chats. */
import type { FakeMessage, FakeTelegramBotApi } from '../fakes/telegram-bot-api.js';

/** Callback data of a message's inline buttons. */
export const buttonsOf = (m: FakeMessage): string[] =>
  (m.reply_markup?.inline_keyboard ?? [])
    .flat()
    .map((b: { callback_data?: string }) => b.callback_data ?? '');

/** The texts of a chat's bot messages after message id `after`. */
export const textsAfter = (fake: FakeTelegramBotApi, chatId: number, after = 0): string[] =>
  fake
    .sentMessages(chatId)
    .filter((m) => m.message_id > after)
    .map((m) => m.text);

/** Waits for a bot message in a chat (after message id `after`) whose text matches. */
export function waitForText(
  fake: FakeTelegramBotApi,
  chatId: number,
  match: RegExp | string,
  after = 0,
  timeoutMs = 8000,
): Promise<FakeMessage> {
  const test = (t: string) => (typeof match === 'string' ? t.includes(match) : match.test(t));
  return fake.waitFor(
    () => fake.sentMessages(chatId).find((m) => m.message_id > after && test(m.text)),
    timeoutMs,
    `a message matching ${match} in chat ${chatId}`,
  );
}

export const lastId = (fake: FakeTelegramBotApi, chatId: number): number =>
  fake.sentMessages(chatId).at(-1)?.message_id ?? 0;
